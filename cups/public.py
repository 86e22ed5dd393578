"""The one public cup page (no account needed): its nights, standings after each night,
category tables and final, its exports and printout, and its rating list. They show
what the clubs show: a cup player who played for a club whose lists are not public
(``seasons.access``) keeps his line and place, named "Player of a private club" and
without clubs, on the page, in every export and printout and on the rating list."""

from dataclasses import dataclass, replace

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from base.numbers import whole_number
from base.printing import pdf_response
from base.spreadsheets import TableExport
from cups import access
from cups.models import Cup
from cups.ratings import cup_rating_list
from cups.reading import CupData, cup_data, night_label
from cups.standings import Line, Qualifier, in_category
from cups.tables import cell_text, standings_table
from ratings import elo
from scoring.models import Variant
from tournaments import nights as tournament_nights

EXPORT_FORMATS = ("csv", "ods", "xlsx")


# -- the public cup page -----------------------------------------------------------------


def public_cup(slug: str, cup_slug: str) -> Cup:
    cup = (
        Cup.objects.filter(body__slug=slug, slug=cup_slug)
        .select_related("body", "final", "final__club")
        .first()
    )
    if cup is None:
        raise Http404
    return cup


@dataclass(frozen=True)
class Table:
    """One table of the public page: ``code`` ("all" or a category), its ``label``
    and its ranked ``lines``."""

    code: str
    label: str
    lines: list[Line]


PRIVATE = gettext_lazy("Player of a private club")
"""How a public page, export or printout shows a cup player who played for a club that
keeps its lists to itself: his line stays (the others' ranks are the cup's), without
his name and clubs."""


def masked(line: Line) -> Line:
    """``line`` as the public sees it (``PRIVATE`` for a private club's player)."""
    if not line.entrant.private:
        return line
    return replace(line, entrant=replace(line.entrant, name=str(PRIVATE), clubs=()))


def cup_tables(data: CupData, after: int | None) -> list[Table]:
    """The overall and category tables as the public sees them (``masked``)."""
    overall = data.table(after)
    found = [Table("all", _("Overall"), [masked(line) for line in overall])]
    for name in data.cup.categories:
        lines = [masked(line) for line in in_category(overall, name)]
        found.append(Table(name.casefold(), name, lines))
    return found


def public_qualifiers(data: CupData) -> list[Qualifier]:
    if not (data.cup.qualify_top or data.cup.qualify_per_heat):
        return []
    return [replace(q, line=masked(q.line)) for q in data.qualifiers()]


def _after(request: HttpRequest, data: CupData) -> int | None:
    after = whole_number(request.GET.get("after"))
    if after is not None and 1 <= after <= len(data.nights):
        return after
    return None


@require_safe
def cup(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    """The public cup page: the calendar of its nights, the standings after each night
    (``?after=k``), dropped results struck, the category tables, the final and its
    qualifiers; ``?_export=csv|ods|xlsx&table=all|<category>`` gives a table as a file."""
    found = public_cup(slug, cup_slug)
    data = cup_data(found)
    after = _after(request, data)
    tables = cup_tables(data, after)
    shown_nights = data.nights if after is None else data.nights[:after]
    export = request.GET.get("_export")
    if export in EXPORT_FORMATS:
        chosen = next((t for t in tables if t.code == request.GET.get("table")), tables[0])
        table = standings_table(chosen.lines, shown_nights)
        exporter = TableExport(export, table, dataset_kwargs={"title": str(chosen.label)[:31]})
        return exporter.response(f"cup-{found.body.slug}-{found.slug}-{chosen.code}.{export}")
    today = timezone.localdate()
    calendar = [
        {
            "number": index,
            "night": n,
            "label": night_label(n),
            "url": tournament_nights.public_path(n.tournament),
            "played": timezone.localdate(n.tournament.starts_at) <= today,
        }
        for index, n in enumerate(data.nights, start=1)
    ]
    context = {
        "cup": found,
        "body": found.body,
        "calendar": calendar,
        "after": after,
        "tables": tables,
        "numbers": list(range(1, len(shown_nights) + 1)),
        "qualifiers": public_qualifiers(data),
        "final_url": tournament_nights.public_path(found.final) if found.final else None,
        "export_formats": EXPORT_FORMATS,
        "admin": access.is_admin(request, found.body),
    }
    return render(request, "cups/cup.html", context)


@dataclass(frozen=True)
class PrintedTable:
    """A table of the printout: its ``label`` and per line the line and its night
    cells as the exports write them (``cell_text``) with whether each is struck."""

    label: str
    rows: list[tuple[Line, list[tuple[str, bool]]]]


def printed(tables: list[Table]) -> list[PrintedTable]:
    return [
        PrintedTable(
            str(table.label),
            [
                (line, [(cell_text(line, i), c.dropped) for i, c in enumerate(line.cells)])
                for line in table.lines
            ],
        )
        for table in tables
    ]


@require_safe
def cup_print(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    """The cup's standings as PDF (A4): every table, the calendar and the points key."""
    found = public_cup(slug, cup_slug)
    data = cup_data(found)
    context = {
        "cup": found,
        "body": found.body,
        "nights": [(i, night_label(n), n) for i, n in enumerate(data.nights, start=1)],
        "numbers": list(range(1, len(data.nights) + 1)),
        "tables": printed(cup_tables(data, None)),
        "key": found.key_lines,
        "qualifiers": public_qualifiers(data),
    }
    return pdf_response(
        request, "print/cup.html", context, f"cup-{found.body.slug}-{found.slug}.pdf"
    )


@require_safe
def cup_ratings(request: HttpRequest, slug: str, cup_slug: str) -> HttpResponse:
    """The cup's rating list of one game (``?game=dreierschnapsen``; two-player
    Schnapsen without): Elo from 1500 over the member clubs' games of the cup's days,
    one line per cup player (``cups.ratings``); 404 for an unknown game."""
    variant = request.GET.get("game", Variant.SCHNAPSEN)
    if variant not in Variant.values:
        raise Http404
    found = public_cup(slug, cup_slug)
    minimum = settings.RATING_MIN_GAMES
    ranked, below, with_games = cup_rating_list(found, variant, minimum)
    ranked = [replace(r, name=str(PRIVATE), clubs=()) if r.private else r for r in ranked]
    below = [replace(r, name=str(PRIVATE), clubs=()) if r.private else r for r in below]
    context = {
        "cup": found,
        "body": found.body,
        "variant": variant,
        "variant_label": Variant(variant).label,
        "variants": [(v, label) for v, label in Variant.choices if v in with_games or v == variant],
        "ranked": ranked,
        "below": below,
        "min_games": minimum,
        "even": round(elo.K / 2),
        "start": round(elo.START),
    }
    return render(request, "cups/ratings.html", context)
