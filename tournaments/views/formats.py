"""The pages of the Leben and points formats (RULES.md 5.10, 6) beside the card night's:
buying a life and a player's team at the desk (whose context is ``desk_page``'s), the public
standings board for the screen in the room, and the printed standings."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from base.htmx import partial_or_page
from base.printing import pdf_response, queued_pdf_response
from clubs.forms import read_id, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments import formats, printing
from tournaments.categories import overall_prizes
from tournaments.models import Format, Tournament
from tournaments.money import euro
from tournaments.services import formats as writers
from tournaments.services.reading import load_state
from tournaments.views.common import tournament_for
from tournaments.views.ranking import draw_audit


@login_required
@require_POST
def buy_life(request, slug, tournament_id, card_id):
    """Buy one more life for a Leben player (organisers); ``seen``: the lives bought the
    desk showed, so a second tap buys nothing."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    seen = read_id(request.POST, "seen", min_value=0)
    try:
        # A missing or garbled ``seen`` is refused as an out-of-date page.
        shown = -1 if seen is None else seen
        card, lives_left = writers.buy_life(t, card_id, access.actor, shown)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(
            request,
            ngettext(
                "%(name)s bought a life for %(price)s, paid: %(n)s life left.",
                "%(name)s bought a life for %(price)s, paid: %(n)s lives left.",
                lives_left,
            )
            % {"name": card.player.name, "n": lives_left, "price": euro(t.life_price)},
        )
    return redirect(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#board")


@login_required
@require_POST
def set_team(request, slug, tournament_id, card_id):
    """Name a player's team in a points event (organisers); empty: no team."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        writers.set_team(t, card_id, request.POST.get("team", "")[:200], access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    return redirect(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#board")


def board_context(t: Tournament) -> dict:
    """The public standings board (no private data): the board and the prize list."""
    state = load_state(t)
    board = formats.board(state)
    return {
        "tournament": t,
        "board": board,
        "prizes": overall_prizes(state),
        "rounds": len(state.rounds),
        **draw_audit(state),
    }


def public_board(request, t: Tournament):
    """The live standings board for the screen in the room; htmx polls the partial."""
    return partial_or_page(request, "tournaments/standings.html", "live", board_context(t))


@login_required
@printing.printout_view
def print_standings(request, slug, tournament_id):
    """The standings of a Leben or points night, as PDF; by the task worker for a night
    of ``HEAVY_CARDS`` entries or more (8 s for 1024, measured)."""
    t, access = tournament_for(request, slug, tournament_id)
    if t.format == Format.CARDS:
        raise Http404
    filename = f"wertung-{t.pk}.pdf"
    if t.cards >= printing.HEAVY_CARDS:
        job = f"{__name__}.standings_job"
        return queued_pdf_response(request, job, (t.pk,), filename, printing.night_state(t))
    if request.method == "POST":  # made in the request: nothing to begin again
        return HttpResponseRedirect(request.get_full_path(), status=303)
    return pdf_response(request, "print/standings.html", board_context(t), filename)


def standings_job(tournament_id: int, *, base: str) -> tuple[str, dict]:
    """The standings printout made by the task worker (``print_standings``)."""
    t = Tournament.objects.select_related("club").get(pk=tournament_id)
    return "print/standings.html", board_context(t)
