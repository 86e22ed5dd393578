"""Pages without sign-in: a match's private link (and its score sheet), a side's link
(one player's: report or confirm the result), the page of a match taken back, the
live bracket for the screen in the room, the public "where do I play?" and a player's
personal link for the night."""

import uuid

from django.contrib import messages
from django.db.models import Q
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.htmx import partial_or_page
from base.links import absolute_url
from base.printing import qr_svg
from base.text import name_search
from clubs.access import link_actor, visitor
from clubs.forms import read_id, rule_error_text
from scoring.rules import RuleError
from tournaments import links, venue_lists
from tournaments.categories import overall_prizes
from tournaments.forms import RegisterForm, ResultForm
from tournaments.models import (
    Format,
    Kind,
    Pairing,
    Report,
    Result,
    ResultCheck,
    Round,
    Side,
    Tournament,
)
from tournaments.nights import night_rules
from tournaments.personal import read_personal_token
from tournaments.prizes import still_in
from tournaments.rows import Row, bracket_columns, round_name, rows
from tournaments.screen import screen_pages
from tournaments.services import counts, registrations
from tournaments.services.reading import draw_scores, load_state, match_scores
from tournaments.services.reports import confirm_report, other, report_result
from tournaments.services.sheets import open_match_sheet
from tournaments.views import formats
from tournaments.views.common import name_matches, pairing_rows
from tournaments.views.ranking import audit_context, draw_audit
from tournaments.views.results import save_result


@require_http_methods(["GET", "HEAD", "POST"])
def match_link(request, token):
    """A match's private page (QR code on its score sheet): enter the result, no account.
    Once a result stands it shows it, who entered it and when; only organisers change it
    (on the desk)."""
    try:
        pairing = live_pairing(token)
    except PairingGone as gone:
        return gone_page(request, gone)
    error = None
    if request.method == "POST":
        error, _stale = save_result(request, pairing, link_actor(), False)
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
            "checked": pairing.tournament.result_check == ResultCheck.CONFIRM,
            "scores": match_scores(pairing.tournament),
            "draws": draw_scores(pairing.tournament),  # RULES.md 6: a level score
            "key": uuid.uuid4(),
        },
        status=409 if error and result is not None else 200,
    )


QUERY_LENGTH = 100
"""The most characters of a name search that are read (a longer one is cut)."""


def name_query(request) -> str:
    """The name searched for (``?q=``), stripped and cut to ``QUERY_LENGTH``."""
    return (request.GET.get("q") or "").strip()[:QUERY_LENGTH]


def public_bracket_context(t: Tournament, query: str = "") -> dict:
    """The live bracket: the drawn rounds and the placement matches as columns, the
    prizes won, the withdrawn cards and the players still in (listed up to 200); with a
    name ``query``, ``found``: (column title, row) of every pairing of a player whose
    name holds it (umlauts folded, ``name_matches``), in bracket order."""
    state = load_state(t)
    players = still_in(state.cards[card_id] for card_id in state.in_play())
    columns = bracket_columns(state)
    pattern = name_search(query)
    found = [
        (column.title, row)
        for column in columns
        for row in column.rows
        if query and isinstance(row, Row) and name_matches(row, pattern)
    ]
    return {
        "tournament": t,
        "columns": columns,
        "query": query,
        "found": found,
        "still_in": players if len(players) <= 200 else [],
        "still_in_count": len(players),
        "prizes": overall_prizes(state),
        "withdrawn": sorted(
            (c for c in state.cards.values() if c.withdrawn_round is not None),
            key=lambda c: c.number,
        ),
        **audit_context(state),  # category prizes, draw commitment (RULES.md 5.9, 5.12)
    }


def public_tournament(token: str) -> Tournament:
    """The tournament of a public link (``public_token``); 404 when there is none."""
    t = Tournament.objects.filter(public_token=token).select_related("club").first()
    if t is None:
        raise Http404
    return t


