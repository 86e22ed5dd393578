"""The sheet on paper: a blank sheet to fill in by hand (of a table, or of the club for
a table still to open), and the evening's summary (PDF); the summary of a long sheet is
made by the task worker (``HEAVY_DEALS``)."""

import hashlib
import json
from functools import partial
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from base.links import absolute_url
from base.printing import pdf_response, qr_svg, queued_pdf_response
from clubs.access import access_for
from scoring import reading
from scoring import rules as core
from scoring.display import sheet_rows
from scoring.forms import OpenSheetForm
from scoring.models import Deal, Sheet, Variant
from scoring.views.sheet import with_sheet_access

HEAVY_DEALS = 150
"""A sheet with more deal rows than this has its summary made by the task worker
(``base.printing.queued_pdf_response``): laying out takes some 6 ms a deal, so about a
second from here on and 6 s for a sheet of 999 deals, measured on a small laptop."""

BLANK_ROWS = {
    "bauernschnapsen": (24, "8.4mm"),
    "dreierschnapsen": (24, "8.4mm"),
    "schnapsen": (30, "7mm"),
}
"""Rows of a blank paper sheet and the height of one (its border included): one A4 page
with the longest catalogue of the presets, names that wrap in the header and about
2 cm to spare."""


@require_safe
@with_sheet_access
def print_blank(request, access):
    """A blank paper sheet for this table, with the rule set's values; with the QR code
    of the private entry link only for those the link page lets in (organisers)."""
    scored = reading.read_sheet(access.sheet, access.players)
    rows, row_height = BLANK_ROWS[str(scored.state.variant)]
    context = {
        "sheet": access.sheet,
        "sheet_name": access.sheet.name_with(scored.players),
        "game": access.sheet.get_variant_display(),
        "club": access.sheet.club,
        "day": access.sheet.created_at,
        "players": [p.name for p in scored.players],
        "rules": scored.state.rules,
        "variant": scored.state.variant,
        "rows": range(1, rows + 1),
        "row_height": row_height,
        "qr": qr_svg(absolute_url(request, f"/e/{access.sheet.entry_token}/"))
        if access.can_manage
        else "",
    }
    return pdf_response(request, "print/blank_sheet.html", context, f"blatt-{access.sheet.pk}.pdf")


@login_required
@require_safe
def print_club_blank(request, slug, variant):
    """A blank paper sheet of the club for a table still to open (``variant``: the game),
    to lay on the pub's tables: the columns without names, the rules of the game's
    starting rule set, and the QR code of the club's open-table page for that game.
    For every member; the page the code opens lets in those who may open a table and
    sends others to sign in, or says that their role does not allow it."""
    access = access_for(request, slug)
    if variant not in Variant.values:
        raise Http404
    rule_set = OpenSheetForm(club=access.club).starting_rule_set(variant)
    if rule_set is None:
        raise Http404
    rules = rule_set.rules
    rows, row_height = BLANK_ROWS[variant]
    opening = reverse("open_table", kwargs={"slug": access.club.slug})
    url = absolute_url(request, f"{opening}?{urlencode({'variant': variant})}")
    context = {
        "sheet_name": access.club.name,
        "game": Variant(variant).label,
        "club": access.club,
        "day": None,
        "players": [""] * core.Variant(variant).seats,
        "rules": rules,
        "rule_set_name": str(rule_set),
        "variant": variant,
        "rows": range(1, rows + 1),
        "row_height": row_height,
        "qr": qr_svg(url),
        "qr_url": url,
        "opens_table": True,
    }
    return pdf_response(request, "print/blank_sheet.html", context, f"blatt-{variant}.pdf")


@require_http_methods(["GET", "HEAD", "POST"])
@partial(with_sheet_access, version=True, post_writes=False)
def print_summary(request, access):
    """The evening of this table: games, Bummerl and tally, every deal; the totals in
    the sheet's own reading (``SheetState.shown``: points left for two players). Made
    in the request, or for a sheet of more than ``HEAVY_DEALS`` deal rows by the task
    worker (``summary_job``), kept per the sheet's version, title and names; POST is
    the button that begins a failed one again."""
    sheet = access.sheet
    filename = f"abend-{sheet.pk}.pdf"
    if Deal.objects.filter(sheet=sheet).count() > HEAVY_DEALS:
        shown = [access.version, sheet.title, [player.name for player in access.players]]
        state = hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:32]
        job = f"{__name__}.summary_job"
        return queued_pdf_response(request, job, (sheet.pk,), filename, state)
    if request.method == "POST":  # made in the request: nothing to begin again
        return HttpResponseRedirect(request.get_full_path(), status=303)
    template, context = summary(sheet, access.players)
    return pdf_response(request, template, context, filename)


def summary(sheet: Sheet, players=None) -> tuple[str, dict]:
    """The summary's template and context."""
    scored = reading.read_sheet(sheet, players)
    state = scored.state
    rows = sheet_rows(scored)
    context = {
        "sheet": sheet,
        "sheet_name": sheet.name_with(scored.players),
        "players": scored.players,
        "state": state,
        "deals": [(row, state.shown(row.line.totals)) for row in rows if row.line],
        "games": [row for row in rows if row.game is not None],
    }
    return "print/summary.html", context


def summary_job(sheet_id: int, *, base: str) -> tuple[str, dict]:
    """The task worker's summary of the sheet ``sheet_id`` (``base``: unused, the
    summary carries no link)."""
    return summary(Sheet.objects.select_related("club").get(pk=sheet_id))
