"""The printed bracket sheet of a Preisschnapsen night: every round a column of boxes
(each Partie's two Karten, a Freilos alone), laid out on A4 landscape pages, the large
boxes of the last rounds and the places on the last page (``bracket_pages``), and its
template context (``bracket_context``) for ``base.printing``.
"""

from dataclasses import dataclass, replace
from typing import TypeGuard
from urllib.parse import quote

from django.utils.translation import gettext as _

from base.printing import text_width
from tournaments.models import Card, Tournament
from tournaments.prizes import Place
from tournaments.rows import BlankRow, Column, Row, bracket_columns
from tournaments.services.reading import load_state

# The bracket sheet: A4 landscape pages, in millimetres inside the page margins. The
# small boxes' text is one block of lines on a grid per page, each box's lines at its
# column's tab stop, and the boxes' frames are drawn with the bracket lines as one SVG
# path: WeasyPrint then lays out a handful of elements per page instead of one per box
# (an element costs it about as much as two lines of text).
SHEET_WIDTH = 277.0
SHEET_TOP = 22.0
"""Where the boxes start: the page's headings (and the title on page 1) lie above."""
SHEET_HEIGHT = 163.0
PAGE_HEIGHT = 185.0
"""The page inside its margins, as ``templates/print/bracket.html`` sets them."""
GAP = 5.0
"""Between two columns: room for the bracket line from two matches to the next."""
LEAVES = 16
"""The most boxes in a column of one page. The pages before the last end with the
largest round that fits this (if ``SECTION_COLUMNS`` allow); the last page holds every
round after the ones they show, and the places."""
SECTION_COLUMNS = 5
"""The most rounds side by side on a page before the last one."""
LINE = SHEET_HEIGHT / (2 * LEAVES)
"""The height of a line of the grid (mm): a box of a column of ``LEAVES`` boxes takes
two, its two lines, the boxes one under the other. Then the box of the next round,
halfway between the two it follows, takes the second line of the one and the first of
the other: every line of the page holds a box of the first column and at most one
more, and a page of 16 matches is 32 lines of text (WeasyPrint's cost goes by lines)."""
INSET = 0.9
"""Between the frames of two boxes of the small grid, one under the other: each frame
is drawn from this much (mm) inside its two lines, less the 0.3 mm ``_frame`` adds
above and below (0.6 mm inside, 1.2 mm between two frames)."""
SMALL = 6.5
"""The font size of the grid (pt), as ``templates/print/bracket.html`` sets it."""
LARGE_LINE = SHEET_HEIGHT / 48
"""The line height of the last page's large boxes (mm): a box of a column of eight
takes six lines, its two and a gap of four."""
LARGE = 8.0
"""Their font size (pt)."""
PAD = 1.0
"""Between a box's frame and its text, left and right (mm)."""
PX = 25.4 / 96
"""A CSS pixel in mm: tab stops lie at whole pixels."""
TAB_DRAWN = 1.024
"""How much wider WeasyPrint (62 to 70 at least) draws a tab than it lays it out: it
writes the tab's width in Pango units (1/1024) where the PDF counts thousandths. The
columns are as wide as a tab is drawn; ``tests/tournaments/test_print_bracket_pages.py`` checks it."""


@dataclass(frozen=True)
class Box:
    """A box of the printed bracket drawn on its own (a large one of the last page, or
    one whose text is too wide for a line of the grid): its ``text`` (lines), where it
    stands (``style``: left, top and width in mm) and ``large`` (bigger type)."""

    text: str
    style: str
    large: bool = False


def _at(left: float, top: float, width: float) -> str:
    return f"left:{left:.1f}mm;top:{top:.1f}mm;width:{width:.1f}mm"


def _card(card: Card | None) -> str:
    return f"#{card.number} {card.player.name}" if card is not None else ""


def box_label(label: int | Place) -> str:
    """A box's first word: the match number, or the place a placement match is for
    ("3", "5–8", under the side column's heading "Matches for place")."""
    return label.value.replace("-", "\u2013") if isinstance(label, Place) else str(label)


