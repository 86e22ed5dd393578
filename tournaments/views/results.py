"""Round pages and the results entered on them (scorers; organisers also correct)."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from base.errors import gettext_noop
from clubs.forms import read_id, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments.forms import ResultForm
from tournaments.models import Pairing, Stage
from tournaments.rows import Offer, Row, Stale
from tournaments.services.reading import draw_scores, load_state, match_scores
from tournaments.services.result_texts import StaleResult
from tournaments.services.results import correct_result, record_result, void_result
from tournaments.views.common import pairing_rows, tournament_for


@login_required
@require_safe
def round_page(request, slug, tournament_id, number):
    t, access = tournament_for(request, slug, tournament_id)
    return _round_response(request, t, access, number)


def _round_response(request, t, access, number, stale: Stale | None = None):
    """The round page; ``stale``: a result write just refused because the result changed
    meanwhile, shown on that match's row (status 409)."""
    state = load_state(t)
    round_ = next((r for r in state.rounds if r.number == number and r.drawn_at), None)
    if round_ is None:
        raise Http404
    only_open = request.GET.get("open") == "1"
    player = request.GET.get("player", "")
    rows = pairing_rows(state, state.pairings[round_.pk], only_open, player)
    placement = (
        pairing_rows(state, state.placement, only_open, player) if round_ == state.current else []
    )

    def shown(row: Row) -> Row:
        action = reverse(
            "result",
            kwargs={"slug": t.club.slug, "tournament_id": t.pk, "pairing_id": row.pairing.pk},
        )
        mine = stale if stale and stale.pairing == row.pairing.pk else None
        return row.with_(action=action, stale=mine)

    rows = [shown(row) for row in rows]
    placement = [shown(row) for row in placement]
    return render(
        request,
        "tournaments/round.html",
        {
            "club": t.club,
            "tournament": t,
            "round": round_,
            "rows": rows,
            "placement": placement,
            "only_open": only_open,
            "player": player,
            "scores": match_scores(t),
            "draws": draw_scores(t),  # RULES.md 6: a level score
            "access": access,
            "is_latest": round_ == state.current,
            "new_key": uuid.uuid4,
            "stale": stale,
        },
        status=409 if stale else 200,
    )


def _seen(request):
    """The state a result form was rendered from: the live result's id, None for "no
    result"; NOT_CHECKED is never taken from a form (a form without it is refused, as is
    one whose value is no id: abc, 20 digits)."""
    if request.POST.get("seen", "") == "none":
        return None
    seen = read_id(request.POST, "seen")
    if seen is None:
        raise RuleError("seen", gettext_noop("This form is out of date: reload the page."))
    return seen


def save_result(request, pairing, actor, may_correct: bool) -> tuple[str | None, Stale | None]:
    """Record a result; organisers may also correct (``correct=1``) or void (``void=1``).
    Returns (error text or None, ``Stale`` or None): ``Stale`` after a write from an
    older state, with an ``Offer`` for an organiser: correct the result that stands to
    his entry in one tap."""
    try:
        seen = _seen(request)
        if may_correct and request.POST.get("void") == "1":
            void_result(pairing, actor, seen=seen)
            return None, None
        form = ResultForm(request.POST)
        if not form.is_valid():
            return _("Choose the winner and the score."), None
        data = form.cleaned_data
        correct = may_correct and seen is not None and request.POST.get("correct") == "1"
        write = correct_result if correct else record_result
        # Winner 0: the "Draw" button of a points match of even Bummerl (RULES.md 6).
        write(pairing, data["winner"] or None, data["score"], data["key"], actor, seen=seen)
    except StaleResult as error:
        offer = None
        if may_correct and error.live is not None and request.POST.get("void") != "1":
            form = ResultForm(request.POST)
            if form.is_valid():
                data = form.cleaned_data
                offer = Offer(winner=data["winner"], score=data["score"], seen=error.live.pk)
        text = rule_error_text(error)
        return text, Stale(pairing=pairing.pk, text=text, offer=offer)
    except RuleError as error:
        return rule_error_text(error), None
    return None, None


@login_required
@require_POST
def result(request, slug, tournament_id, pairing_id):
    t, access = tournament_for(request, slug, tournament_id, Role.SCORER)
    pairing = (
        Pairing.objects.filter(tournament=t, pk=pairing_id)
        .select_related("round", "tournament")
        .first()
    )
    if pairing is None:
        raise Http404
    error, stale = save_result(request, pairing, access.actor, access.can_manage)
    # Placement matches are listed on the latest round's page, whatever round made them.
    round_ = pairing.round if pairing.stage == Stage.MAIN else None
    if round_ is None:
        round_ = load_state(t).current
    assert round_ is not None  # a placement match comes after a round
    number = round_.number
    if stale is not None:
        # The race lost: the round page again, the refusal and the stored result on the
        # row where the result was entered (and for organisers the one-tap correction).
        return _round_response(request, t, access, number, stale=stale)
    if error:
        messages.error(request, error)
    return redirect(
        reverse("round", kwargs={"slug": slug, "tournament_id": t.pk, "number": number})
        + f"#p{pairing.pk}"
    )