def announcement(t: Tournament) -> dict | None:
    """What the night's public page shows of an announced night (open to the public,
    round 1 not drawn): ``window_open``, ``not_yet`` (before it opens), ``free`` cards,
    the prizes and the ``rules`` in words (``nights.night_rules``); None otherwise.
    Names of registered players are not shown, nor any contact."""
    if not t.registration_public or Round.objects.live().filter(tournament=t).exists():
        return None
    now = timezone.now()
    return {
        "window_open": registrations.window_open(t, now),
        "not_yet": t.registration_opens is not None and now < t.registration_opens,
        "free": counts.free_cards(t),
        "prizes": t.prizes,
        "rules": night_rules(t),
    }


@require_safe
def bracket(request, token):
    """The public live bracket (no sign-in, no private data); htmx polls the partial.
    ``?q=``: a player's matches found by name, listed above the bracket."""
    t = public_tournament(token)
    if t.format != Format.CARDS:  # Leben and points events: a standings board
        return formats.public_board(request, t)
    context = public_bracket_context(t, name_query(request))
    context["night"] = announcement(t)  # an announced night, before round 1 (issue 28)
    if context["night"] is not None:
        context["register_form"] = RegisterForm(initial={"key": uuid.uuid4(), "cards": 1})
    return partial_or_page(request, "tournaments/bracket.html", "live", context)


@require_safe
def public_seats(request, token):
    """The public "where do I play?" under the tournament's public link: every player of an open
    match of the latest round with his card number, table, opponent and the order of
    his matches (``venue_lists.seats``), and the players with a bye (Freilos) this round
    (``venue_lists.byes``); ``?q=`` keeps the players whose name holds it (umlauts folded).
    Names, card numbers and tables only: no private link, no payment."""
    t = public_tournament(token)
    state = load_state(t)
    query = name_query(request)
    pattern = name_search(query)
    seats = [s for s in venue_lists.seats(state) if pattern.search(s.player.name_key)]
    byes = [c for c in venue_lists.byes(state) if pattern.search(c.player.name_key)]
    context = {
        "tournament": t,
        "round_name": venue_lists.current_round_name(state),
        "drawn": bool(venue_lists.current_round_name(state)),
        "seats": seats,
        "byes": byes,
        "query": query,
    }
    return render(request, "tournaments/public_seats.html", context)


def _personal_context(t: Tournament, player_id: int) -> dict:
    """What a player's personal link shows (``tournaments.personal``): his cards, his
    open matches of the latest round in the order he plays them (``venue_lists.seats``:
    table, opponent's name, match), his byes of the night by round, and once every card
    of his is placed his place (``TournamentState.player_places``: first, last, RULES.md
    5.8). 404 when he holds no card of ``t``."""
    state = load_state(t)
    cards = sorted(
        (c for c in state.cards.values() if c.player_id == player_id), key=lambda c: c.number
    )
    if not cards:
        raise Http404
    mine = {c.pk for c in cards}
    byes = []
    for round_ in state.rounds:
        if round_.drawn_at is None:
            continue
        for row in rows(state, state.pairings[round_.pk]):
            if row.kind == Kind.BYE and row.left is not None and row.left.pk in mine:
                name = round_name(round_.number, round_.pot_size, round_.knockout)
                byes.append((name, row.left.number))
    place = state.player_places().get(player_id)
    return {
        "tournament": t,
        "player": cards[0].player,
        "cards": cards,
        "round_name": venue_lists.current_round_name(state),
        "seats": [s for s in venue_lists.seats(state) if s.player.pk == player_id],
        "byes": byes,
        "place": place,
    }


@require_safe
def personal(request, token):
    """A player's personal link for the night (a QR code on the desk's "Personal links"):
    his current matches, byes and, once he is out, his place. It only reads; a wrong
    or tampered token, or one of a tournament or player that is gone, answers 404."""
    ids = read_personal_token(token)
    if ids is None:
        raise Http404
    t = Tournament.objects.filter(pk=ids[0]).select_related("club").first()
    if t is None:
        raise Http404
    return render(request, "tournaments/personal.html", _personal_context(t, ids[1]))