def box_text(row: Row | BlankRow) -> str:
    """Two lines: the match number (``box_label``) and the left card, then the right
    card (or the bye); the winner's line ends with the score ("#12 Anna 2:1"), or says
    the card went on without a match; a withdrawn card's line says so in the last
    pairing it was drawn in. A box still to come has the number and room to
    write."""
    if isinstance(row, BlankRow):
        return f"{box_label(row.label)}\n\u00a0"
    lines = [_card(row.left), _("bye (Freilos)") if row.kind == "bye" else _card(row.right)]
    for i, card in enumerate((row.left, row.right)):
        if card is not None and card.pk in row.withdrawn:
            lines[i] += " · " + _("withdrawn")  # RULES.md 5.7: the line does not just end
    if row.winner is not None:
        won = 0 if row.left is not None and row.winner.pk == row.left.pk else 1
        if row.result is not None:
            lines[won] += f" {row.result.score}"
        elif row.kind == "walkover":
            lines[won] += " · " + _("walkover")
    return f"{box_label(row.label)} · {lines[0]}\n{lines[1] or chr(0xA0)}"


@dataclass(frozen=True)
class Grid:
    """Box text on a grid of lines, one block of text for WeasyPrint: ``text`` (lines,
    each box's after as many tabs as its column has columns before it), where it
    stands (``style``: left, top, width and line height in mm) and ``large`` (bigger type)."""

    text: str
    style: str
    large: bool = False


class _Lines:
    """The lines of a ``Grid`` being filled: line number -> (column, text) pieces. A
    piece after text on its line follows its tabs and hair spaces that make up for the
    tab drawn ``TAB_DRAWN`` times the rest of its stop (``_after_text``)."""

    def __init__(self, height: float, large: bool = False):
        self.height, self.large = height, large
        self.pieces: dict[int, list[tuple[int, str]]] = {}

    def add(self, first: int, column: int, text: str) -> None:
        for number, line in enumerate(text.split("\n")):
            self.pieces.setdefault(first + number, []).append((column, line))

    def grid(self, left: float = 0.0) -> Grid | None:
        """The lines from the first in use to the last (None: none in use)."""
        if not self.pieces:
            return None
        first, out = min(self.pieces), []
        size = LARGE if self.large else SMALL
        for number in range(first, max(self.pieces) + 1):
            line, at, laid = "", 0, ""  # laid: the text since the last tab stop
            for column, text in sorted(self.pieces.get(number, ())):
                pad = _after_text(laid, size)
                line += "\t" * (column - at) + pad + text
                at, laid = column, pad + text
            out.append(line)
        top = SHEET_TOP + first * self.height
        style = (
            f"left:{left + PAD:.1f}mm;top:{top:.3f}mm;width:{SHEET_WIDTH - left - PAD:.1f}mm;"
            f"line-height:{self.height:.4f}mm"
        )
        return Grid("\n".join(out), style, self.large)


HAIR = "\u200a"


def _after_text(before: str, size: float) -> str:
    """The hair spaces that put a text after a tab where the tab stop is, when ``before``
    (at ``size`` pt) stands before the tab since the last stop: the tab is drawn
    ``TAB_DRAWN`` times the rest of its stop, so the text would be drawn short of the
    stop by the rest of ``TAB_DRAWN`` times the width of ``before``."""
    if not before:
        return ""
    short = (TAB_DRAWN - 1) * text_width(before, size)
    return HAIR * round(short / text_width(HAIR, size))


@dataclass(frozen=True)
class BracketPage:
    """One page of the printed bracket: its ``title``; the column titles as one line
    (``headings``, a tab between two); the boxes' text on ``grids`` (small, and on the
    last page large and the side column's); ``tab``: a column's width in CSS px; the
    ``boxes`` drawn on their own (a text too wide for the grid); the bracket lines,
    the boxes' frames and the headings' rules as one SVG path (``path``, in mm). The
    last page's side column holds the placement matches and places 1-8."""

    title: str
    headings: str
    grids: tuple[Grid, ...]
    tab: int
    boxes: tuple[Box, ...]
    path: str

    @property
    def lines(self) -> str:
        """``path`` as an SVG image, a ``data:`` URI for an ``<img>`` over the page.
        WeasyPrint draws an image for less than inline SVG, and reads it once for all
        the pages that draw the same lines (the pages before the last, mostly)."""
        svg = (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{SHEET_WIDTH:.0f}mm' "
            f"height='{PAGE_HEIGHT:.0f}mm' viewBox='0 0 {SHEET_WIDTH:.0f} {PAGE_HEIGHT:.0f}'>"
            f"<path d='{self.path}' fill='none' stroke='#000' stroke-width='0.16'/></svg>"
        )
        return "data:image/svg+xml," + quote(svg)


