"""Places and prizes of a Preisschnapsen (RULES.md 5.5), pure Python.

``places`` maps a place (1..8) to the card that holds it; ``award`` hands out the
prize list. With one prize per player, a player's lower prize passes to the next
place held by someone else, and every place after it moves up by one; past the places
decided one by one it passes into the range the next cards share (9-16 …), in card order.
``Place`` names the placement matches; ``cash`` and ``still_in`` give the desk's and
the live bracket's figures: money taken and open, and the players still in;
``player_cash`` the money per player (cards, paid, owed, cards left under the limit,
lives bought).
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum


class Place(StrEnum):
    """The label of a placement match (RULES.md 5.5): the semi-final losers play for 3
    (``THIRD``); the quarter-final losers are paired for 5 to 8 (``FIFTH_TO_EIGHTH``),
    whose winners then play for 5 (``FIFTH``) and whose losers for 7 (``SEVENTH``).
    The value is the label as stored and shown ("3", "5", "7", "5-8")."""

    THIRD = "3"
    FIFTH = "5"
    SEVENTH = "7"
    FIFTH_TO_EIGHTH = "5-8"

    @property
    def label(self) -> str:
        """As pages and printouts show it: "3", "5-8"."""
        return self.value

    @property
    def first(self) -> int:
        """The best place the match decides: 3, 5, 7, 5."""
        return int(self.value.split("-")[0])


@dataclass(frozen=True)
class Award:
    """Prize ``place`` (its description) goes to ``card`` of ``player``, who finished
    ``finished`` (the same as ``place`` unless prizes moved up)."""

    place: int
    description: str
    card: int
    player: int
    finished: int


def award(
    places: dict[int, tuple[int, int]],
    prizes: list[tuple[int, str]],
    one_per_player: bool,
    shared: Sequence[tuple[int, int, int]] = (),
) -> list[Award]:
    """Prizes in place order (RULES.md 5.5). ``places``: place -> (card, player) as far as
    known; ``prizes``: (place, description); ``shared``: (first place, card, player) of
    the cards that share a place range beyond the decided places (RULES.md 5.8), in the
    order a prize passed down reaches them (``bracket.shared_places``). A prize whose
    holder is not known yet is left out; with one prize per player a prize passes down
    past place 8 into a shared range once every place before it is known (``finished``
    is then the range's first place). Without one prize per player a prize inside a
    shared range goes to the range's card at that position (RULES.md 5.8: ``ranking``
    explains why), ``finished`` the range's first place."""
    if not one_per_player:
        at = {place: (held, place) for place, held in places.items()}
        taken: dict[int, int] = {}
        for first, card, player in shared:
            at.setdefault(first + taken.get(first, 0), ((card, player), first))
            taken[first] = taken.get(first, 0) + 1
        return [
            Award(place, description, *at[place][0], at[place][1])
            for place, description in sorted(prizes)
            if place in at
        ]
    # The chain of moved-up prizes is known only as far as the places are known from 1 on.
    known = []
    while len(known) + 1 in places:
        known.append((len(known) + 1, places[len(known) + 1]))
    ranges: dict[int, list[tuple[int, tuple[int, int]]]] = {}
    for first, card, player in shared:
        ranges.setdefault(first, []).append((first, (card, player)))
    while len(known) + 1 in ranges:
        known.extend(ranges[len(known) + 1])
    awards: list[Award] = []
    winners: set[int] = set()
    cursor = 0
    for place, description in sorted(prizes):
        # A prize goes to its own place, or, when that player already won one, to the
        # next place held by someone else; a gap in the prize list moves nothing.
        cursor = max(cursor, place - 1)
        while cursor < len(known) and known[cursor][1][1] in winners:
            cursor += 1
        if cursor >= len(known):
            break
        finished, (card, player) = known[cursor]
        awards.append(Award(place, description, card, player, finished))
        winners.add(player)
        cursor += 1
    return awards


