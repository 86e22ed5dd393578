"""A whole score sheet folded into totals, games, Bummerl and tally (RULES.md 2, 3.3, 4).

Words used here:

- *entry*: one line the table records: a deal, a redeal or a tie-break deal.
- *game*: for Dreierschnapsen the game to 24 (``game_target``), counted up from 0 (in
  Bauernschnapsen by team: both partners carry the team's totals); for
  two-player Schnapsen one Bummerl, the count-down from 7 (``BUMMERL_START``), whose
  totals are kept as points won (0 up to 7 or more) and shown as points *left*.
- *Bummerl* (as a number): what the loser of a game "gets": 1, a Schneider
  ``schneider_counts``, a Retourschneider ``retourschneider_counts`` to each of two.
- *Partie* (two players): won by the first to hang ``partie_bummerl`` Bummerl on the other.
  A two-player sheet is one Partie: entries after it is decided are refused.

``score_sheet`` is the only place that decides when a game ends, who deals, who is
Rufer and who gets how many Bummerl; the web layer, the JSON command and the
services all call it.
"""

from dataclasses import dataclass, field
from enum import StrEnum

from base.errors import RuleError, gettext_noop
from scoring.rules import bauern
from scoring.rules.dreier import DreierDeal, Redeal, TieBreak, score_dreier_deal
from scoring.rules.ruleset import BUMMERL_START, RuleSet
from scoring.rules.schnapsen import EndedDeal, QuickDeal, score_schnapsen_deal


class Variant(StrEnum):
    SCHNAPSEN = "schnapsen"
    DREIERSCHNAPSEN = "dreierschnapsen"
    BAUERNSCHNAPSEN = "bauernschnapsen"

    @property
    def seats(self) -> int:
        return {"schnapsen": 2, "dreierschnapsen": 3, "bauernschnapsen": 4}[self.value]

    @property
    def teams(self) -> bool:
        """Whether partners sit opposite and score as a team (Bauernschnapsen, RULES.md 4)."""
        return self is Variant.BAUERNSCHNAPSEN


class Result(StrEnum):
    BUMMERL = "bummerl"
    SCHNEIDER = "schneider"
    RETOURSCHNEIDER = "retourschneider"


Entry = DreierDeal | Redeal | TieBreak | QuickDeal | EndedDeal


@dataclass(frozen=True)
class Line:
    """One scored entry. ``points`` and ``totals`` have one value per seat; ``totals``
    are the open game's totals after it. ``game`` is the 0-based game it belongs to.
    ``rufer`` is the Vorhand in two-player Schnapsen and None on a tie-break deal,
    which the third player deals."""

    entry: Entry
    dealer: int
    rufer: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    game: int


@dataclass(frozen=True)
class Game:
    """A finished game: ``final`` totals, the ``losers`` (one seat, two on a
    Retourschneider), the ``result``, ``bummerl`` per seat, the tie-break pair and its
    winner if one was needed, and the index of the entry that decided it."""

    final: tuple[int, ...]
    losers: tuple[int, ...]
    result: Result
    bummerl: tuple[int, ...]
    tiebreak: tuple[int, int] | None
    tiebreak_winner: int | None
    decided_at: int


@dataclass(frozen=True)
class Mark:
    """The fold as it stood where a game began: before entry ``count`` (0-based, in the
    whole sheet), ``state`` being the fold's own values then (an opaque mapping;
    ``score_sheet(..., start=mark)`` goes on from it exactly as a fold of the first
    ``count`` entries would)."""

    count: int
    state: dict = field(compare=False, repr=False)


