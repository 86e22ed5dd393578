"""Where a Preisschnapsen stands, from its pairings and results (RULES.md 5.3-5.5, 5.7, 5.8).

Pure Python over plain values: which cards are in play, whether a round is decided,
who draws the next round with which cards, which placement matches are due, who holds
places 1 to 8 and which place range the cards out before them share. Card and player
ids are ints; the services feed it database rows.

Where RULES.md is silent, this module decides: every card sold gets a place. Small
nights have byes in the rounds that feed the placement matches (an 8-card night's
quarter-final, a 4-card night's semi-final is round 1); a bye makes fewer losers, and
the placement matches shrink with them: three quarter-final losers play one "5-8"
match beside a "5-8" bye (winner and bye for 5/6, the loser 7th), two play for 5/6,
a lone loser is 5th (3rd for the one semi-final loser). There is no place beyond the
cards sold.

Withdrawal (RULES.md 5.7), where RULES.md is silent, decided here:

- A card withdrawn during round R (``withdrawn``: card -> R) is out of every draw after
  R: it is never drawn again, so it never gets a bye. Before round 1 is drawn, R is 1.
- An open match (no result) with a withdrawn card is decided as a walkover for the other
  card (``Match.walkover``); the withdrawn card is its loser. A result already recorded
  stands: a withdrawn winner keeps his result and is simply not drawn again.
- Both cards of a match withdrawn: the match is decided, nobody advances, both cards are
  its losers (neither takes the loser's place of a final or placement match). A bye or a self-walkover whose kept card is withdrawn: nobody advances.
- Fewer cards left than the halved pot needs (more than the pot size): the pot halves
  again until they fit (a later round with byes, or a round skipped); one card left and
  no further draw: the tournament has no further round.
- A withdrawn card among the losers is drawn into the placement matches like the others;
  its placement match is then a walkover for the other card.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from tournaments.draw import Holder

QUARTER_FINAL, SEMI_FINAL, FINAL = 4, 2, 1
"""Pot sizes of the rounds that feed the placement matches (8, 4 and 2 cards in play)."""


@dataclass(frozen=True)
class Match:
    """A pairing with its result so far. ``kind`` is match, bye or walkover (as drawn);
    ``winner`` is the winning card of a decided match (None while open); ``withdrawn``
    the cards of this pairing that were withdrawn before it was played (RULES.md 5.7);
    ``level``: decided as a draw, no winner (a points match, RULES.md 6)."""

    number: int
    kind: str
    left: int | None
    right: int | None
    winner: int | None = None
    label: str = ""
    withdrawn: frozenset[int] = frozenset()
    level: bool = False

    @property
    def walkover(self) -> bool:
        """A drawn match that a withdrawal turned into a walkover (no result, no score)."""
        return (
            self.kind == "match" and self.winner is None and not self.level and bool(self.withdrawn)
        )

    @property
    def shown_kind(self) -> str:
        """The kind as pages and the export show it: a withdrawal's match is a walkover."""
        return "walkover" if self.walkover else self.kind

    @property
    def decided(self) -> bool:
        return self.kind != "match" or self.winner is not None or self.level or self.walkover

    @property
    def advancing(self) -> int | None:
        """The card that goes on: the winner, the bye's card, the walkover's kept card;
        None while open and when every card that could go on is withdrawn."""
        if self.kind == "match":
            if self.winner is not None:
                return self.winner
            if self.walkover:
                others = [c for c in (self.left, self.right) if c not in self.withdrawn]
                return others[0] if others else None
            return None
        return None if self.left in self.withdrawn else self.left

    @property
    def losers(self) -> tuple[int, ...]:
        """The cards given up: the match loser, the walkover's right-hand card, the
        withdrawn cards of a match without result (RULES.md 5.7)."""
        both = tuple(c for c in (self.left, self.right) if c is not None)
        if self.level:
            return ()
        if self.kind == "match":
            if self.winner is not None:
                return tuple(c for c in both if c != self.winner)
            return tuple(c for c in both if c in self.withdrawn)
        kept = self.left
        gone = (self.right,) if self.kind == "walkover" and self.right is not None else ()
        return gone + ((kept,) if kept is not None and kept in self.withdrawn else ())

    @property
    def loser(self) -> int | None:
        """The first card given up (see ``losers``), None when none is."""
        return self.losers[0] if self.losers else None