@dataclass(frozen=True)
class Cash:
    """The money at the desk: ``sold`` cards, ``paid`` of them, at ``entry_fee`` euros a
    card; ``open`` cards not paid yet; ``lives`` bought (Leben, RULES.md 5.10) at
    ``life_fee`` euros each, paid when bought. The amounts in euros, to the cent:
    ``in_box`` (what was taken: cards paid and lives) = ``total`` (everything sold) −
    ``open_amount``."""

    sold: int
    paid: int
    entry_fee: Decimal
    lives: int = 0
    life_fee: Decimal = Decimal(0)

    @property
    def open(self) -> int:
        return self.sold - self.paid

    @property
    def paid_amount(self) -> Decimal:
        """Euros paid for cards so far."""
        return self.paid * self.entry_fee

    @property
    def sold_amount(self) -> Decimal:
        """Euros of every card sold, paid or not."""
        return self.sold * self.entry_fee

    @property
    def open_amount(self) -> Decimal:
        """Euros still to be paid for the cards sold."""
        return self.open * self.entry_fee

    @property
    def lives_amount(self) -> Decimal:
        """Euros of the lives bought (all paid)."""
        return self.lives * self.life_fee

    @property
    def in_box(self) -> Decimal:
        """The takings in the box: cards paid and lives bought."""
        return self.paid_amount + self.lives_amount

    @property
    def total(self) -> Decimal:
        """Everything sold: every card at the entry fee and every life at the life fee."""
        return self.sold_amount + self.lives_amount


def cash(entry_fee: Decimal, cards: Iterable, life_fee: Decimal = Decimal(0)) -> Cash:
    """``Cash`` of the cards sold (anything with ``paid`` and ``rebuys``, the lives its
    player bought), withdrawn ones included: their money was taken (RULES.md 5.7); the
    lives bought at ``life_fee`` each (``Tournament.life_price``)."""
    cards = list(cards)
    return Cash(
        sold=len(cards),
        paid=sum(1 for card in cards if card.paid),
        entry_fee=Decimal(entry_fee),
        lives=sum(getattr(card, "rebuys", 0) for card in cards),
        life_fee=Decimal(life_fee),
    )


@dataclass(frozen=True)
class PlayerCash:
    """A player's money at the desk: his ``cards`` (by number), the ``unpaid`` ones among
    them, at ``entry_fee`` euros a card, and ``left``, the cards he may still buy under
    the most per player (RULES.md 5.1); ``lives`` he bought (Leben, 5.10) at
    ``life_fee`` each, paid when bought."""

    player: object
    cards: tuple
    unpaid: tuple
    entry_fee: Decimal
    left: int
    lives: int = 0
    life_fee: Decimal = Decimal(0)

    @property
    def paid(self) -> int:
        return len(self.cards) - len(self.unpaid)

    @property
    def lives_amount(self) -> Decimal:
        return self.lives * self.life_fee

    @property
    def paid_amount(self) -> Decimal:
        """Euros he paid: his paid cards and his lives."""
        return self.paid * self.entry_fee + self.lives_amount

    @property
    def unpaid_numbers(self) -> str:
        """The numbers of the unpaid cards: "2, 5"."""
        return ", ".join(str(card.number) for card in self.unpaid)

    @property
    def owed(self) -> Decimal:
        """Euros he still owes: his unpaid cards at the fee (lives are paid when bought)."""
        return len(self.unpaid) * self.entry_fee


def player_cash(
    entry_fee: Decimal, max_cards: int, cards: Iterable, life_fee: Decimal = Decimal(0)
) -> list[PlayerCash]:
    """``PlayerCash`` of every holder of ``cards`` (anything with ``number``, ``paid``,
    ``player_id``, ``player`` and ``rebuys``; withdrawn cards included, their money was
    taken), sorted by name in German order (``player.name_key``). ``left`` is never
    below 0 (a merge may leave a player above the limit); ``lives`` bought at
    ``life_fee`` each."""
    held: dict[int, list] = {}
    for card in cards:
        held.setdefault(card.player_id, []).append(card)
    lines = []
    for own in held.values():
        own.sort(key=lambda card: card.number)
        lines.append(
            PlayerCash(
                player=own[0].player,
                cards=tuple(own),
                unpaid=tuple(card for card in own if not card.paid),
                entry_fee=Decimal(entry_fee),
                left=max(0, max_cards - len(own)),
                lives=sum(getattr(card, "rebuys", 0) for card in own),
                life_fee=Decimal(life_fee),
            )
        )
    return sorted(lines, key=lambda line: (line.player.name_key, line.player.pk))


@dataclass(frozen=True)
class StillIn:
    """A player still in the tournament and the number of cards he still holds."""

    player: object
    cards: int


def still_in(cards: Iterable) -> list[StillIn]:
    """The players holding the ``cards`` still in play (anything with ``player_id`` and
    ``player``, e.g. the cards of ``TournamentState.in_play()``), most cards first, then by name
    (``player.name_key``); ``len`` of it is the number of players in."""
    holdings: dict[int, list] = {}
    for card in cards:
        holdings.setdefault(card.player_id, []).append(card)
    return sorted(
        (StillIn(held[0].player, len(held)) for held in holdings.values()),
        key=lambda item: (-item.cards, item.player.name_key),
    )
