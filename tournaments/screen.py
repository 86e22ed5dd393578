"""The room screen: the live bracket for a 1920×1080 screen read from 5 m away, as
pages that take turns (``static/js/screen.js``): the current round, split into pages
of at most ``PER_PAGE`` matches, then the placement matches, then the prize list. A
Leben or points event (RULES.md 5.10, 6) shows its standings in pages of
``STANDING_PER_PAGE`` lines after its current round.

A page never scrolls: it holds ``COLUMNS`` × ``ROWS`` matches, each match one box with
the two names on a line each (at least 40 px on 1080 px, ``static/css/screen.css``);
a page of at most ``LARGE`` matches is shown larger. Earlier rounds stay on the live
bracket behind the QR code.
"""

from dataclasses import dataclass

from tournaments.models import Format
from tournaments.rows import Column, Row, bracket_columns

COLUMNS = 3
ROWS = 8
PER_PAGE = COLUMNS * ROWS
LARGE = 6
"""A page with this many matches or fewer is shown with larger names (2 × 3 boxes)."""
STANDING_PER_PAGE = 16
"""Lines of a standings page: two columns of eight (as many as the prizes page holds)."""


@dataclass(frozen=True)
class ScreenPage:
    """One page of the room screen: ``title`` (the round's name), ``part`` (1-based) of
    ``parts`` pages of that round, the ``rows`` (``rows.Row``), the ``prizes``
    (``categories.ListedPrize``) or the ``standing`` (``formats.BoardLine``s), and
    ``large``."""

    title: str
    rows: tuple[Row, ...] = ()
    part: int = 1
    parts: int = 1
    prizes: tuple = ()
    standing: tuple = ()

    @property
    def large(self) -> bool:
        return len(self.rows) <= LARGE


def _split(column: Column) -> list[ScreenPage]:
    rows = [row for row in column.rows if isinstance(row, Row)]
    chunks = [tuple(rows[i : i + PER_PAGE]) for i in range(0, len(rows), PER_PAGE)] or [()]
    return [
        ScreenPage(column.title, chunk, part, len(chunks))
        for part, chunk in enumerate(chunks, start=1)
    ]


def screen_pages(state, prizes) -> list[ScreenPage]:
    """The pages of ``state`` (``load_state``) in the order they are shown: the latest
    drawn round, the placement matches, the prize list (``prizes``:
    ``categories.overall_prizes``). Empty before round 1 is drawn."""
    columns = bracket_columns(state)
    main = [c for c in columns if c.number is not None]
    pages = _split(main[-1]) if main else []
    pages += [p for c in columns if c.number is None for p in _split(c)]
    if state.tournament.format != Format.CARDS:
        pages += _standing_pages(state)
    if prizes:
        pages.append(ScreenPage(_prizes_title(), prizes=tuple(prizes)))
    return pages


def _standing_pages(state) -> list[ScreenPage]:
    """The standings board of a Leben or points event (``formats.board``) in pages."""
    from django.utils.translation import gettext

    from tournaments import formats

    lines = formats.board(state).lines
    chunks = [
        tuple(lines[i : i + STANDING_PER_PAGE]) for i in range(0, len(lines), STANDING_PER_PAGE)
    ]
    return [
        ScreenPage(gettext("Standings"), part=part, parts=len(chunks), standing=chunk)
        for part, chunk in enumerate(chunks, start=1)
    ]


def _prizes_title() -> str:
    from django.utils.translation import gettext

    return gettext("Prizes")
