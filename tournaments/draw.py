"""The two-pot draw of a Preisschnapsen (RULES.md 5.1, 5.2, 5.4, 5.5): pure Python, no Django.

Words used here:

- *card*: a participation card (*Teilnahmekarte*, *Los*, *Leben*), named by its id. A
  player holds one or more cards; each card in play draws one number per round and
  plays (at most) one match with it. The loser of a match gives up that card.
- *pot*: one of the two pots, ``Pot.LEFT`` and ``Pot.RIGHT``, each holding the numbers
  1 .. ``pot_size`` at the start of a draw. Round 1 of N cards has ``pot_size`` N/2;
  each later round has half the pot of the one before, down to 1 (the final).
- *pull*: one number taken out of a pot for one card (``Pull``). Pulls are kept in the
  order they happen, put-backs included, so a draw can be replayed and printed.
- *put back*: a number drawn from the right pot that the same player already holds on
  the left goes back into the pot (``Pull.put_back``) and the same player draws again
  for the same card, unless every number still in the right pot is one of his own left
  numbers: then he keeps it and meets himself.
- *pairing*: what a number decides once everyone has drawn (``Pairing``): the card
  holding it on the left and the card holding it on the right, if any. A *match* is two
  cards of two different players. A *bye* (*Freilos*) is a number left over in the right
  pot: the left card advances without playing. A *walkover* is a number whose left and
  right cards belong to the same player: he gives up the right card and advances with
  the left one, no match is played.
- *draw order*: the order in which the holders draw (``draw_order``).

Where RULES.md is silent, this module decides:

- The cards laid out can be lowered below the usual 8 (RULES.md 5.1 asks for the
  smallest power of two >= S): 3 or 4 cards sold play on 4 cards (the semi-final is
  round 1), 2 cards sold play the final alone. Fewer than 2 sold cannot be drawn.
- A player with several cards draws all his numbers in a row, one per card, in the
  order of ``Holder.cards`` (the digital draw sorts them by card id).
- The digital draw of round 1 draws in a uniformly shuffled order. In later rounds the players holding more
  than one card draw first, then the rest; each of the two groups is shuffled on its
  own (no finer order by the number of cards). A draw at the venue calls the holders up
  in a fixed order instead (``physical_order``: by player id, the holders of several
  cards first in later rounds); the randomness is in the pots.
- The left pot has no put-backs (nobody holds a right number before it is empty). The
  test "every number still in the right pot is his own" is made at the moment of the
  pull, on the pot as it is then; a put-back pull is recorded and counts as a pull.
- The walkover gives up the right-hand card and advances with the left-hand one.
- The digital draw pulls each number uniformly from what is still in the pot and plays
  the put-backs out like the physical draw, so both leave the same kind of record. Its
  randomness comes only from ``random.Random(seed).random()``, whose sequence Python
  guarantees across versions (``shuffle`` and ``choice`` are not guaranteed), so a
  stored seed replays to the same draw on any later Python.
- A holder with no cards draws nothing. A session accepts any number of cards from
  ``pot_size + 1`` to ``2 * pot_size``; later rounds bring exactly ``2 * pot_size``
  (each round halves the cards), so they have no byes, unless cards were withdrawn
  (RULES.md 5.7): the withdrawn cards are not among the holders, so the numbers they
  would have drawn become byes of cards in play, and a withdrawn card never gets one.
- The four quarter-final losers are paired by drawing one of the three possible
  pairings uniformly; given the owners of the cards, only among the pairings with the
  fewest players meeting themselves. Three quarter-final losers (round 1 of an 8-card
  night with byes) draw one of them to a bye: the other two play, the bye's card plays
  for 5/6 against their winner and their loser is 7th (``bracket.placement_due``).

``DrawSession`` is the one engine: ``digital_draw`` and ``replay`` (the physical draw
typed in pull by pull) both go through it. A whole draw is linear in the number of cards
(plus the put-backs).
"""

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from base.errors import RuleError, gettext_noop
from tournaments.lots import below, shuffled

MIN_CARDS = 8
"""The fewest cards a tournament lays out when it is created."""
LOWEST_CARDS = 2
"""The fewest cards a night can be lowered to (RULES.md 5.1): two cards are its final."""
MAX_CARDS = 1024


