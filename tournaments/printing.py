"""What the printed Preisschnapsen documents show: bracket sheet, draw list, match score
sheets, prize list. Each function returns a template context for ``bummerl.printing``."""

from dataclasses import dataclass, replace

from django.urls import reverse
from django.utils.translation import gettext as _

from bummerl.printing import qr_png
from tournaments import sheet_grid
from tournaments.models import Card, Pull, Round, Tournament
from tournaments.prizes import Place
from tournaments.rows import BlankRow, Column, Row, SheetRow, bracket_columns, rows
from tournaments.services.reading import load_state


@dataclass(frozen=True)
class PrizeLine:
    """A line of the printed prize list: prize ``place``, its ``description`` and the
    ``card`` that won it (None while not known)."""

    place: int
    description: str
    card: Card | None


# The bracket sheet: A4 landscape pages of positioned boxes (no tables, no flowing
# layout), in millimetres inside the page margins.
SHEET_WIDTH = 277.0
SHEET_TOP = 22.0
"""Where the boxes start: the page's headings (and the title on page 1) lie above."""
SHEET_HEIGHT = 163.0
GAP = 5.0
"""Between two columns: room for the bracket line from two matches to the next."""
LEAVES = 16
"""The most boxes in a column of one page; the largest column that fits this is the
first of the last page, which holds every round after it and the places."""
SECTION_COLUMNS = 5
"""The most rounds side by side on a page before the last one."""


@dataclass(frozen=True)
class Box:
    """A box of the printed bracket: its ``text`` (lines), where it stands (``style``:
    left, top and width in mm) and ``large`` (a column of few boxes)."""

    text: str
    style: str
    large: bool = False


def _at(left: float, top: float, width: float) -> str:
    return f"left:{left:.1f}mm;top:{top:.1f}mm;width:{width:.1f}mm"


def _card(card: Card | None) -> str:
    return f"#{card.number} {card.player.name}" if card is not None else ""


def box_text(row: Row | BlankRow) -> str:
    """Two lines: the match number and the left card, then the right card (or the
    bye); the winner's line ends with the score ("#12 Anna 2:1"), or says the card went
    on without a match. A box still to come has the number and room to write."""
    if isinstance(row, BlankRow):
        return f"{row.label}\n\u00a0"
    lines = [_card(row.left), _("bye (Freilos)") if row.kind == "bye" else _card(row.right)]
    if row.winner is not None:
        won = 0 if row.left is not None and row.winner.pk == row.left.pk else 1
        if row.result is not None:
            lines[won] += f" {row.result.score}"
        elif row.kind == "walkover":
            lines[won] += " · " + _("walkover")
    return f"{row.label} · {lines[0]}\n{lines[1] or chr(0xA0)}"


@dataclass(frozen=True)
class Heading:
    """A column's ``title`` over the column (``style``: where)."""

    title: str
    style: str


@dataclass(frozen=True)
class BracketPage:
    """One page of the printed bracket: its ``title``, column ``headings``, ``boxes``
    and the bracket lines as one SVG path (``path``, in mm); the last page also the
    placement matches and places 1-8 (``places``: text lines, where: ``places_style``)."""

    title: str
    headings: tuple[Heading, ...]
    boxes: tuple[Box, ...]
    path: str
    last: bool = False
    places: str = ""
    places_style: str = ""


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
        later, rows_ = out[i + 1], columns[i].rows
        if 2 * len(later.rows) != len(rows_):
            continue
        of_card = {}
        for row in rows_:
            for card in (row.left, row.right):
                if card is not None:
                    of_card[card.pk] = row
        slots: list[Row | None] = []
        for row in later.rows:
            for card in (row.left, row.right):
                slots.append(of_card.get(card.pk) if card is not None else None)
        placed = {id(r) for r in slots if r is not None}
        rest = iter(r for r in rows_ if id(r) not in placed)
        order = [r if r is not None else next(rest, None) for r in slots]
        if {id(r) for r in order} == {id(r) for r in rows_}:  # else keep match order
            out[i] = replace(columns[i], rows=tuple(order))
    return out


def _column(rows, left: float, width: float) -> tuple[list[Box], list[float]]:
    """Boxes of ``rows`` spread evenly over the sheet's height, and their middles."""
    step = SHEET_HEIGHT / max(len(rows), 1)
    middles = [SHEET_TOP + (i + 0.5) * step for i in range(len(rows))]
    large = len(rows) <= 4
    half = 3.8 if large else 3.1
    boxes = [
        Box(box_text(row), _at(left, mid - half, width), large)
        for row, mid in zip(rows, middles, strict=True)
    ]
    return boxes, middles


