"""Season rankings (RULES.md 7), pure Python: no Django import.

Words: a *row* is one player's figures over a stretch of days in one game (variant):
``evenings`` (*Abende*: calendar days he played), ``sheets`` (*Tische*: the sheets he
played at), ``games`` finished, ``bummerl`` received
(weighted: a Schneider counts as the sheet's rules say), ``schneider`` received and
tournament ``points``. *Bummerl per game* is ``bummerl / games`` (lower is better).

A ranking sorts rows by one figure and gives each a *rank*: rows level on that figure
share the rank of the first of them ("1, 2, 2, 4"); within a tie, and among the rows
that are not ranked, the order is the name in German order (``name_key``) and then
the id, so that every page, export and printout lists them the same way. A row below
the minimum of games is listed after the ranked ones, without a rank.

The points key (RULES.md 7) maps places and place ranges of a tournament to points;
``points_for`` reads a player's place range from it, ``parse_key`` reads the key as an
owner types it.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from base.errors import RuleError, gettext_noop
from base.numbers import whole_number


@dataclass(frozen=True)
class Row:
    """One player's figures; ``rank`` None until ranked (or when not ranked)."""

    player_id: int
    name: str
    name_key: str
    evenings: int = 0
    sheets: int = 0
    games: int = 0
    bummerl: int = 0
    schneider: int = 0
    points: int = 0
    tournaments: int = 0
    rank: int | None = None

    @property
    def per_game(self) -> Fraction | None:
        """Bummerl per game as an exact fraction; None without a finished game."""
        return Fraction(self.bummerl, self.games) if self.games else None

    @property
    def order_key(self) -> tuple[str, int]:
        return (self.name_key, self.player_id)


def rank_rows(
    rows: Iterable[Row],
    figure: Callable[[Row], object],
    ranked: Callable[[Row], bool] = lambda row: True,
) -> list[Row]:
    """``rows`` in ranking order with ``rank`` set.

    ``figure(row)`` is the sort key, lower is better (negate a "more is better"
    figure); ``ranked(row)`` False leaves a row unranked, after all ranked rows. Rows
    with equal figures share the rank of the first of them; ties and unranked rows are
    ordered by ``name_key``, then ``player_id``.
    """
    rows = list(rows)
    inside = sorted((r for r in rows if ranked(r)), key=lambda r: (figure(r), r.order_key))
    outside = sorted((r for r in rows if not ranked(r)), key=lambda r: r.order_key)
    result = []
    previous = object()
    rank = 0
    for position, row in enumerate(inside, start=1):
        value = figure(row)
        if value != previous:
            rank, previous = position, value
        result.append(replace(row, rank=rank))
    return result + [replace(r, rank=None) for r in outside]


def by_bummerl_per_game(rows: Iterable[Row], min_games: int) -> list[Row]:
    """Bummerl per game, fewest first; a row with fewer than ``min_games`` games (or
    none at all) is not ranked (RULES.md 7)."""
    return rank_rows(rows, lambda r: r.per_game, lambda r: r.games >= max(min_games, 1))


def by_points(rows: Iterable[Row]) -> list[Row]:
    """Tournament points, most first; only players who took part in a tournament."""
    return rank_rows(rows, lambda r: -r.points, lambda r: r.tournaments > 0)


@dataclass(frozen=True)
class KeyLine:
    """Places ``first`` to ``last`` (both included) score ``points`` each."""

    first: int
    last: int
    points: int


def points_for(places: tuple[int, int] | None, key: Sequence[KeyLine], participation: int) -> int:
    """The points of a player whose best card finished in the place range ``places``
    (``(first, last)``, e.g. ``(9, 16)``; None: no place, e.g. the night is not over):
    the line of ``key`` holding ``first``, at least ``participation`` (every player who
    took part scores that much, RULES.md 7)."""
    points = 0
    if places is not None:
        first = places[0]
        points = next((line.points for line in key if line.first <= first <= line.last), 0)
    return max(points, participation)


KEY_MAX_LINES = 1000
"""The most lines (places or ranges of places) a points key has: each line is checked
against every line before it, so 20,000 lines took 8 s or more."""
KEY_MAX_TEXT = 20_000
"""The most characters of a points key as typed (1000 lines of ``1000-1024: 1000``)."""


def parse_key(text: str) -> list[KeyLine]:
    """The points key as typed, one line per place or range: ``1: 25``, ``5-8: 10``
    (also ``5–8 = 10``). Places count from 1, points are whole numbers from 0; lines
    must not overlap. Raises RuleError on ``points_key`` naming the line. The form
    (``seasons.forms.SettingsForm``) refuses a key of more than ``KEY_MAX_LINES`` lines
    or ``KEY_MAX_TEXT`` characters before it is parsed."""
    lines: list[KeyLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        places, sep, points = line.replace("=", ":").partition(":")
        first, _dash, last = places.replace("–", "-").partition("-")
        try:
            if not sep:
                raise ValueError
            low, high, worth = (whole_number(part) for part in (first, last or first, points))
            if low is None or high is None or worth is None:
                raise ValueError
            entry = KeyLine(low, high, worth)
        except ValueError:
            raise RuleError(
                "points_key",
                gettext_noop(
                    "Line %(line)s: write a place or range, a colon and the points (5-8: 10)."
                ),
                line=number,
            ) from None
        if entry.first < 1 or entry.last < entry.first or entry.points < 0:
            raise RuleError(
                "points_key",
                gettext_noop("Line %(line)s: places count from 1 upwards, points from 0."),
                line=number,
            )
        clash = next((o for o in lines if o.first <= entry.last and entry.first <= o.last), None)
        if clash is not None:
            raise RuleError(
                "points_key",
                gettext_noop("Line %(line)s: place %(place)s has points already."),
                line=number,
                place=max(clash.first, entry.first),
            )
        lines.append(entry)
    return sorted(lines, key=lambda entry: entry.first)


def key_text(key: Sequence[KeyLine]) -> str:
    """The key as ``parse_key`` reads it: ``1: 25`` lines, ranges as ``5-8: 10``."""
    return "\n".join(
        f"{k.first}: {k.points}" if k.first == k.last else f"{k.first}-{k.last}: {k.points}"
        for k in key
    )


DEFAULT_KEY = (
    KeyLine(1, 1, 25),
    KeyLine(2, 2, 20),
    KeyLine(3, 3, 16),
    KeyLine(4, 4, 13),
    KeyLine(5, 8, 10),
    KeyLine(9, 16, 5),
    KeyLine(17, 32, 3),
)
"""The example key of RULES.md 7 (beyond 8 a club's choice); participation 1."""