@dataclass(frozen=True)
class RoundState:
    number: int
    pot_size: int
    matches: tuple[Match, ...]

    @property
    def decided(self) -> bool:
        return all(m.decided for m in self.matches)

    @property
    def open_matches(self) -> int:
        return sum(1 for m in self.matches if not m.decided)

    def advancing(self) -> list[int]:
        return [m.advancing for m in self.matches if m.advancing is not None]

    def losers(self) -> list[int]:
        return [card for m in self.matches for card in m.losers]


def holders(cards: dict[int, int], in_play: list[int]) -> list[Holder]:
    """Group the cards in play by player (card -> player given): one Holder per player,
    players by their lowest card, cards ascending."""
    by_player: dict[int, list[int]] = defaultdict(list)
    for card in sorted(in_play):
        by_player[cards[card]].append(card)
    return [Holder(player, tuple(held)) for player, held in by_player.items()]


def cards_in_play(
    rounds: list[RoundState], sold: list[int], withdrawn: Mapping[int, int] | None = None
) -> list[int]:
    """The cards in play: all sold cards before round 1, else the advancing cards of the
    last round (a match still open keeps both its cards in play); without the cards withdrawn
    (card -> round, 0 before round 1) in these rounds (RULES.md 5.7: a withdrawn card is
    not drawn again; one withdrawn in a later round was still drawn in these)."""
    out = {c for c, r in (withdrawn or {}).items() if r <= len(rounds)}
    if not rounds:
        return [c for c in sold if c not in out]
    last = rounds[-1]
    in_play = []
    for match in last.matches:
        if match.decided:
            if match.advancing is not None:
                in_play.append(match.advancing)
        else:
            in_play.extend(c for c in (match.left, match.right) if c is not None)
    return [c for c in in_play if c not in out]


def next_pot_size(rounds: list[RoundState], cards: int, in_play: int | None = None) -> int | None:
    """Pot size of the next round: N/2 for round 1, then halves; None after the final.
    With ``in_play`` (how many cards are in play) given, a later pot halves again until the cards
    are more than its size (withdrawals, RULES.md 5.7), and None when fewer than two are."""
    if not rounds:
        return cards // 2
    last = rounds[-1].pot_size
    pot = last // 2 if last > 1 else None
    if in_play is None or pot is None:
        return pot
    if in_play < 2:
        return None
    while in_play <= pot:
        pot //= 2
    return pot


def round_of(rounds: list[RoundState], pot_size: int) -> RoundState | None:
    return next((r for r in rounds if r.pot_size == pot_size), None)