def _page(title: str, columns: list[tuple[str, tuple]], width: float, **more) -> BracketPage:
    """A page of round ``columns`` (title, rows) side by side, ``width`` mm each, with a
    bracket line from each two boxes to the box they lead to."""
    boxes, path, headings, before = [], [], [], None
    for index, (heading, rows_) in enumerate(columns):
        left = index * width
        column, middles = _column(rows_, left, width - GAP)
        headings.append(Heading(heading, _at(left, SHEET_TOP - 5, width - GAP)))
        boxes += column
        if before is not None and len(before) == 2 * len(middles):
            x = left - GAP
            path += [
                f"M{x:.1f} {before[2 * j]:.1f}h{GAP / 2:.1f}V{before[2 * j + 1]:.1f}h{-GAP / 2:.1f}"
                f"M{x + GAP / 2:.1f} {middles[j]:.1f}h{GAP / 2:.1f}"
                for j in range(len(middles))
            ]
        before = middles
    return BracketPage(title, tuple(headings), tuple(boxes), "".join(path), **more)


def bracket_pages(state, columns: list[Column]) -> list[BracketPage]:
    """The printed bracket (``bracket_columns`` with the blank rounds): the rounds in
    tree order (``in_tree_order``), on A4 landscape pages. The last page holds the last
    rounds (from the largest round of at most ``LEAVES`` matches on), the placement
    matches and places 1-8; the rounds before it are cut into pages of ``LEAVES`` boxes
    in their first column, up to ``SECTION_COLUMNS`` rounds side by side, in the order
    of the last page's first column (whose boxes such a page repeats as its last
    column, when it reaches that far)."""
    rounds = in_tree_order([c for c in columns if c.number is not None])
    placement = next((c for c in columns if c.number is None), None)
    if not rounds:
        return []
    first = next(i for i, c in enumerate(rounds) if len(c.rows) <= LEAVES)
    pages = []
    if first:
        shown = rounds[: min(first, SECTION_COLUMNS - 1) + 1]
        parts = -(-len(shown[0].rows) // LEAVES)
        width = SHEET_WIDTH / len(shown)
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
            pages.append(_page(title, cut, width))
    last = rounds[first:]
    width = SHEET_WIDTH / (len(last) + 1)
    side = len(last) * width
    extra = list(placement.rows) if placement else []
    more = [
        Box(box_text(row), _at(side, SHEET_TOP + i * 9.5, width - GAP), True)
        for i, row in enumerate(extra)
    ]
    headings = [Heading(placement.title, _at(side, SHEET_TOP - 5, width - GAP))] if extra else []
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
    page = _page(title, [(c.title, c.rows) for c in last], width)
    pages.append(
        replace(
            page,
            headings=page.headings + tuple(headings),
            boxes=page.boxes + tuple(more),
            last=True,
            places="\n".join(lines),
            places_style=_at(side, SHEET_TOP + len(more) * 9.5 + 2, width - GAP),
        )
    )
    return pages


def bracket_context(t: Tournament) -> dict:
    """Every round as a column (``columns``, as the live bracket shows them) and the
    printed ``pages`` (``bracket_pages``); before round 1 a blank bracket to fill in by
    hand."""
    state = load_state(t)
    columns = bracket_columns(state, blank_for=t.cards)
    return {"tournament": t, "columns": columns, "pages": bracket_pages(state, columns)}


def draw_context(t: Tournament, round_: Round) -> dict:
    state = load_state(t)
    pulls = (
        Pull.objects.live().filter(round=round_).select_related("player", "card").order_by("index")
    )
    return {
        "tournament": t,
        "round": round_,
        "rows": rows(state, state.pairings.get(round_.pk, [])),
        "pulls": pulls,
    }


def match_sheets_context(t: Tournament, round_: Round, build_url) -> dict:
    """One A6 sheet per match of the round (and the open placement matches with it)."""
    state = load_state(t)
    pairings = list(state.pairings.get(round_.pk, []))
    if round_ == state.current:
        pairings += state.placement

    def sheet(row: Row) -> SheetRow:
        pairing = row.pairing
        title = (
            _("Placement match %(label)s") % {"label": row.label.label}
            if isinstance(row.label, Place)
            else _("Round %(n)s, match %(m)s") % {"n": round_.number, "m": pairing.number}
        )
        qr = qr_png(build_url(reverse("match_link", kwargs={"token": pairing.token})))
        return SheetRow(**vars(row), title=title, qr=qr)

    headings = tuple(_("Bummerl %(n)s") % {"n": n} for n in range(1, 2 * t.match_bummerl))
    return {
        "tournament": t,
        "rows": [sheet(row) for row in rows(state, pairings) if row.kind == "match"],
        "grid": sheet_grid.grid(headings),
    }


def prizes_context(t: Tournament) -> dict:
    state = load_state(t)
    awarded = {a.place: state.cards[a.card] for a in state.awards()}
    prizes = [
        PrizeLine(int(p["place"]), p["description"], awarded.get(int(p["place"])))
        for p in sorted(t.prizes, key=lambda p: int(p["place"]))
    ]
    return {"tournament": t, "prizes": prizes}