class Pot(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class Kind(StrEnum):
    MATCH = "match"
    BYE = "bye"
    WALKOVER = "walkover"


@dataclass(frozen=True)
class Holder:
    """A player id and the ids of his cards still in play, in the order he draws for them."""

    player: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class Pull:
    """One number taken from ``pot`` for ``card`` of ``player``. ``put_back`` is True when
    the number went back into the right pot (the player holds it on the left) and the
    same card draws again."""

    player: int
    card: int
    pot: Pot
    number: int
    put_back: bool


@dataclass(frozen=True)
class Pairing:
    """What ``number`` decides. ``left`` and ``right`` are card ids.

    - ``MATCH``: two cards of two different players play each other.
    - ``BYE``: ``right`` is None; the left card advances without playing (a Freilos).
    - ``WALKOVER``: both cards belong to the same player; he gives up ``right`` and
      advances with ``left``.
    """

    number: int
    left: int | None
    right: int | None
    kind: Kind

    @property
    def advancing(self) -> int | None:
        """The card that advances without a match (bye, walkover), None for a match."""
        return None if self.kind is Kind.MATCH else self.left


@dataclass(frozen=True)
class Draw:
    """A finished draw: the ``pulls`` in order (put-backs included) and the ``pairings``
    sorted by number, exactly one for each number 1 .. ``pot_size``."""

    pot_size: int
    pulls: tuple[Pull, ...]
    pairings: tuple[Pairing, ...]


class DrawError(RuleError):
    """Input to the draw that breaks RULES.md 5; the user can fix it.

    Args:
        field: the input at fault: ``"cards"`` (how many cards) or ``"number"`` (a pull).
        template: an English message with ``%(name)s`` placeholders, marked with ``gettext_noop``.
        index: the position (0-based) of the pull at fault in a typed-in draw, or None.
        **params: values for the placeholders.
    """

    def __init__(self, field: str, template: str, *, index: int | None = None, **params: Any):
        super().__init__(field, template, index, **params)

    def at(self, index: int) -> "DrawError":
        """The same error, located at pull ``index`` (0-based) of a typed-in draw."""
        return DrawError(self.field, self.template, index=index, **self.params)

    def __str__(self) -> str:
        text = self.template % self.params if self.params else self.template
        if self.index is None:
            return f"{self.field}: {text}"
        return f"pull {self.index + 1}, {self.field}: {text}"


# Messages of a physical pull, one per pot so that each translates as a whole sentence.
_OUT_OF_RANGE = {
    Pot.LEFT: gettext_noop(
        "%(number)s is not a number of the left pot: it holds the numbers 1 to %(pot_size)s."
    ),
    Pot.RIGHT: gettext_noop(
        "%(number)s is not a number of the right pot: it holds the numbers 1 to %(pot_size)s."
    ),
}
_ALREADY_DRAWN = {
    Pot.LEFT: gettext_noop("%(number)s is no longer in the left pot: it has already been drawn."),
    Pot.RIGHT: gettext_noop("%(number)s is no longer in the right pot: it has already been drawn."),
}
_NOT_A_NUMBER = gettext_noop("Enter a whole number from 1 to %(pot_size)s.")
_DRAW_COMPLETE = gettext_noop("The draw is complete: every card has its number.")


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def smallest_cards(sold: int) -> int:
    """The number of cards to lower a night with ``sold`` cards to: the smallest power of
    two >= ``sold``, at least ``LOWEST_CARDS`` (RULES.md 5.1). May exceed the 1024 maximum."""
    if sold < 0:
        raise ValueError(f"sold must not be negative, got {sold}")
    return max(LOWEST_CARDS, 1 << max(0, sold - 1).bit_length())


def check_can_draw_round_one(cards: int, sold: int) -> None:
    """Raises ``DrawError(field="cards")`` unless round 1 can be drawn (RULES.md 5.1).

    ``cards`` (N) must be a power of two from ``LOWEST_CARDS`` (2) to 1024 (8 is the
    fewest laid out when a tournament is created; 4 and 2 are reached by lowering) and
    ``sold`` (S) must satisfy N/2 < S <= N. With S <= N/2 the message offers
    ``smallest_cards(S)`` as the lower N (param ``offer``); with fewer than 2 sold it
    says to sell more (param ``needed``), as no draw is possible.
    """
    if not _is_power_of_two(cards) or not LOWEST_CARDS <= cards <= MAX_CARDS:
        raise DrawError(
            "cards",
            gettext_noop(
                "The number of cards must be a power of two from %(min)s to %(max)s, not %(cards)s."
            ),
            cards=cards,
            min=LOWEST_CARDS,
            max=MAX_CARDS,
        )
    if sold > cards:
        raise DrawError(
            "cards",
            gettext_noop("%(sold)s cards are sold but only %(cards)s are laid out."),
            sold=sold,
            cards=cards,
        )
    if sold < LOWEST_CARDS:
        raise DrawError(
            "cards",
            gettext_noop(
                "Cards sold: %(sold)s. A draw needs at least %(needed)s: "
                "sell %(more)s more to start."
            ),
            sold=sold,
            cards=cards,
            needed=LOWEST_CARDS,
            more=LOWEST_CARDS - sold,
        )
    if sold <= cards // 2:
        raise DrawError(
            "cards",
            gettext_noop(
                "Only %(sold)s of %(cards)s cards are sold: the draw needs more than half. "
                "Lower the number of cards to %(offer)s."
            ),
            sold=sold,
            cards=cards,
            offer=smallest_cards(sold),
        )


def draw_order(holders: list[Holder], rng: random.Random, later_round: bool) -> list[Holder]:
    """The order in which ``holders`` draw (RULES.md 5.2, 5.4).

    Round 1: all holders shuffled. Later rounds: the holders of more than one card first,
    then the others, each group shuffled. The result depends on the order of ``holders``
    as given, so pass them in a canonical order (``digital_draw`` sorts by player id).
    """
    if not later_round:
        return shuffled(holders, rng)
    several = [h for h in holders if len(h.cards) > 1]
    single = [h for h in holders if len(h.cards) <= 1]
    return shuffled(several, rng) + shuffled(single, rng)


class _PotContents:
    """The numbers still in one pot: O(1) membership, removal and uniform pick."""

    def __init__(self, size: int):
        self.items = list(range(1, size + 1))
        self.index = list(range(-1, size))  # index[n] is n's place in items, -1 when drawn

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, number: int) -> bool:
        return self.index[number] >= 0

    def remove(self, number: int) -> None:
        place = self.index[number]
        last = self.items.pop()
        if last != number:
            self.items[place] = last
            self.index[last] = place
        self.index[number] = -1


