"""The one public cup page (no account needed): its nights, standings after each night,
category tables and final, its exports and printout, and its rating list."""

from dataclasses import dataclass

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from base.printing import pdf_response
from base.spreadsheets import TableExport
from cups import access
from cups.models import Cup
from cups.ratings import cup_rating_list
from cups.reading import CupData, cup_data, night_label
from cups.standings import Line, in_category
from cups.tables import standings_table
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


def cup_tables(data: CupData, after: int | None) -> list[Table]:
    overall = data.table(after)
    found = [Table("all", _("Overall"), overall)]
    for name in data.cup.categories:
        found.append(Table(name.casefold(), name, in_category(overall, name)))
    return found


def _after(request: HttpRequest, data: CupData) -> int | None:
    value = request.GET.get("after", "")
    if value.isdigit() and 1 <= int(value) <= len(data.nights):
        return int(value)
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
        "qualifiers": data.qualifiers() if (found.qualify_top or found.qualify_per_heat) else [],
        "final_url": tournament_nights.public_path(found.final) if found.final else None,
        "export_formats": EXPORT_FORMATS,
        "admin": access.is_admin(request, found.body),
    }
    return render(request, "cups/cup.html", context)


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
        "tables": cup_tables(data, None),
        "key": found.key_lines,
        "qualifiers": data.qualifiers() if (found.qualify_top or found.qualify_per_heat) else [],
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
