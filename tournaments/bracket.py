"""Where a Preisschnapsen stands, from its pairings and results (RULES.md 5.3-5.5).

Pure Python over plain values: which cards are still in, whether a round is decided,
who draws the next round with which cards, which placement matches are due and who
holds places 1 to 8. Card and player ids are ints; the services feed it database rows.
"""

from collections import defaultdict
from dataclasses import dataclass

from tournaments.draw import Holder

QUARTER_FINAL, SEMI_FINAL, FINAL = 4, 2, 1
"""Pot sizes of the rounds that feed the placement matches (8, 4 and 2 cards in play)."""


@dataclass(frozen=True)
class Match:
    """A pairing with its result so far. ``kind`` is match, bye or walkover; ``winner``
    is the winning card of a decided match (None while open)."""

    number: int
    kind: str
    left: int | None
    right: int | None
    winner: int | None = None
    label: str = ""

    @property
    def decided(self) -> bool:
        return self.kind != "match" or self.winner is not None

    @property
    def advancing(self) -> int | None:
        """The card that goes on: the winner, the bye's card, the walkover's kept card."""
        if self.kind == "match":
            return self.winner
        return self.left

    @property
    def loser(self) -> int | None:
        """The card given up: the match loser, or the walkover's right-hand card."""
        if self.kind == "walkover":
            return self.right
        if self.kind == "match" and self.winner is not None:
            return self.right if self.winner == self.left else self.left
        return None


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
        return [m.loser for m in self.matches if m.loser is not None]


def holders(cards: dict[int, int], in_play: list[int]) -> list[Holder]:
    """Group the cards in play by player (card -> player given): one Holder per player,
    players by their lowest card, cards ascending."""
    by_player: dict[int, list[int]] = defaultdict(list)
    for card in sorted(in_play):
        by_player[cards[card]].append(card)
    return [Holder(player, tuple(held)) for player, held in by_player.items()]


def cards_left(rounds: list[RoundState], sold: list[int]) -> list[int]:
    """The cards still in: all sold cards before round 1, else the advancing cards of the
    last round (a match still open keeps both its cards in)."""
    if not rounds:
        return list(sold)
    last = rounds[-1]
    alive = []
    for match in last.matches:
        if match.decided:
            if match.advancing is not None:
                alive.append(match.advancing)
        else:
            alive.extend(c for c in (match.left, match.right) if c is not None)
    return alive


def next_pot_size(rounds: list[RoundState], cards: int) -> int | None:
    """Pot size of the next round: N/2 for round 1, then halves; None after the final."""
    if not rounds:
        return cards // 2
    last = rounds[-1].pot_size
    return last // 2 if last > 1 else None


def round_of(rounds: list[RoundState], pot_size: int) -> RoundState | None:
    return next((r for r in rounds if r.pot_size == pot_size), None)


def placement_due(
    rounds: list[RoundState], placement: list[Match]
) -> list[tuple[str, tuple[int, ...]]]:
    """Placement matches whose players are known but that do not exist yet, as
    (label, cards): "5-8" with the four quarter-final losers (to be paired by a draw),
    "3" with the two semi-final losers, "5" and "7" with the winners and losers of the
    two "5-8" matches. A placement match is due only once its source round's next round
    is drawn (from then on the source results can no longer change)."""
    labels = {m.label for m in placement}
    due: list[tuple[str, tuple[int, ...]]] = []
    quarter = round_of(rounds, QUARTER_FINAL)
    semi = round_of(rounds, SEMI_FINAL)
    final = round_of(rounds, FINAL)
    # A quarter-final that is round 1 of a small field can have byes and fewer than four
    # losers: then there are no matches for 5 to 8.
    if (
        quarter is not None
        and semi is not None
        and "5-8" not in labels
        and len(quarter.losers()) == 4
    ):
        due.append(("5-8", tuple(quarter.losers())))
    if semi is not None and final is not None and "3" not in labels:
        due.append(("3", tuple(semi.losers())))
    firsts = [m for m in placement if m.label == "5-8"]
    if len(firsts) == 2 and all(m.decided for m in firsts):
        if "5" not in labels:
            due.append(("5", tuple(m.advancing for m in firsts)))
        if "7" not in labels:
            due.append(("7", tuple(m.loser for m in firsts)))
    return due


def places(rounds: list[RoundState], placement: list[Match]) -> dict[int, int]:
    """Place -> card for the places decided so far (1 and 2 by the final, 3/4, 5/6, 7/8
    by the placement matches)."""
    out: dict[int, int] = {}
    final = round_of(rounds, FINAL)
    if final is not None and final.decided and final.matches:
        match = final.matches[0]
        out[1] = match.advancing
        if match.loser is not None:
            out[2] = match.loser
    for label, first in (("3", 3), ("5", 5), ("7", 7)):
        match = next((m for m in placement if m.label == label), None)
        if match is not None and match.decided:
            out[first] = match.advancing
            if match.loser is not None:
                out[first + 1] = match.loser
    return out