class DrawSession:
    """One draw, pull by pull (RULES.md 5.2, 5.4): the engine of the digital and the
    physical draw.

    Args:
        holders: the holders in draw order (see ``draw_order``); each draws one number
            per card, in the order of his cards: from the left pot until it is empty,
            then from the right pot.
        pot_size: the numbers in each pot, a power of two (N/2 in round 1, halving after).

    Raises:
        DrawError(field="cards"): the cards in play are not more than ``pot_size`` and at
            most twice it.
        ValueError: a bad pot size, or a player or card listed twice (bugs of the caller).
    """

    def __init__(self, holders: list[Holder], pot_size: int):
        if not _is_power_of_two(pot_size):
            raise ValueError(f"pot_size must be a power of two, got {pot_size}")
        players: set[int] = set()
        cards: set[int] = set()
        turns: list[tuple[int, int]] = []
        for holder in holders:
            if holder.player in players:
                raise ValueError(f"player {holder.player} is listed twice")
            players.add(holder.player)
            for card in holder.cards:
                if card in cards:
                    raise ValueError(f"card {card} is listed twice")
                cards.add(card)
                turns.append((holder.player, card))
        if not pot_size < len(turns) <= 2 * pot_size:
            raise DrawError(
                "cards",
                gettext_noop(
                    "%(count)s cards are in play, but pots of %(pot_size)s numbers need more "
                    "than %(pot_size)s cards and at most %(most)s."
                ),
                count=len(turns),
                pot_size=pot_size,
                most=2 * pot_size,
            )
        self.pot_size = pot_size
        self._holders = tuple(holders)
        self._turns = turns
        self._turn = 0
        self._pots = {Pot.LEFT: _PotContents(pot_size), Pot.RIGHT: _PotContents(pot_size)}
        # number -> (player, card) on each side; None while not drawn
        self._left: list[tuple[int, int] | None] = [None] * (pot_size + 1)
        self._right: list[tuple[int, int] | None] = [None] * (pot_size + 1)
        # player -> how many of his left numbers are still in the right pot
        self._own_in_right: dict[int, int] = {}
        self._pulls: list[Pull] = []

    @property
    def done(self) -> bool:
        """True when every card in play has its number."""
        return self._turn == len(self._turns)

    @property
    def pulls(self) -> tuple[Pull, ...]:
        """The pulls so far, in order."""
        return tuple(self._pulls)

    @property
    def holders(self) -> tuple[Holder, ...]:
        """The holders in the order they draw (the call list of a draw at the venue)."""
        return self._holders

    def _pot(self) -> Pot:
        return Pot.LEFT if len(self._pots[Pot.LEFT]) else Pot.RIGHT

    def next_turn(self) -> tuple[int, int, Pot] | None:
        """``(player, card, pot)`` of the next pull, None when the draw is done."""
        if self.done:
            return None
        player, card = self._turns[self._turn]
        return player, card, self._pot()

    def allowed(self) -> list[int]:
        """The numbers still in the pot of the next pull, ascending ([] when done)."""
        if self.done:
            return []
        return sorted(self._pots[self._pot()].items)

    def pull(self, number: int) -> Pull:
        """Records that ``number`` was pulled from the pot of ``next_turn()``.

        A right-pot number the same player holds on the left is put back
        (``put_back=True``, the same card draws again) unless every number still in
        the right pot is his own: then he keeps it (a walkover).

        Raises:
            DrawError(field="number"): the draw is complete, or ``number`` is not a whole
                number of that pot (out of range) or has already been drawn from it.
        """
        if self.done:
            raise DrawError("number", _DRAW_COMPLETE)
        pot = self._pot()
        contents = self._pots[pot]
        if not isinstance(number, int) or isinstance(number, bool):
            raise DrawError("number", _NOT_A_NUMBER, number=number, pot_size=self.pot_size)
        if not 1 <= number <= self.pot_size:
            raise DrawError("number", _OUT_OF_RANGE[pot], number=number, pot_size=self.pot_size)
        if number not in contents:
            raise DrawError("number", _ALREADY_DRAWN[pot], number=number, pot_size=self.pot_size)
        player, card = self._turns[self._turn]
        if pot is Pot.LEFT:
            contents.remove(number)
            self._left[number] = (player, card)
            # The right pot is still full while the left one is drawn.
            self._own_in_right[player] = self._own_in_right.get(player, 0) + 1
            put_back = False
        else:
            owner = self._left[number]
            own = owner is not None and owner[0] == player
            put_back = own and self._own_in_right.get(player, 0) < len(contents)
            if not put_back:
                contents.remove(number)
                self._right[number] = (player, card)
                if owner is not None:
                    self._own_in_right[owner[0]] -= 1
        if not put_back:
            self._turn += 1
        result = Pull(player, card, pot, number, put_back)
        self._pulls.append(result)
        return result

    def pull_random(self, rng: random.Random) -> Pull:
        """Pulls a number uniformly from the pot of the next pull (the digital draw)."""
        if self.done:
            raise DrawError("number", _DRAW_COMPLETE)
        items = self._pots[self._pot()].items
        return self.pull(items[below(rng, len(items))])

    def result(self) -> Draw:
        """The finished draw: one pairing per number, sorted by number.

        Raises:
            DrawError(field="number"): cards are still to draw.
        """
        if not self.done:
            raise DrawError(
                "number",
                gettext_noop("The draw is not finished: %(missing)s cards still have to draw."),
                missing=len(self._turns) - self._turn,
            )
        pairings = []
        for number in range(1, self.pot_size + 1):
            left, right = self._left[number], self._right[number]
            assert left is not None  # more than pot_size cards empty the left pot
            if right is None:
                pairings.append(Pairing(number, left[1], None, Kind.BYE))
            elif right[0] == left[0]:
                pairings.append(Pairing(number, left[1], right[1], Kind.WALKOVER))
            else:
                pairings.append(Pairing(number, left[1], right[1], Kind.MATCH))
        return Draw(self.pot_size, tuple(self._pulls), tuple(pairings))