def column_width(count: int) -> tuple[int, float]:
    """The width of each of ``count`` columns side by side on the sheet: the tab size
    (whole CSS px) that puts a column's text at its place, and the width in mm."""
    tab = int(SHEET_WIDTH / count / PX / TAB_DRAWN)
    return tab, tab * PX * TAB_DRAWN


def fits(text: str, width: float, size: float = SMALL) -> bool:
    """Whether each line of ``text`` is at most ``width`` mm wide at ``size`` pt."""
    return all(text_width(line, size) <= width for line in text.split("\n"))


def wrapped(text: str, width: float, size: float = SMALL) -> int:
    """How many lines ``text`` takes at most in a box ``width`` mm wide at ``size`` pt:
    each of its lines broken at spaces only (WeasyPrint may also break after a hyphen,
    which takes no more lines)."""
    space, count = text_width(" ", size), 0
    for line in text.split("\n"):
        taken = None  # the width of the line being filled
        for word in (text_width(w, size) for w in line.split(" ")):
            if taken is None or taken + space + word > width:
                count, taken = count + 1, word
            else:
                taken += space + word
    return count


def _frame(left: float, top: float, width: float, height: float) -> str:
    return f"M{left:.1f} {top - 0.3:.2f}h{width:.1f}v{height + 0.6:.2f}h{-width:.1f}z"


def in_tree_order(columns: list[Column]) -> list[Column]:
    """The round ``columns`` with each round's rows in the order of the bracket tree: the
    last drawn round in match order, each earlier round so that the two pairings a card
    of pairing i came from take places 2i and 2i+1 (left card first). Each round is
    drawn afresh (RULES.md 5.4), so this order is what lets a reader follow a card from
    round 1 to the final. Blank rounds keep their order; a pairing nobody advanced from
    (both cards withdrawn) fills a free place, in match order."""
    out = list(columns)
    drawn = [i for i, c in enumerate(columns) if c.rows and isinstance(c.rows[0], Row)]
    for i in reversed(drawn[:-1]):
        later, rows_ = out[i + 1].rows, columns[i].rows
        if 2 * len(later) != len(rows_) or not (_drawn(later) and _drawn(rows_)):
            continue
        of_card = {}
        for row in rows_:
            for card in (row.left, row.right):
                if card is not None:
                    of_card[card.pk] = row
        slots: list[Row | None] = []
        for row in later:
            for card in (row.left, row.right):
                slots.append(of_card.get(card.pk) if card is not None else None)
        placed = {id(r) for r in slots if r is not None}
        rest = iter(r for r in rows_ if id(r) not in placed)
        order = [r if r is not None else next(rest, None) for r in slots]
        kept = [r for r in order if r is not None]
        if len(kept) == len(order) and {id(r) for r in kept} == {id(r) for r in rows_}:
            out[i] = replace(columns[i], rows=tuple(kept))  # else keep match order
    return out


def _drawn(rows: tuple[Row | BlankRow, ...]) -> TypeGuard[tuple[Row, ...]]:
    """A drawn round's rows: pairings, no blank box."""
    return all(isinstance(row, Row) for row in rows)