@dataclass(frozen=True)
class SheetState:
    """Everything a sheet shows. ``totals`` belong to the open game; ``dealer`` and
    ``rufer`` are those of the next deal; ``awaiting_tiebreak`` is the tied pair whose
    tie-break deal must be the next entry, else None; ``partie_winner`` (two players)
    is the seat that won the Partie, else None.

    ``lines`` are those of the entries from ``first_line`` on (0: all; more when the
    fold went on from a ``Mark``); ``games`` and ``tally`` are always the whole sheet's.
    ``marks`` are where the open game and the game before it began (oldest first)."""

    variant: Variant
    rules: RuleSet
    lines: tuple[Line, ...]
    games: tuple[Game, ...]
    tally: tuple[int, ...]
    totals: tuple[int, ...]
    dealer: int
    rufer: int
    awaiting_tiebreak: tuple[int, int] | None
    partie_winner: int | None
    first_line: int = 0
    marks: tuple[Mark, ...] = ()

    @property
    def left(self) -> tuple[int, ...]:
        """Two players: the points each still needs to win the open Bummerl (7 .. 0)."""
        return tuple(max(0, BUMMERL_START - t) for t in self.totals)

    @property
    def display_totals(self) -> tuple[int, ...]:
        """Totals as the sheet shows them: points left (two players, or Dreierschnapsen
        with ``count_down_display``), else points won."""
        return self.shown(self.totals)

    @property
    def counts_down(self) -> bool:
        """Whether the sheet shows points left (``shown``) rather than points won."""
        return self.variant is Variant.SCHNAPSEN or bool(self.rules.count_down_display)

    def shown(self, totals: tuple[int, ...]) -> tuple[int, ...]:
        """Any totals of this sheet (the open game's, a finished game's ``final``) in the
        one reading the sheet shows: points left to 7 (two players) or to ``game_target``
        (``count_down_display``, clamped at 0), else the points won as they are."""
        if self.variant is Variant.SCHNAPSEN:
            return tuple(max(0, BUMMERL_START - t) for t in totals)
        if self.rules.count_down_display:
            target = self.rules.game_target
            return tuple(max(0, target - t) for t in totals)
        return totals

    @property
    def is_closed(self) -> bool:
        return self.partie_winner is not None

    def seat_figures(self) -> list[dict[str, int]]:
        """Per seat (``variant.seats`` dicts): ``games`` finished, ``bummerl`` received
        (as ``Game.bummerl`` weighs them: RULES.md 2, 3.3, 4.2) and ``schneider``, the
        games the seat lost as Schneider or Retourschneider."""
        figures = [{"bummerl": 0, "schneider": 0, "games": 0} for _ in range(self.variant.seats)]
        for game in self.games:
            for seat, figure in enumerate(figures):
                figure["games"] += 1
                figure["bummerl"] += game.bummerl[seat]
                if seat in game.losers and game.result != Result.BUMMERL:
                    figure["schneider"] += 1
        return figures


def next_seat(seat: int, seats: int) -> int:
    """The seat to the left (clockwise)."""
    return (seat + 1) % seats


def score_sheet(
    variant: Variant | str,
    rules: RuleSet,
    first_dealer: int,
    entries: list[Entry],
    start: Mark | None = None,
) -> SheetState:
    """Fold ``entries`` (in play order) into a ``SheetState``.

    ``first_dealer`` is the seat that deals first (0..seats-1). Raises RuleError with
    ``index`` set at the first entry that breaks a rule: a deal of the wrong variant,
    a declarer who may not play the contract, a deal while a tie-break is due, a
    tie-break with no tie or by a player not in it, an entry after the Partie.

    With ``start`` (a ``Mark`` of an earlier fold of the same sheet), ``entries`` are
    those from ``start.count`` on: the state is the one the whole sequence gives, with
    the lines of these entries only (``first_line``), and indexes count in the whole.
    """
    variant = Variant(variant)
    seats = variant.seats
    if first_dealer not in range(seats):
        raise RuleError("first_dealer", gettext_noop("Choose who deals first."))
    fold = _Fold(variant, rules, first_dealer)
    offset = 0
    if start is not None:
        fold.__dict__.update(_own_copy(start.state))
        offset = start.count
    fold.marks = [start or fold.mark(0)]
    for index, entry in enumerate(entries, offset):
        games = len(fold.games)
        try:
            fold.add(index, entry)
        except RuleError as error:
            raise error.at(index) from None
        if len(fold.games) != games:  # a game ended: the next one begins here
            fold.marks = [fold.marks[-1], fold.mark(index + 1)]
    return fold.state(offset)


