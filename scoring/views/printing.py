"""The sheet on paper: a blank sheet to fill in by hand, and the evening's summary (PDF)."""

from django.views.decorators.http import require_safe

from base.links import absolute_url
from base.printing import pdf_response, qr_svg
from scoring import reading
from scoring.display import sheet_rows
from scoring.views.sheet import with_sheet_access

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
        "players": scored.players,
        "rules": scored.state.rules,
        "variant": scored.state.variant,
        "rows": range(1, rows + 1),
        "row_height": row_height,
        "qr": qr_svg(absolute_url(request, f"/e/{access.sheet.entry_token}/"))
        if access.can_manage
        else "",
    }
    return pdf_response(request, "print/blank_sheet.html", context, f"blatt-{access.sheet.pk}.pdf")


@require_safe
@with_sheet_access
def print_summary(request, access):
    """The evening of this table: games, Bummerl and tally, every deal; the totals in
    the sheet's own reading (``SheetState.shown``: points left for two players)."""
    scored = reading.read_sheet(access.sheet, access.players)
    state = scored.state
    rows = sheet_rows(scored)
    context = {
        "sheet": access.sheet,
        "sheet_name": access.sheet.name_with(scored.players),
        "players": scored.players,
        "state": state,
        "deals": [(row, state.shown(row.line.totals)) for row in rows if row.line],
        "games": [row for row in rows if row.game is not None],
    }
    return pdf_response(request, "print/summary.html", context, f"abend-{access.sheet.pk}.pdf")