def _settled(rounds: list[RoundState], pot_size: int, ended: bool = False) -> RoundState | None:
    """The round of ``pot_size`` once the round after it is drawn, or once the main draw
    has ``ended`` after it (a finalist withdrawn after his semi-final: no final is
    drawn, ``finished``): from then on its results can no longer change. Else None."""
    source = round_of(rounds, pot_size)
    if source is None:
        return None
    if round_of(rounds, pot_size // 2) is None and not (ended and source is rounds[-1]):
        return None
    return source


def placement_due(
    rounds: list[RoundState], placement: list[Match], ended: bool = False
) -> list[tuple[str, tuple[int, ...]]]:
    """Placement matches whose players are known but that do not exist yet, as
    (label, cards), RULES.md 5.5:

    - "5-8" with the quarter-final losers, to be paired by a draw: four make two matches;
      three (a quarter-final with a bye, round 1 of an 8-card night) make one match and
      one bye;
    - "5" (for 5/6) with the winners of the two "5-8" pairings (a bye's card counts as
      a winner), or straight with the two quarter-final losers when there are only two;
    - "7" (for 7/8) with the losers of two "5-8" matches;
    - "3" (for 3/4) with the two semi-final losers.

    A lone loser of a round (three cards on a 4-card night, five on an 8-card night)
    needs no match: ``places`` gives him his place. A placement match is due only once
    its source round's next round is drawn, or the main draw has ``ended`` after it
    (``_settled``; from then on the source results can no longer change)."""
    labels = {m.label for m in placement}
    due: list[tuple[str, tuple[int, ...]]] = []
    quarter = _settled(rounds, QUARTER_FINAL, ended)
    semi = _settled(rounds, SEMI_FINAL, ended)
    if quarter is not None:
        losers = tuple(quarter.losers())
        if len(losers) in (3, 4) and "5-8" not in labels:
            due.append(("5-8", losers))
        elif len(losers) == 2 and "5" not in labels:
            due.append(("5", losers))
    if semi is not None and len(semi.losers()) == 2 and "3" not in labels:
        due.append(("3", tuple(semi.losers())))
    firsts = [m for m in placement if m.label == "5-8"]
    if (
        len(firsts) == 2
        and all(m.decided for m in firsts)
        and all(m.advancing is not None and len(m.losers) <= 1 for m in firsts)
    ):
        if "5" not in labels:
            due.append(("5", tuple(m.advancing for m in firsts if m.advancing is not None)))
        losers = tuple(m.loser for m in firsts if m.loser is not None)
        if len(losers) == 2 and "7" not in labels:
            due.append(("7", losers))
    return due


def still_playing(
    rounds: list[RoundState],
    placement: list[Match],
    sold: list[int],
    withdrawn: Mapping[int, int] | None = None,
) -> set[int]:
    """The cards that still have a match ahead (the cards a withdrawal can take out,
    RULES.md 5.7): the cards in play in the main draw (none once the final is decided), the
    cards of open placement matches and those a placement match will still be made for
    (quarter- and semi-final losers without their place yet)."""
    final_played = bool(rounds) and rounds[-1].pot_size == 1 and rounds[-1].decided
    out = set() if final_played else set(cards_in_play(rounds, sold, withdrawn))
    for match in placement:
        if not match.decided:
            out.update(c for c in (match.left, match.right) if c is not None)
    ended = finished(rounds, sold, withdrawn or {})
    placed = set(places(rounds, placement, ended).values())
    quarter = round_of(rounds, QUARTER_FINAL)
    semi = round_of(rounds, SEMI_FINAL)
    for feeder in (quarter, semi):
        if feeder is not None and not any(m.kind == "bye" for m in feeder.matches):
            out.update(c for c in feeder.losers() if c not in placed)
    return out - set(withdrawn or {})


def places(rounds: list[RoundState], placement: list[Match], ended: bool = False) -> dict[int, int]:
    """Place -> card for the places decided so far, RULES.md 5.5: 1 and 2 by the final,
    3/4, 5/6 and 7/8 by the placement matches. A lone loser takes his place without a
    match: the one semi-final loser of a 4-card night with a bye is 3rd, the one
    quarter-final loser of an 8-card night with three byes is 5th, and the loser of the
    one "5-8" match beside a "5-8" bye is 7th. A night with fewer cards than 8 has no
    places beyond the cards sold. ``ended``: the main draw has ended (``finished``)."""
    out: dict[int, int] = {}
    final = round_of(rounds, FINAL)
    if final is not None and final.decided and final.matches:
        match = final.matches[0]
        if match.advancing is not None:
            out[1] = match.advancing
        if len(match.losers) == 1:
            out[2] = match.losers[0]
    semi = _settled(rounds, SEMI_FINAL, ended)
    if semi is not None and len(semi.losers()) == 1:
        out[3] = semi.losers()[0]
    quarter = _settled(rounds, QUARTER_FINAL, ended)
    if quarter is not None and len(quarter.losers()) == 1:
        out[5] = quarter.losers()[0]
    firsts = [m for m in placement if m.label == "5-8"]
    if len(firsts) == 2 and sum(m.kind == "bye" for m in firsts) == 1:
        lone = next(m for m in firsts if m.kind != "bye")
        if lone.loser is not None:
            out[7] = lone.loser
    for label, first in (("3", 3), ("5", 5), ("7", 7)):
        decider = next((m for m in placement if m.label == label), None)
        if decider is not None and decider.decided:
            if decider.advancing is not None:
                out[first] = decider.advancing
            if len(decider.losers) == 1:
                out[first + 1] = decider.losers[0]
    return out


@dataclass(frozen=True)
class Group:
    """Cards ranked together (RULES.md 5.5, 5.7, 5.8): places ``first`` to ``last``;
    ``cards`` best first when ``ordered`` (each card a place of its own: ``first``,
    ``first + 1``, …), else sharing the range, by card number."""

    first: int
    last: int
    cards: tuple[int, ...]
    ordered: bool


def finished(rounds: list[RoundState], sold: list[int], withdrawn: Mapping[int, int]) -> bool:
    """No round is left to play: the latest round is decided and no further one can be
    drawn (the final is played, or fewer than two cards are left, RULES.md 5.7)."""
    if not rounds or not rounds[-1].matches or not rounds[-1].decided:
        return False
    return next_pot_size(rounds, 0, len(cards_in_play(rounds, sold, withdrawn))) is None


def ranking_groups(
    rounds: list[RoundState],
    placement: list[Match],
    sold: list[int],
    withdrawn: Mapping[int, int] | None = None,
    number: Mapping[int, int] | None = None,
) -> list[Group]:
    """Every card whose place is settled, in groups best first (RULES.md 5.5, 5.7, 5.8).

    ``rounds`` are the drawn rounds, ``placement`` the placement matches, ``sold`` every
    card sold (withdrawn ones included), ``withdrawn`` card -> round, ``number`` card ->
    number (the order within a shared range; the card id without it).

    The places are counted from the bottom, so that every card sold gets exactly one
    place and the places have no gap, whatever the byes and withdrawals: the last place is
    the number of cards sold. Round by round from the first, the cards withdrawn that did
    not finish that round (withdrawn before it was drawn, or whose match became a
    walkover) take the places at the bottom, then the round's other losers the places
    above them (RULES.md 5.7: a withdrawn card ranks after the cards out in the first
    round it did not finish). The losers of a round of 8 cards or more share their range;
    the losers of the quarter-final, the semi-final and the final are put in order by the
    placement matches (``places``; a lone loser needs none) and are not placed while
    these are still to play. A round counts once the round after it is drawn (its
    results can no longer change) or the night is ``finished``; the winner, or the one
    card left, is then first. A card withdrawn before round 1 ranks after round 1's
    losers.
    """
    gone = withdrawn or {}
    numbers = number or {}
    done = finished(rounds, sold, gone)
    out_in: dict[int, int] = {}  # card -> index of the round it went out in
    seen: dict[int, int] = {}  # card -> index of the last round it was drawn in
    for i, state in enumerate(rounds):
        for match in state.matches:
            for card in (match.left, match.right):
                if card is not None:
                    seen[card] = i
        for card in state.losers():
            out_in[card] = i
    for card in gone:
        if card not in out_in:
            # Withdrawn after winning (or before round 1): out in the next round.
            out_in[card] = seen[card] + 1 if card in seen else 0
    placed_at = {card: place for place, card in places(rounds, placement, done).items()}
    coming = {c for m in placement if not m.decided for c in (m.left, m.right)}
    coming |= {c for _label, cards in placement_due(rounds, placement, done) for c in cards}

    def in_order(cards: Iterable[int]) -> list[int]:
        return sorted(cards, key=lambda c: (numbers.get(c, c), c))

    groups: list[Group] = []
    bottom = len(sold)  # the worst place not given yet

    def add(cards: list[int], ordered: bool) -> None:
        nonlocal bottom
        if cards:
            first = bottom - len(cards) + 1
            groups.append(Group(first, bottom, tuple(cards), ordered or len(cards) == 1))
            bottom = first - 1

    for i, state in enumerate(rounds):
        if i + 1 >= len(rounds) and not done:
            break  # the latest round is not settled yet
        leaving = [c for c, at in out_in.items() if at == i]
        if state.pot_size > QUARTER_FINAL:
            add(in_order(c for c in leaving if c in gone), False)
            add(in_order(c for c in leaving if c not in gone), False)
            continue
        # The last rounds: the placement matches order the losers, withdrawn ones too.
        ranked = sorted((c for c in leaving if c in placed_at), key=placed_at.__getitem__)
        others = [c for c in leaving if c not in placed_at]
        add(in_order(c for c in others if c in gone), False)
        rest = [c for c in others if c not in gone]
        if len(rest) + len(ranked) == 1:
            add(rest + ranked, True)
        elif rest and coming & set(rest):
            bottom -= len(rest) + len(ranked)  # their placement matches are still to play
        else:
            # No match is to come for the rest (the final was never drawn): they share.
            add(in_order(rest), False)
            add(ranked, True)
    if done:
        placed = {c for g in groups for c in g.cards}
        left = [c for c in sold if c not in placed and out_in.get(c, len(rounds)) >= len(rounds)]
        add(in_order(c for c in left if c in gone), False)
        add(in_order(c for c in left if c not in gone), False)
    groups.reverse()
    return groups


def placed(groups: list[Group]) -> tuple[dict[int, int], list[tuple[int, int, int]]]:
    """``groups`` as ``ranking.card_ranking`` takes them: (place -> card for the cards
    with a place of their own, (first, last, card) for the cards sharing a range)."""
    places: dict[int, int] = {}
    shared: list[tuple[int, int, int]] = []
    for group in groups:
        if group.ordered:
            places.update((group.first + i, card) for i, card in enumerate(group.cards))
        else:
            shared.extend((group.first, group.last, card) for card in group.cards)
    return places, shared