def _own_copy(values: dict) -> dict:
    """A copy of the fold's own values that the fold may change without changing
    ``values``: they are immutable (ints, tuples, frozen ``Game``s) but for the lists the
    fold appends to or adds to in place (``tally``, ``games``), whose items are immutable
    too; so a copy of each list is a copy of the whole, at a fraction of a deep copy's
    cost (TypeError for any other mutable value, which this copy would not cover)."""
    copied = {}
    for name, value in values.items():
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict | set):
            raise TypeError(f"the fold keeps a mutable {name!r} that _own_copy does not copy")
        copied[name] = value
    return copied


class _Fold:
    OWN = ("variant", "rules", "lines", "marks")
    """What is not part of a ``Mark``: given by the sheet, or kept per fold."""
    marks: list[Mark]
    """Where the open game and the game before it began (``SheetState.marks``), set by
    ``score_sheet``."""

    def __init__(self, variant: Variant, rules: RuleSet, first_dealer: int):
        self.variant = variant
        self.rules = rules
        self.seats = variant.seats
        self.dealer = first_dealer
        self.totals = (0,) * self.seats
        self.tally = [0] * self.seats
        self.lines: list[Line] = []
        self.games: list[Game] = []
        self.awaiting: tuple[int, int] | None = None
        self.partie_winner: int | None = None

    @property
    def rufer(self) -> int:
        return next_seat(self.dealer, self.seats)

    def add(self, index: int, entry: Entry) -> None:
        if self.partie_winner is not None:
            raise RuleError("deal", gettext_noop("The Partie is decided: start a new one."))
        if isinstance(entry, TieBreak):
            self._tiebreak(index, entry)
            return
        if self.awaiting is not None:
            raise RuleError(
                "tiebreak_winner",
                gettext_noop("The game ended in a tie: first enter who won the tie-break deal."),
            )
        if self.variant is Variant.SCHNAPSEN:
            self._schnapsen(index, entry)
        elif self.variant is Variant.BAUERNSCHNAPSEN:
            self._bauern(index, entry)
        else:
            self._dreier(index, entry)

    def _line(self, entry: Entry, points: tuple[int, ...], rufer: int | None) -> None:
        self.lines.append(Line(entry, self.dealer, rufer, points, self.totals, len(self.games)))

    def _schnapsen(self, index: int, entry: Entry) -> None:
        if not isinstance(entry, QuickDeal | EndedDeal):
            raise RuleError("deal", gettext_noop("This is not a two-player Schnapsen deal."))
        winner, value = score_schnapsen_deal(entry, self.rules)
        points = tuple(value if seat == winner else 0 for seat in range(2))
        self.totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        self._line(entry, points, self.rufer)
        self.dealer = self.rufer  # dealer and Vorhand alternate every deal
        if max(self.totals) >= BUMMERL_START:
            loser = 1 - winner
            count = self.rules.schneider_counts if self.totals[loser] == 0 else 1
            result = Result.SCHNEIDER if self.totals[loser] == 0 else Result.BUMMERL
            self._close_game(index, (loser,), result, count, None, None)
            if self.tally[loser] >= self.rules.partie_bummerl:
                self.partie_winner = winner

    def _dreier(self, index: int, entry: Entry) -> None:
        if isinstance(entry, Redeal):
            self._line(entry, (0, 0, 0), self.rufer)  # the same dealer deals again
            return
        if not isinstance(entry, DreierDeal):
            raise RuleError("deal", gettext_noop("This is not a Dreierschnapsen deal."))
        points = score_dreier_deal(entry, self.rufer, self.rules)
        before = self.totals
        self.totals = tuple(t + p for t, p in zip(before, points, strict=True))
        self._line(entry, points, self.rufer)
        self.dealer = self.rufer
        if max(self.totals) >= self.rules.game_target:
            self._end_dreier_game(index, before)

    def _end_dreier_game(self, index: int, before: tuple[int, ...]) -> None:
        rules = self.rules
        final = self.totals
        top = max(final)
        zero = [s for s in range(3) if before[s] == 0]
        near = [s for s in range(3) if before[s] == rules.game_target - 1]
        if len(zero) == 1 and len(near) == 2 and [s for s in range(3) if final[s] == top] == zero:
            # RULES.md 3.3: two stood at 23, the third at 0 and won the game.
            count = rules.retourschneider_counts
            self._close_game(index, tuple(near), Result.RETOURSCHNEIDER, count, None, None)
            return
        low = min(final)
        lowest = [s for s in range(3) if final[s] == low]
        if len(lowest) == 2:
            self.awaiting = (lowest[0], lowest[1])
            return
        self._close_with_loser(index, lowest[0], None, None)

    def _bauern(self, index: int, entry: Entry) -> None:
        """A Bauernschnapsen entry (RULES.md 4): the deal and the game end are the rule
        core's of ``bauern``; the rotation and the redeal are those of Dreierschnapsen."""
        if isinstance(entry, Redeal):
            self._line(entry, (0,) * self.seats, self.rufer)  # the same dealer deals again
            return
        if not isinstance(entry, DreierDeal):
            raise RuleError("deal", gettext_noop("This is not a Bauernschnapsen deal."))
        points = bauern.score_bauern_deal(entry, self.rufer, self.rules)
        before = self.totals
        self.totals = tuple(t + p for t, p in zip(before, points, strict=True))
        self._line(entry, points, self.rufer)
        self.dealer = self.rufer
        end = bauern.game_end(before, self.totals, self.rules)
        if end is not None:
            losers, result, count = end
            self._close_game(index, losers, Result(result), count, None, None)

    def _close_with_loser(
        self, index: int, loser: int, tie: tuple[int, int] | None, tie_winner: int | None
    ) -> None:
        schneider = self.totals[loser] == 0
        count = self.rules.schneider_counts if schneider else 1
        result = Result.SCHNEIDER if schneider else Result.BUMMERL
        self._close_game(index, (loser,), result, count, tie, tie_winner)

    def _tiebreak(self, index: int, entry: TieBreak) -> None:
        if self.awaiting is None:
            raise RuleError("tiebreak_winner", gettext_noop("There is no tie to settle."))
        if isinstance(entry.winner, bool) or entry.winner not in self.awaiting:
            raise RuleError(
                "tiebreak_winner", gettext_noop("Only the two tied players play the tie-break.")
            )
        tie = self.awaiting
        third = next(s for s in range(3) if s not in tie)
        points = tuple(0 for _ in range(self.seats))
        self.lines.append(Line(entry, third, None, points, self.totals, len(self.games)))
        loser = tie[0] if entry.winner == tie[1] else tie[1]
        self.awaiting = None
        self._close_with_loser(index, loser, tie, entry.winner)

    def _close_game(
        self,
        index: int,
        losers: tuple[int, ...],
        result: Result,
        count: int,
        tie: tuple[int, int] | None,
        tie_winner: int | None,
    ) -> None:
        bummerl = tuple(count if s in losers else 0 for s in range(self.seats))
        for seat in losers:
            self.tally[seat] += count
        self.games.append(Game(self.totals, losers, result, bummerl, tie, tie_winner, index))
        self.totals = (0,) * self.seats

    def mark(self, count: int) -> Mark:
        """The fold's own values now, before entry ``count`` (whatever a variant keeps)."""
        return Mark(count, _own_copy({k: v for k, v in vars(self).items() if k not in self.OWN}))

    def state(self, first_line: int = 0) -> SheetState:
        return SheetState(
            variant=self.variant,
            rules=self.rules,
            lines=tuple(self.lines),
            games=tuple(self.games),
            tally=tuple(self.tally),
            totals=self.totals,
            dealer=self.dealer,
            rufer=self.rufer,
            awaiting_tiebreak=self.awaiting,
            partie_winner=self.partie_winner,
            first_line=first_line,
            marks=tuple(self.marks),
        )
