"""The organisers' side of results from the players' phones: each player's link of a
match (QR code, revoke, renew), accepting a reported result at the desk, and the
tournament's choice of check."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from base.errors import gettext_noop
from base.links import absolute_url
from base.printing import qr_svg
from clubs.forms import read_id, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments.models import Pairing, Side
from tournaments.services.reading import load_state
from tournaments.services.reports import (
    accept_report,
    renew_side_link,
    revoke_side_link,
    set_result_check,
)
from tournaments.views.common import pairing_rows, tournament_for

OUT_OF_DATE = gettext_noop("This form is out of date: reload the page.")


def _pairing(t, pairing_id) -> Pairing:
    pairing = (
        Pairing.objects.filter(tournament=t, pk=pairing_id, kind="match")
        .select_related("round", "tournament")
        .first()
    )
    if pairing is None:
        raise Http404
    return pairing


def side_url(request, pairing: Pairing, side: str) -> str:
    """The whole address of a side's link."""
    token = pairing.left_token if side == Side.LEFT else pairing.right_token
    return absolute_url(request, reverse("side_link", kwargs={"token": token}))


@login_required
@require_safe
def side_links(request, slug, tournament_id, pairing_id):
    """Both players' links of a match with their QR codes (organisers, like a table's
    link page)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    pairing = _pairing(t, pairing_id)
    row = pairing_rows(load_state(t), [pairing])[0]
    sides = []
    for side, card in ((Side.LEFT, row.left), (Side.RIGHT, row.right)):
        revoked = getattr(pairing, f"{side}_revoked_at")
        url = side_url(request, pairing, side)
        sides.append(
            {
                "side": side,
                "card": card,
                "revoked": revoked,
                "url": "" if revoked else url,
                "qr": "" if revoked else qr_svg(url),
            }
        )
    return render(
        request,
        "tournaments/side_links.html",
        {"club": t.club, "tournament": t, "row": row, "sides": sides, "access": access},
    )


@login_required
@require_POST
def side_link_change(request, slug, tournament_id, pairing_id, side, action):
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    pairing = _pairing(t, pairing_id)
    if side not in Side.values or action not in ("revoke", "renew"):
        raise Http404
    change = revoke_side_link if action == "revoke" else renew_side_link
    change(pairing, side, access.actor)
    return redirect("side_links", slug=slug, tournament_id=t.pk, pairing_id=pairing.pk)


@login_required
@require_POST
def accept(request, slug, tournament_id, pairing_id):
    """Make a reported result the match's result (organisers, on the desk): the form
    carries the report it showed (``report``) and a one-time key."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    pairing = _pairing(t, pairing_id)
    report = read_id(request.POST, "report")  # the report the desk showed
    try:
        key = uuid.UUID(request.POST.get("key", ""))
    except ValueError:
        key = None
    if key is None or report is None:
        messages.error(request, rule_error_text(RuleError("key", OUT_OF_DATE)))
    else:
        try:
            accept_report(pairing, report, key, access.actor)
        except RuleError as error:
            messages.error(request, rule_error_text(error))
    return redirect(
        reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#reports"
    )


@login_required
@require_POST
def result_check(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        set_result_check(t, request.POST.get("result_check", ""), access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    return redirect(
        reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#reports"
    )