def canonical(holders: Iterable[Holder]) -> list[Holder]:
    """``holders`` sorted by player id, each with his cards sorted by id."""
    return sorted(
        (Holder(h.player, tuple(sorted(h.cards))) for h in holders), key=lambda h: h.player
    )


def physical_order(holders: Iterable[Holder], later_round: bool) -> list[Holder]:
    """The order in which the site calls the holders up at a draw at the venue (RULES.md
    5.2, 5.4): by player id, each with his cards ascending; in later rounds the holders
    of more than one card first. No randomness, so the session of a draw being typed in
    can be rebuilt from its stored pulls at any time."""
    ordered = canonical(holders)
    if not later_round:
        return ordered
    return [h for h in ordered if len(h.cards) > 1] + [h for h in ordered if len(h.cards) <= 1]


def digital_draw(holders: list[Holder], pot_size: int, seed: int, later_round: bool) -> Draw:
    """The digital draw of one round from ``seed`` (RULES.md 5.2, 5.4, 5.6).

    The holders are put in canonical order (``canonical``), ordered by ``draw_order``
    and draw uniformly from the pots through ``DrawSession``, all from one
    ``random.Random(seed)``. The same holders (in any order), pot size, seed and round
    give the same draw. Raises what ``DrawSession`` raises.
    """
    rng = random.Random(seed)
    session = DrawSession(draw_order(canonical(holders), rng, later_round), pot_size)
    while not session.done:
        session.pull_random(rng)
    return session.result()


