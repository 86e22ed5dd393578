"""Pages without sign-in: a match's private link (and its score sheet), the page of a
match taken back, and the live bracket for the screen in the room."""

import uuid

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from bummerl.htmx import partial_or_page
from clubs.forms import rule_error_text
from scoring.rules import RuleError
from tournaments import links
from tournaments.models import Pairing, Tournament
from tournaments.prizes import still_in
from tournaments.rows import bracket_columns
from tournaments.services.reading import SCORES, load_state
from tournaments.services.sheets import Actor, open_match_sheet
from tournaments.views.common import pairing_rows
from tournaments.views.ranking import audit_context
from tournaments.views.results import save_result


@require_http_methods(["GET", "HEAD", "POST"])
def match_link(request, token):
    """A match's private page (QR code on its score sheet): enter the result, no account.
    Once a result stands it shows it, who entered it and when; only organisers change it
    (on the desk)."""
    try:
        pairing = live_pairing(token)
    except PairingGone as error:
        return gone_page(request, error)
    error = None
    if request.method == "POST":
        error, _stale = save_result(request, pairing, Actor(None, via_link=True), False)
        if error is None:
            page = reverse("match_link", kwargs={"token": token})
            return redirect(f"{page}?sent={request.POST.get('key', '')}")
    state = load_state(pairing.tournament)
    row = pairing_rows(state, [pairing])[0].with_(action=request.path)
    result = row.result
    return render(
        request,
        "tournaments/match.html",
        {
            "tournament": pairing.tournament,
            "row": row,
            "error": error,
            "thanks": result is not None and str(result.key) == request.GET.get("sent"),
            "scores": SCORES[pairing.tournament.match_bummerl],
            "key": uuid.uuid4(),
        },
        status=409 if error and result is not None else 200,
    )


def _bracket_context(t: Tournament) -> dict:
    """The live bracket: the drawn rounds and the placement matches as columns, the
    prizes won, the withdrawn cards and the players still in (listed up to 200)."""
    state = load_state(t)
    players = still_in(state.cards[card_id] for card_id in state.in_play())
    return {
        "tournament": t,
        "columns": bracket_columns(state),
        "still_in": players if len(players) <= 200 else [],
        "still_in_count": len(players),
        "awards": [(a, state.cards[a.card]) for a in state.awards()],
        "withdrawn": sorted(
            (c for c in state.cards.values() if c.withdrawn_round is not None),
            key=lambda c: c.number,
        ),
        **audit_context(state),  # category prizes, draw commitment (RULES.md 5.9, 5.12)
    }


@require_safe
def bracket(request, token):
    """The public live bracket (no sign-in, no private data); htmx polls the partial."""
    t = Tournament.objects.filter(public_token=token).select_related("club").first()
    if t is None:
        raise Http404
    return partial_or_page(request, "tournaments/bracket.html", "live", _bracket_context(t))


class PairingGone(Exception):
    """A match link whose pairing was taken back (its draw undone, or the placement match
    made again): the holder is told so (410), not shown a bare "not found"."""

    def __init__(self, pairing: Pairing):
        self.pairing = pairing


def gone_page(request, error: PairingGone):
    context = {"tournament": error.pairing.tournament}
    return render(request, "tournaments/gone.html", context, status=410)


def live_pairing(token: str) -> Pairing:
    """The pairing of a match link; 404 when there is none or when the link expired
    (``tournaments.links``: some hours after the night's last event); ``PairingGone``
    when it was undone or voided."""
    pairing = Pairing.objects.filter(token=token).select_related("tournament", "round").first()
    if pairing is None or not links.match_link_open(pairing.tournament):
        raise Http404
    if pairing.voided_at is not None or (pairing.round and pairing.round.undone_at):
        raise PairingGone(pairing)
    return pairing


@require_POST
def match_sheet(request, token):
    """Play the match on a two-player score sheet that decides it by itself."""
    try:
        pairing = live_pairing(token)
    except PairingGone as error:
        return gone_page(request, error)
    try:
        sheet = open_match_sheet(
            pairing, Actor(request.user if request.user.is_authenticated else None)
        )
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect("match_link", token=token)
    return redirect("entry:page", token=sheet.entry_token)
