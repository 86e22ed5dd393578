"""The printed documents of a tournament as PDF: bracket, prizes, draw list, match sheets."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_safe

from base.printing import pdf_response
from clubs.models import Role
from tournaments import printing
from tournaments.models import Format, Kind, Pairing, Round
from tournaments.printing import printout_view
from tournaments.views.common import tournament_for


@login_required
@printout_view
def print_bracket(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    if t.format != Format.CARDS:  # Leben and points events print their standings
        return redirect("print_standings", slug=slug, tournament_id=t.pk)
    heavy = t.cards >= printing.HEAVY_CARDS
    return printing.night_pdf(request, t, "bracket_job", (), f"turnierbaum-{t.pk}.pdf", heavy=heavy)


@login_required
@require_safe
def print_prizes(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    return pdf_response(
        request, "print/prizes.html", printing.prizes_context(t), f"preise-{t.pk}.pdf"
    )


def _drawn_round(t, number):
    round_ = (
        Round.objects.live().filter(tournament=t, number=number, drawn_at__isnull=False).first()
    )
    if round_ is None:
        raise Http404
    return round_


@login_required
@printout_view
def print_draw(request, slug, tournament_id, number):
    t, access = tournament_for(request, slug, tournament_id)
    round_ = _drawn_round(t, number)
    filename = f"auslosung-{t.pk}-{number}.pdf"
    heavy = t.cards >= printing.HEAVY_CARDS
    return printing.night_pdf(request, t, "draw_job", (round_.pk,), filename, heavy=heavy)


@login_required
@printout_view
def print_match_sheets(request, slug, tournament_id, number):
    # The sheets carry the match links: organisers only, like a table's private link.
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    round_ = _drawn_round(t, number)
    filename = f"partieblaetter-{t.pk}-{number}.pdf"
    matches = Pairing.objects.live().filter(round=round_, kind=Kind.MATCH).count()
    heavy = matches > printing.HEAVY_SHEETS
    return printing.night_pdf(request, t, "match_sheets_job", (round_.pk,), filename, heavy=heavy)