def replay(holders_in_order: list[Holder], pot_size: int, numbers: list[int]) -> Draw:
    """The draw that the pulled ``numbers`` make, put-backs included (RULES.md 5.6): a
    physical draw typed in, or a stored draw checked again.

    Raises:
        DrawError(field="number"): a number that breaks the rules, with ``index`` the
            position (0-based) of that pull; or too few or too many numbers.
    """
    session = DrawSession(holders_in_order, pot_size)
    for index, number in enumerate(numbers):
        try:
            session.pull(number)
        except DrawError as error:
            raise error.at(index) from None
    return session.result()


def order_from_pulls(pulls: Iterable[Pull]) -> list[Holder]:
    """The holders in draw order as a record of pulls shows them (for ``replay``)."""
    cards: dict[int, list[int]] = {}
    for p in pulls:
        mine = cards.setdefault(p.player, [])
        if not mine or mine[-1] != p.card:
            mine.append(p.card)
    return [Holder(player, tuple(mine)) for player, mine in cards.items()]


def placement_pairs(
    cards: list[int], seed: int, owners: Mapping[int, int] | None = None
) -> tuple[tuple[int, int | None], tuple[int, int | None]]:
    """The quarter-final losers paired by a draw into the two "5-8" pairings (RULES.md 5.5).

    Four ``cards``: one of the three possible pairings into two matches is drawn
    uniformly with ``random.Random(seed)``. Three cards (a quarter-final with a bye):
    one of the three is drawn to a bye (``(card, None)``, listed second), the other two
    play. With ``owners`` (card -> player) the draw is only among the pairings in which
    the fewest players meet themselves. Each match pair is (lower id, higher id), the
    pair with the lowest card first. Raises ValueError unless there are three or four
    distinct cards.
    """
    if len(set(cards)) != len(cards) or len(cards) not in (3, 4):
        raise ValueError(f"placement needs three or four distinct cards, got {cards}")
    options: list[tuple[tuple[int, int | None], tuple[int, int | None]]]
    if len(cards) == 4:
        a, b, c, d = sorted(cards)
        options = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    else:
        a, b, c = sorted(cards)
        options = [((a, b), (c, None)), ((a, c), (b, None)), ((b, c), (a, None))]
    if owners is not None:

        def selves(option: tuple[tuple[int, int | None], tuple[int, int | None]]) -> int:
            return sum(y is not None and owners[x] == owners[y] for x, y in option)

        fewest = min(selves(o) for o in options)
        options = [o for o in options if selves(o) == fewest]
    return options[below(random.Random(seed), len(options))]