def _page(
    title: str, columns: list[tuple[str, tuple]], count: int, side: tuple = (), places=()
) -> BracketPage:
    """A page of round ``columns`` (title, rows) side by side, each a ``count``-th of the
    sheet wide, the boxes of a column spread evenly over the sheet's height, with a
    bracket line from each two boxes to the box they lead to. The last page has a
    column at the ``side`` (the placement matches, then the ``places`` lines) and large
    boxes in its columns of at most four (of at most eight, when its first column has
    no more). A box whose text is too wide for its line is drawn on its own."""
    tab, width = column_width(count)
    last = bool(places)
    small, large = _Lines(LINE), _Lines(LARGE_LINE, True)
    boxes, path, before = [], [], None
    largest = LEAVES // 2 if last and len(columns[0][1]) <= LEAVES // 2 else LEAVES // 4
    for index, (_heading, rows_) in enumerate(columns):
        left = index * width
        path.append(f"M{left:.1f} {SHEET_TOP - 1.6:.1f}h{width - GAP:.1f}")
        step = SHEET_HEIGHT / max(len(rows_), 1)
        middles = [SHEET_TOP + (i + 0.5) * step for i in range(len(rows_))]
        lines = large if last and len(rows_) <= largest else small
        size = LARGE if lines.large else SMALL
        for row, mid in zip(rows_, middles, strict=True):
            text = box_text(row)
            if not fits(text, width - GAP - 2 * PAD, size):
                style = _at(left, mid - (3.8 if lines.large else 3.1), width - GAP)
                boxes.append(Box(text, style, lines.large))
                continue
            first = round((mid - SHEET_TOP) / lines.height) - 1
            lines.add(first, index, text)
            top, height = SHEET_TOP + first * lines.height, 2 * lines.height
            if not lines.large:
                top, height = top + INSET, height - 2 * INSET
            path.append(_frame(left, top, width - GAP, height))
        if before is not None and middles and len(before) == 2 * len(middles):
            x = left - GAP
            path += [
                f"M{x:.1f} {before[2 * j]:.1f}h{GAP / 2:.1f}V{before[2 * j + 1]:.1f}h{-GAP / 2:.1f}"
                f"M{x + GAP / 2:.1f} {middles[j]:.1f}h{GAP / 2:.1f}"
                for j in range(len(middles))
            ]
        before = middles
    grids = [small.grid(), large.grid()]
    if last:
        # The side column's boxes stand one under the other, each as many lines down as
        # the one before takes (a box too wide for its line wraps onto more).
        left, column, at = (count - 1) * width, _Lines(LARGE_LINE, True), 0
        for row in side:
            text = box_text(row)
            if not fits(text, width - GAP - 2 * PAD, LARGE):
                boxes.append(Box(text, _at(left, SHEET_TOP + at * LARGE_LINE, width - GAP), True))
                at += wrapped(text, width - GAP - 2 * PAD, LARGE) + 1
                continue
            column.add(at, 0, text)
            path.append(_frame(left, SHEET_TOP + at * LARGE_LINE, width - GAP, 2 * LARGE_LINE))
            at += 3
        column.add(at + 1, 0, "\n".join(places))
        grids.append(column.grid(left))
    headings = "\t".join(heading for heading, _rows in columns)
    return BracketPage(
        title, headings, tuple(g for g in grids if g), tab, tuple(boxes), "".join(path)
    )


def bracket_pages(state, columns: list[Column]) -> list[BracketPage]:
    """The printed bracket (``bracket_columns`` with the blank rounds): the rounds in
    tree order (``in_tree_order``), on A4 landscape pages, each round once. Round 1
    (when it has more than ``LEAVES`` matches) is cut into pages of ``LEAVES`` boxes,
    each with the later rounds its winners played up to the largest round of at most
    ``LEAVES`` matches, at most ``SECTION_COLUMNS`` rounds side by side. The last page
    goes on from the next round, in the same order (its first box takes the winners of
    the first boxes of page 1), with the placement matches and places 1-8."""
    rounds = in_tree_order([c for c in columns if c.number is not None])
    placement = next((c for c in columns if c.number is None), None)
    if not rounds:
        return []
    first = next(i for i, c in enumerate(rounds) if len(c.rows) <= LEAVES)
    shown = rounds[: min(first + 1, SECTION_COLUMNS, len(rounds) - 1)] if first else []
    pages = []
    if shown:
        parts = -(-len(shown[0].rows) // LEAVES)
        for part in range(parts):
            cut = [
                (c.title, c.rows[part * len(c.rows) // parts : (part + 1) * len(c.rows) // parts])
                for c in shown
            ]
            title = _("%(first)s to %(last)s, part %(part)s of %(parts)s") % {
                "first": shown[0].title,
                "last": shown[-1].title,
                "part": part + 1,
                "parts": parts,
            }
            pages.append(_page(title, cut, len(shown)))
    last = rounds[len(shown) :]
    places = state.places() if state.rounds else {}
    lines = [_("Places")] + [
        f"{p}. {_card(state.cards.get(places.get(p)))}"
        for p in range(1, min(8, state.tournament.cards) + 1)
    ]
    title = (
        _("%(first)s to %(last)s") % {"first": last[0].title, "last": last[-1].title}
        if len(last) > 1
        else last[0].title
    )
    columns_ = [(c.title, c.rows) for c in last]
    side = tuple(placement.rows) if placement else ()
    if side:
        columns_.append((_("Matches for place"), ()))
    pages.append(_page(title, columns_, len(last) + 1, side, lines))
    return pages


def bracket_context(t: Tournament) -> dict:
    """Every round as a column (``columns``, as the live bracket shows them) and the
    printed ``pages`` (``bracket_pages``); before round 1 a blank bracket to fill in by
    hand."""
    state = load_state(t)
    columns = bracket_columns(state, blank_for=t.cards)
    return {"tournament": t, "columns": columns, "pages": bracket_pages(state, columns)}
