"""The whole ranking of a night with its Stechen and lots, the category prize lists, the
opening of a consolation (RULES.md 5.8, 5.9, 5.11), and the public check of its draws
(5.12)."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs.forms import put_rule_error, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments.categories import category_lists, overall_prizes
from tournaments.export import export
from tournaments.forms import ConsolationForm, StechenForm
from tournaments.models import Card, Tournament
from tournaments.services.consolation import open_consolation
from tournaments.services.draws import pending_commitment
from tournaments.services.reading import load_state
from tournaments.services.ties import draw_lots, ranges, record_stechen
from tournaments.verify import check_export
from tournaments.views.common import tournament_for


def _ranking_context(request, t, access, state, stechen_form=None) -> dict:
    names = {c.player_id: c.player.name for c in state.cards.values()}
    best: dict[int, Card] = {}
    for r in state.ranking():
        best.setdefault(r.player, state.cards[r.card])
    shared = [
        {
            "range": r,
            "cards": [state.cards[c] for c in r.cards],
            "order": [state.cards[c] for c in r.order.order if c in state.cards] if r.order else [],
        }
        for r in ranges(state)
    ]
    return {
        "club": t.club,
        "tournament": t,
        "access": access,
        "cards": [(r, state.cards[r.card]) for r in state.ranking()],
        "players": [
            (first, last, names[player], best[player])
            for player, (first, last) in state.player_places().items()
        ],
        "shared": shared,
        "unordered": [s for s in shared if not s["order"]],
        "categories": category_lists(state),
        "prizes": overall_prizes(state),
        "stechen_form": stechen_form,
        "key": uuid.uuid4(),
    }


@login_required
@require_safe
def ranking_page(request, slug, tournament_id):
    """Every card and player with his place (RULES.md 5.8), the shared ranges with their
    Stechen or lots, and the category prize lists (5.9)."""
    t, access = tournament_for(request, slug, tournament_id)
    return render(
        request, "tournaments/ranking.html", _ranking_context(request, t, access, load_state(t))
    )


@login_required
@require_POST
def stechen(request, slug, tournament_id):
    """An organiser records the order a Stechen gave a shared range."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = StechenForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            record_stechen(t, data["first"], data["order"], access.actor, data["key"], data["seen"])
        except RuleError as error:
            put_rule_error(form, error, "order", shown=("order",))
        else:
            messages.success(request, _("The Stechen is recorded."))
            return redirect("tournament_ranking", slug=slug, tournament_id=t.pk)
    context = _ranking_context(request, t, access, load_state(t), stechen_form=form)
    return render(request, "tournaments/ranking.html", context, status=400)


@login_required
@require_POST
def lots(request, slug, tournament_id):
    """An organiser draws lots for every range still shared (a second tap draws none)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        made = draw_lots(t, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        if made:
            messages.success(request, _("Lots are drawn for the shared places."))
    return redirect("tournament_ranking", slug=slug, tournament_id=t.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def consolation(request, slug, tournament_id):
    """An organiser opens a consolation (Trostbewerb) for the losers of rounds 1 to R:
    a tournament of its own on the same desk, linked to this one."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = ConsolationForm(request.POST or None, initial={"rounds": 1})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            made = open_consolation(
                t,
                data["rounds"],
                data["by"],
                data["prizes"],
                _("%(name)s – consolation") % {"name": t.name},
                access.actor,
            )
        except RuleError as error:
            put_rule_error(form, error, None, shown=("rounds", "by"))
        else:
            return redirect("tournament", slug=slug, tournament_id=made.pk)
    return render(
        request,
        "tournaments/consolation.html",
        {"club": t.club, "tournament": t, "form": form},
        status=400 if form.errors else 200,
    )


def audit_context(state) -> dict:
    """What the desk and the live bracket show of the ranking, the categories and the
    draw's audit (RULES.md 5.9, 5.12): the category lists, the next digital draw's
    commitment (round, hash) and the latest digital round with its seed."""
    return {"category_lists": category_lists(state), **draw_audit(state)}


def draw_audit(state) -> dict:
    """The next digital draw's commitment (round, hash) and the latest digital round
    with its seed (RULES.md 5.12): on the desk, the live pages and the room screen."""
    digital = [r for r in state.rounds if r.seed is not None and r.drawn_at is not None]
    return {
        "next_commitment": pending_commitment(state),
        "last_digital": digital[-1] if digital else None,
    }


def _public(token) -> Tournament:
    t = Tournament.objects.filter(public_token=token).select_related("club").first()
    if t is None:
        raise Http404
    return t


@require_safe
def verify_page(request, token):
    """Every draw of the night replayed from its export, and its commitment checked
    (RULES.md 5.12): public, with the live bracket's link."""
    t = _public(token)
    document = export(t)
    checks = check_export(document)
    rounds = {r["number"]: r for r in document["rounds"]}
    return render(
        request,
        "tournaments/verify.html",
        {
            "tournament": t,
            "rows": [(c, rounds.get(c.number) if c.what == "round" else None) for c in checks],
            "failed": sum(not c.ok for c in checks),
        },
    )


@require_safe
def public_export(request, token):
    """The export for anyone with the public link: what the verification replays (no
    private link, no payment is in it)."""
    t = _public(token)
    response = JsonResponse(
        export(t, payments=False), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="preisschnapsen-{t.pk}.json"'
    return response
