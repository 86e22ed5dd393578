"""The room screen: the live bracket for a 1920×1080 screen read from 5 m away, as
pages that take turns (``static/js/screen.js``): the current round, split into pages
of at most ``PER_PAGE`` matches in the order of the players' names, then the placement
matches, then the prize list. A Leben or points event (RULES.md 5.10, 6) shows its
standings in pages of ``STANDING_PER_PAGE`` lines after its current round.

The current round's matches are listed by name (German order, ``Player.name_key``,
``base.text.german_key``): a match under the first of its two players' names, who is
shown on top of its box; each page of the round says which names it holds by their
first letters ("A–F"), so a player knows when his page comes. The placement matches
keep the order of their places.

A page never scrolls: its boxes are laid out in ``grid`` columns and rows that fill
the screen, each match one box with the two names on a line each (at least 40 px on
1080 px, larger the fewer the boxes, ``static/css/screen.css``) beside its table
number (``TournamentState.tables``). Earlier rounds stay on the live bracket behind the
QR code.
"""

from dataclasses import dataclass

from django.utils.translation import gettext

from tournaments import formats
from tournaments.models import Format
from tournaments.rows import Column, Row, bracket_columns

COLUMNS = 3
ROWS = 8
PER_PAGE = COLUMNS * ROWS
STANDING_PER_PAGE = 16
"""Lines of a standings page: two columns of eight (as many as the prizes page holds)."""


def grid(count: int) -> tuple[int, int]:
    """``(columns, rows)`` of a page of ``count`` matches (0 … ``PER_PAGE``): one column
    up to 5 matches (the names across the whole width), two up to 16, three beyond;
    as many rows as the columns need (at most ``ROWS``). ``grid(8)`` is ``(2, 4)``: the
    boxes fill the screen's width and height, their names as large as the height
    allows and still about 16 letters wide."""
    columns = 1 if count <= 5 else 2 if count <= 16 else COLUMNS
    return columns, max(1, -(-count // columns))


@dataclass(frozen=True)
class ScreenPage:
    """One page of the room screen: ``title`` (the round's name), ``part`` (1-based) of
    ``parts`` pages of that round, the ``rows`` (``rows.Row``), the ``prizes``
    (``categories.ListedPrize``) or the ``standing`` (``formats.BoardLine``s), and
    ``letters``: the first letters of the first and last name of a page of the current
    round ("A–F", "S" when both are one letter; "" on any other page)."""

    title: str
    rows: tuple[Row, ...] = ()
    part: int = 1
    parts: int = 1
    prizes: tuple = ()
    standing: tuple = ()
    letters: str = ""

    @property
    def columns(self) -> int:
        """The columns of its boxes (``grid``)."""
        return grid(len(self.rows))[0]

    @property
    def lines(self) -> int:
        """The rows of its boxes (``grid``)."""
        return grid(len(self.rows))[1]


def _chunks(items: list, size: int) -> list[tuple]:
    return [tuple(items[i : i + size]) for i in range(0, len(items), size)] or [()]


def _split(column: Column) -> list[ScreenPage]:
    rows = [row for row in column.rows if isinstance(row, Row)]
    chunks = _chunks(rows, PER_PAGE)
    return [
        ScreenPage(column.title, chunk, part, len(chunks))
        for part, chunk in enumerate(chunks, start=1)
    ]


def _key(card) -> tuple[str, str]:
    """A card's player in German order (``name_key``, then the name as typed)."""
    if card is None:
        return ("\uffff", "")
    return (card.player.name_key, card.player.name)


def _listed(row: Row) -> Row:
    """``row`` with the first of its two players' names (``_key``) as ``left``, the name
    the match is listed under. A bye keeps its card on top."""
    if row.right is not None and row.left is not None and _key(row.right) < _key(row.left):
        return row.with_(left=row.right, right=row.left)
    return row


def _letter(row: Row) -> str:
    key = row.left.player.name_key if row.left is not None else ""
    return key[:1].upper()


def _split_by_name(column: Column) -> list[ScreenPage]:
    """The current round's pages: its matches by the name they are listed under
    (``_listed``; equal names by match number), ``PER_PAGE`` a page, each with its
    ``letters``."""
    rows = sorted(
        (_listed(row) for row in column.rows if isinstance(row, Row)),
        key=lambda row: (_key(row.left), row.pairing.number or 0),
    )
    chunks = _chunks(rows, PER_PAGE)
    pages = []
    for part, chunk in enumerate(chunks, start=1):
        first, last = (_letter(chunk[0]), _letter(chunk[-1])) if chunk else ("", "")
        letters = first if first == last else f"{first}–{last}"
        pages.append(ScreenPage(column.title, chunk, part, len(chunks), letters=letters))
    return pages


def screen_pages(state, prizes) -> list[ScreenPage]:
    """The pages of ``state`` (``load_state``) in the order they are shown: the latest
    drawn round by name (``_split_by_name``), the placement matches, the prize list
    (``prizes``: ``categories.overall_prizes``). Empty before round 1 is drawn."""
    columns = bracket_columns(state)
    main = [c for c in columns if c.number is not None]
    pages = _split_by_name(main[-1]) if main else []
    pages += [p for c in columns if c.number is None for p in _split(c)]
    if state.tournament.format != Format.CARDS:
        pages += _standing_pages(state)
    if prizes:
        pages.append(ScreenPage(_prizes_title(), prizes=tuple(prizes)))
    return pages


def _standing_pages(state) -> list[ScreenPage]:
    """The standings board of a Leben or points event (``formats.board``) in pages."""
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
