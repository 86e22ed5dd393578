"""A tournament's data as JSON, and its history page."""

from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from clubs import audit
from clubs.models import Role
from tournaments.export import export as tournament_json
from tournaments.history import describe_change
from tournaments.services.reading import load_state
from tournaments.views.common import tournament_for


@login_required
@require_safe
def export(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    response = JsonResponse(
        tournament_json(t), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="preisschnapsen-{t.pk}.json"'
    return response


@login_required
@require_safe
def history(request, slug, tournament_id):
    """Who changed what in this tournament, and when (organisers)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    entries = audit.history("tournament", t.pk)[:2000]
    rows = audit.history_rows(entries, describe_change(load_state(t)))
    back = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    return render(request, "audit.html", {"title": t.name, "rows": rows, "back": back})