@require_safe
def room_screen(request, token):
    """The live bracket as a room screen (1920×1080, ``tournaments.screen``): pages that
    take turns by themselves, the public link as a QR code in a corner; the page polls
    its partial like the live bracket. Public: no private link on it."""
    t = public_tournament(token)
    state = load_state(t)
    public = absolute_url(request, reverse("bracket", kwargs={"token": t.public_token}))
    context = {
        "tournament": t,
        "pages": screen_pages(state, overall_prizes(state)),
        "qr": qr_svg(public),
        "public": public,
        "next_commitment": draw_audit(state)["next_commitment"],  # RULES.md 5.12
    }
    return partial_or_page(request, "tournaments/screen.html", "screen", context)


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
        sheet = open_match_sheet(pairing, visitor(request))
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect("match_link", token=token)
    return redirect("entry:page", token=sheet.entry_token)


def live_side(token: str) -> tuple[Pairing, str]:
    """The pairing and side ("left"/"right") of a side link; 404 when there is none, it
    was revoked or renewed, or the match links expired; ``PairingGone`` when the
    pairing was undone or voided."""
    pairing = (
        Pairing.objects.filter(
            Q(left_token=token, left_revoked_at__isnull=True)
            | Q(right_token=token, right_revoked_at__isnull=True)
        )
        .select_related("tournament", "round")
        .first()
    )
    if pairing is None or not links.match_link_open(pairing.tournament):
        raise Http404
    if pairing.voided_at is not None or (pairing.round and pairing.round.undone_at):
        raise PairingGone(pairing)
    return pairing, Side.LEFT if pairing.left_token == token else Side.RIGHT


def _side_post(request, pairing: Pairing, side: str) -> tuple[str | None, object]:
    """Report a result, or confirm the other side's report (``report``: the id of the
    report the page showed). Returns (error text or None, what was written)."""
    try:
        if request.POST.get("confirm") == "1":
            form = ResultForm({"key": request.POST.get("key"), "winner": 0, "score": "-"})
            report = read_id(request.POST, "report")  # the report the page showed
            if not form.is_valid() or report is None:
                return _("This form is out of date: reload the page."), None
            return None, confirm_report(pairing, side, report, form.cleaned_data["key"])
        form = ResultForm(request.POST)
        if not form.is_valid():
            return _("Choose the winner and the score."), None
        data = form.cleaned_data
        winner = data["winner"] or None  # 0: the "Draw" button (RULES.md 6)
        return None, report_result(pairing, side, winner, data["score"], data["key"])
    except RuleError as error:
        return rule_error_text(error), None


@require_http_methods(["GET", "HEAD", "POST"])
def side_link(request, token):
    """One player's link to his match (a QR code on the match sheet): report the result,
    or confirm the other player's report. It reaches this match and this side only."""
    try:
        pairing, side = live_side(token)
    except PairingGone as gone:
        return gone_page(request, gone)
    error = None
    if request.method == "POST":
        error, written = _side_post(request, pairing, side)
        if error is None:
            sent = "result" if isinstance(written, Result) else "report"
            return redirect(f"{request.path}?sent={sent}")
    state = load_state(pairing.tournament)
    row = pairing_rows(state, [pairing])[0]
    reports = {
        r.side: r for r in Report.objects.open().filter(pairing=pairing) if row.result is None
    }
    for report in reports.values():
        report.winner = state.cards.get(report.winner_id)  # None: a draw
    me, them = (row.left, row.right) if side == Side.LEFT else (row.right, row.left)
    mine, theirs = reports.get(side), reports.get(other(side))
    return render(
        request,
        "tournaments/side.html",
        {
            "tournament": pairing.tournament,
            "row": row,
            "me": me,
            "them": them,
            "mine": mine,
            "theirs": theirs,
            "differ": bool(
                mine and theirs and (mine.winner_id, mine.score) != (theirs.winner_id, theirs.score)
            ),
            "checked": pairing.tournament.result_check == ResultCheck.CONFIRM,
            "error": error,
            "sent": request.GET.get("sent", ""),
            "scores": match_scores(pairing.tournament),
            "draws": draw_scores(pairing.tournament),  # RULES.md 6: a level score
            "key": uuid.uuid4(),
        },
        status=409 if error else 200,
    )
