"""Round pages and the results entered on them (scorers; organisers also correct)."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Role
from scoring.rules import RuleError
from scoring.rules.errors import gettext_noop
from scoring.views import rule_error_text
from tournaments import services
from tournaments.forms import ResultForm
from tournaments.models import Pairing, Stage
from tournaments.views.common import actor, pairing_rows, tournament_for


@login_required
@require_GET
def round_page(request, slug, tournament_id, number):
    t = tournament_for(request, slug, tournament_id)
    return _round_response(request, t, number)


def _round_response(request, t, number, stale=None):
    """The round page; ``stale``: a result write just refused because the result changed
    meanwhile ({pairing, text, offer}), shown on that match's row (status 409)."""
    state = services.load_state(t)
    round_ = next((r for r in state.rounds if r.number == number and r.drawn_at), None)
    if round_ is None:
        raise Http404
    only_open = request.GET.get("open") == "1"
    player = request.GET.get("player", "")
    rows = pairing_rows(state, state.pairings[round_.pk], only_open, player)
    placement = (
        pairing_rows(state, state.placement, only_open, player) if round_ == state.current else []
    )
    for row in rows + placement:
        row["action"] = reverse(
            "result",
            kwargs={"slug": t.club.slug, "tournament_id": t.pk, "pairing_id": row["pairing"].pk},
        )
        if stale and stale["pairing"] == row["pairing"].pk:
            row["stale"] = stale
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
            "scores": services.SCORES[t.match_bummerl],
            "can_enter": t.role in (Role.OWNER, Role.ORGANISER, Role.SCORER),
            "is_latest": round_ == state.current,
            "new_key": uuid.uuid4,
            "show_link": t.role in (Role.OWNER, Role.ORGANISER),
            "may_correct": t.role in (Role.OWNER, Role.ORGANISER),
            "stale": stale,
        },
        status=409 if stale else 200,
    )


def _seen(request):
    """The state a result form was rendered from: the live result's id, None for "no
    result"; NOT_CHECKED is never taken from a form (a form without it is refused)."""
    value = request.POST.get("seen", "")
    if value == "none":
        return None
    if value.isdigit():
        return int(value)
    raise RuleError("seen", gettext_noop("This form is out of date: reload the page."))


def save_result(request, pairing, actor, may_correct: bool):
    """Record a result; organisers may also correct (``correct=1``) or void (``void=1``).
    Returns (error text or None, stale or None): ``stale`` after a write from an older
    state, with ``offer`` for an organiser: correct the result that stands to his entry
    in one tap."""
    try:
        seen = _seen(request)
        if may_correct and request.POST.get("void") == "1":
            services.void_result(pairing, actor, seen=seen)
            return None, None
        form = ResultForm(request.POST)
        if not form.is_valid():
            return _("Choose the winner and the score."), None
        data = form.cleaned_data
        correct = may_correct and seen is not None and request.POST.get("correct") == "1"
        write = services.correct_result if correct else services.record_result
        write(pairing, data["winner"], data["score"], data["key"], actor, seen=seen)
    except services.StaleResult as error:
        offer = None
        if may_correct and error.live is not None and request.POST.get("void") != "1":
            form = ResultForm(request.POST)
            if form.is_valid():
                offer = {
                    "pairing": pairing.pk,
                    "winner": form.cleaned_data["winner"],
                    "score": form.cleaned_data["score"],
                    "seen": error.live.pk,
                }
        return rule_error_text(error), {"offer": offer}
    except RuleError as error:
        return rule_error_text(error), None
    return None, None


@login_required
@require_POST
def result(request, slug, tournament_id, pairing_id):
    t = tournament_for(request, slug, tournament_id, Role.SCORER)
    pairing = (
        Pairing.objects.filter(tournament=t, pk=pairing_id)
        .select_related("round", "tournament")
        .first()
    )
    if pairing is None:
        raise Http404
    may_correct = t.role in (Role.OWNER, Role.ORGANISER)
    error, stale = save_result(request, pairing, actor(request, t), may_correct)
    # Placement matches are listed on the latest round's page, whatever round made them.
    main = pairing.stage == Stage.MAIN and pairing.round
    number = pairing.round.number if main else services.load_state(t).current.number
    if stale is not None:
        # The race lost: the round page again, the refusal and the stored result on the
        # row where the result was entered (and for organisers the one-tap correction).
        stale.update(pairing=pairing.pk, text=error)
        return _round_response(request, t, number, stale=stale)
    if error:
        messages.error(request, error)
    return redirect(
        reverse("round", kwargs={"slug": slug, "tournament_id": t.pk, "number": number})
        + f"#p{pairing.pk}"
    )
