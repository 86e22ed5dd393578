"""Drawing a round: digitally, or typed in pull by pull at the venue, and undoing either."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.forms import put_rule_error, read_id, rule_error_text
from clubs.models import Player, Role
from scoring.rules import RuleError
from tournaments import printing, venue_lists
from tournaments.forms import PullForm
from tournaments.models import Round
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.physical_draws import add_pull, start_physical_draw, undo_last_pull
from tournaments.services.reading import latest_pull, load_state, physical_session
from tournaments.views.common import confirm, confirmed, tournament_for


@login_required
@require_POST
def draw_next(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    expected = read_id(request.POST, "round")  # the round the desk offered (None: not said)
    try:
        if request.POST.get("mode") == "physical":
            start_physical_draw(t, access.actor, expected)
            return redirect("physical_draw", slug=slug, tournament_id=t.pk)
        sealed = request.POST.get("commitment") or None  # shown on the desk (RULES.md 5.12)
        round_ = draw_round(t, access.actor, expected=expected, commitment=sealed)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect("tournament", slug=slug, tournament_id=t.pk)
    return redirect("round", slug=slug, tournament_id=t.pk, number=round_.number)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def physical_draw(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    state = load_state(t)
    round_ = state.in_progress
    if round_ is None:
        if request.method == "POST":  # typed on a page from before the draw was complete
            messages.error(request, _("The draw is complete already: this pull was not recorded."))
        return redirect("tournament", slug=slug, tournament_id=t.pk)
    form = PullForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            add_pull(
                t,
                round_.pk,
                form.cleaned_data["number"],
                access.actor,
                seen=form.cleaned_data["seen"],
            )
        except RuleError as error:
            put_rule_error(form, error, "number")
            state = load_state(t)  # the page shows the turn as it is now
            round_ = state.in_progress
            if round_ is None:
                return redirect("tournament", slug=slug, tournament_id=t.pk)
        else:
            state = load_state(t)
            if state.in_progress is None:
                return redirect("round", slug=slug, tournament_id=t.pk, number=round_.number)
            return redirect("physical_draw", slug=slug, tournament_id=t.pk)
    session = physical_session(state, round_)
    turn = session.next_turn()
    latest = latest_pull(round_)
    calls = venue_lists.call_list(state, round_)
    waiting = [c for c in calls if not c.done and not c.now]
    context = {
        "club": t.club,
        "tournament": t,
        "round": round_,
        "form": form,
        "seen": latest.pk if latest else 0,
        "turn": turn,
        "turn_player": Player.objects.filter(pk=turn[0]).first() if turn else None,
        "turn_card": state.cards[turn[1]] if turn else None,
        "pulls": [(p, state.cards[p.card]) for p in session.pulls],
        "allowed": session.allowed() if turn else [],
        "calls": calls,
        "then": waiting[0] if waiting else None,
        "unpaid": printing.cash_context(t, state)["unpaid"],
    }
    return render(request, "tournaments/physical.html", context)


@login_required
@printing.printout_view
def print_calls(request, slug, tournament_id):
    """The call list of the draw being typed in at the venue, as PDF (organisers); by
    the task worker for a night of ``HEAVY_CARDS`` cards or more."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    round_ = load_state(t).in_progress
    if round_ is None:
        raise Http404
    filename = f"aufruf-{t.pk}-{round_.number}.pdf"
    heavy = t.cards >= printing.HEAVY_CARDS
    return printing.night_pdf(request, t, "calls_job", (round_.pk,), filename, heavy=heavy)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def undo(request, slug, tournament_id, round_id):
    """Undo a draw, after a confirmation step (GET, or a POST without ``confirm``)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    if not confirmed(request):
        round_ = Round.objects.live().filter(tournament=t, pk=round_id).first()
        if round_ is None:
            raise Http404
        return confirm(
            request,
            t,
            _("Undo the draw of round %(n)s?") % {"n": round_.number},
            [
                _(
                    "Its pairings and match links stop counting; the draw stays in the "
                    "history, marked undone. Round %(n)s can then be drawn again."
                )
                % {"n": round_.number}
            ],
            _("Yes, undo the draw"),
            desk,
        )
    try:
        undo_draw(t, round_id, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(request, _("The draw is undone; it stays in the history."))
    return redirect(desk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def undo_pull(request, slug, tournament_id, round_id):
    """Undo the last pull of the latest draw at the venue, after a confirmation step;
    a draw that pull completed is open again (``undo_last_pull``)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    back = reverse("physical_draw", kwargs={"slug": slug, "tournament_id": t.pk})
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    asked = read_id(request.POST, "pull")  # the pull the confirmation named
    if not confirmed(request) or asked is None:
        state = load_state(t)
        round_ = state.current
        if round_ is None or round_.pk != round_id or round_.seed is not None:
            return redirect(desk)
        last = latest_pull(round_)
        if last is None:
            return redirect(back)
        reopen = (
            [_("This pull completed the draw: its pairings are undone and the draw is open again.")]
            if round_.drawn_at
            else []
        )
        card = last.card
        pot = _("left pot") if last.pot == "left" else _("right pot")
        return confirm(
            request,
            t,
            _("Undo pull %(index)s?") % {"index": last.index + 1},
            [
                _("%(name)s (card %(card)s): %(pot)s %(number)s.")
                % {
                    "name": card.player.name,
                    "card": card.number,
                    "pot": pot,
                    "number": last.number,
                },
                _(
                    "The number goes back into the pot and the same card pulls again; "
                    "the undone pull stays in the history."
                ),
                *reopen,
            ],
            _("Yes, undo the pull"),
            back,
            [("pull", last.pk)],  # the pull asked about: a second tap undoes no other
        )
    try:
        undo_last_pull(t, round_id, access.actor, pull=asked)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect(back)
    messages.success(request, _("The last pull is undone: enter it again."))
    return redirect(back)
