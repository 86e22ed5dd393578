"""Preisschnapsen pages: the organiser's desk (sales, draws, results), round pages, the
match link, and the public live bracket for the screen in the room."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from bummerl.htmx import partial_or_page
from bummerl.printing import pdf_response
from clubs import audit
from clubs.access import club_for
from clubs.models import Player, Role
from clubs.text import clean_name, german_key, warn_unprintable
from scoring.rules import RuleError
from scoring.rules.errors import gettext_noop
from scoring.views import renew_key, rule_error_text
from tournaments import draw, links, printing, services
from tournaments.forms import PullForm, ResultForm, SellForm, TournamentForm
from tournaments.history import describe_change
from tournaments.models import Pairing, Round, Stage, Tournament


def tournament_for(request, slug, tournament_id, role=Role.MEMBER) -> Tournament:
    """The club's tournament, after the club's access check (404 / 403)."""
    club = club_for(request, slug, role)
    tournament = (
        Tournament.objects.filter(club=club, pk=tournament_id).select_related("club").first()
    )
    if tournament is None:
        raise Http404
    tournament.role = club.role
    return tournament


def _actor(request, t: Tournament | None = None):
    organiser = t is not None and t.role in (Role.OWNER, Role.ORGANISER)
    return services.Actor(request.user, organiser=organiser)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_list(request, slug):
    club = club_for(request, slug)
    form = TournamentForm(request.POST or None)
    if request.method == "POST":
        club = club_for(request, slug, Role.ORGANISER)
        if form.is_valid():
            data = form.cleaned_data
            tournament = services.create_tournament(
                club,
                _actor(request),
                name=data["name"],
                starts_at=data["starts_at"],
                cards=data["cards"],
                max_cards=data["max_cards"],
                match_bummerl=data["match_bummerl"],
                entry_fee=data["entry_fee"],
                one_prize_per_player=data["one_prize_per_player"],
                prizes=data["prizes"],
            )
            warn_unprintable(
                request, tournament.name, *(p["description"] for p in tournament.prizes), name=False
            )
            return redirect("tournament", slug=club.slug, tournament_id=tournament.pk)
    tournaments = Tournament.objects.filter(club=club)
    can_manage = club.role in (Role.OWNER, Role.ORGANISER)
    return render(
        request,
        "tournaments/list.html",
        {"club": club, "form": form, "tournaments": tournaments, "can_manage": can_manage},
    )


def _round_one_refusal(tournament, state) -> tuple[str | None, int | None]:
    """Before round 1: why the draw would be refused (None when it can start) and the
    number of cards to lower to, when lowering helps (RULES.md 5.1)."""
    if state.rounds:
        return None, None
    in_play = len(state.alive())  # sold minus withdrawn, as the draw counts (RULES.md 5.7)
    try:
        draw.check_can_draw_round_one(tournament.cards, in_play)
    except RuleError as error:
        return rule_error_text(error), services.lower_offer(tournament, in_play)
    return None, None


def _desk_context(request, tournament, state, sell_form=None):
    cards = sorted(state.cards.values(), key=lambda c: c.number)
    refusal, lower_to = _round_one_refusal(tournament, state)
    paid = sum(1 for c in cards if c.paid)
    alive = set(state.alive())
    playing = state.still_playing() if state.rounds else alive
    checks = []
    for round_ in state.rounds:
        for row in state.rows(state.pairings[round_.pk]):
            if row["conflict"]:
                checks.append({"round": round_.number, "row": row})
    for row in state.rows(state.placement):
        if row["conflict"]:
            checks.append({"round": state.current.number, "row": row})
    held: dict[int, int] = {}
    for card_id in alive:
        player = state.cards[card_id].player_id
        held[player] = held.get(player, 0) + 1
    return {
        "club": tournament.club,
        "tournament": tournament,
        "state": state,
        "cards": cards,
        "cash": {
            "sold": len(cards),
            "paid": paid,
            "open": len(cards) - paid,
            "paid_amount": paid * tournament.entry_fee,
            "open_amount": (len(cards) - paid) * tournament.entry_fee,
        },
        "alive": alive,
        "playing": playing,
        "checks": checks,
        "players_in": len(held),
        "sell_form": sell_form or SellForm(initial={"key": uuid.uuid4()}),
        "can_manage": tournament.role in (Role.OWNER, Role.ORGANISER),
        "next_pot": state.next_pot_size(),
        "open_matches": state.round_states[-1].open_matches if state.round_states else 0,
        "next_round": len(state.rounds) + 1,
        "in_progress": state.in_progress,
        "draw_refusal": refusal,
        "lower_to": lower_to,
        "awards": state.awards(),
        "bracket_url": reverse("bracket", kwargs={"token": tournament.public_token}),
    }


@login_required
@require_GET
def tournament(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id)
    return render(
        request, "tournaments/desk.html", _desk_context(request, t, services.load_state(t))
    )


@login_required
@require_POST
def sell(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = SellForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            cards = services.sell_cards(
                t, data["name"], data["count"], data["paid"], _actor(request), data["key"]
            )
        except RuleError as error:
            field = error.field if error.field in form.fields and error.field != "key" else None
            form.add_error(field, rule_error_text(error))
            renew_key(form, error)  # sending the form again is a new sale
        else:
            name = cards[0].player.name if cards else ""
            text = ngettext(
                "%(name)s: card %(numbers)s", "%(name)s: cards %(numbers)s", len(cards)
            ) % {
                "name": name,
                "numbers": ", ".join(str(c.number) for c in cards),
            }
            if cards and clean_name(data["name"]) != name:  # a known player, typed otherwise
                text += " " + _("(typed as %(typed)s: a player of the club already)") % {
                    "typed": clean_name(data["name"])
                }
            messages.success(request, text)
            if cards:
                warn_unprintable(request, name)
            return redirect("tournament", slug=slug, tournament_id=t.pk)
    context = _desk_context(request, t, services.load_state(t), sell_form=form)
    return render(request, "tournaments/desk.html", context)


def _confirm(request, t, question, details, yes, back, fields=()):
    """A confirmation step that works without JavaScript: the page asks ``question`` and
    posts the same action again with ``confirm=1`` (and ``fields``)."""
    return render(
        request,
        "tournaments/confirm.html",
        {
            "club": t.club,
            "tournament": t,
            "question": question,
            "details": details,
            "yes": yes,
            "back": back,
            "action": request.path,
            "fields": list(fields),
        },
    )


def _confirmed(request) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "1"


@login_required
@require_http_methods(["GET", "POST"])
def mark_paid(request, slug, tournament_id, card_id):
    """Mark a card paid (one tap: the money is taken) or not paid (the money is given back,
    or paid was tapped by mistake): that one asks first, since it changes the cash."""
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    card = t.card_set.filter(pk=card_id).select_related("player").first()
    if card is None:
        raise Http404
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#cards"
    paid = (request.POST if request.method == "POST" else request.GET).get("paid") == "1"
    if not paid and card.paid and not _confirmed(request):
        return _confirm(
            request,
            t,
            _("Card %(number)s of %(name)s: not paid?")
            % {"number": card.number, "name": card.player.name},
            [
                _("The card is then listed as not paid and € %(fee)s as open in the cash.")
                % {"fee": number_format(t.entry_fee, 2)}
            ],
            _("Yes, not paid"),
            desk,
            [("paid", "0")],
        )
    if request.method == "POST":
        services.set_paid(card, paid, _actor(request))
    return redirect(desk)


@login_required
@require_http_methods(["GET", "POST"])
def withdraw(request, slug, tournament_id, card_id):
    """Withdraw a card whose holder went home, or take that back (RULES.md 5.7): a page
    that says what will happen, and its confirmation (organisers)."""
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    state = services.load_state(t)
    card = state.cards.get(card_id)
    if card is None:
        raise Http404
    undo = (request.POST if request.method == "POST" else request.GET).get("undo") == "1"
    error = None
    if request.method == "POST":
        try:
            if undo:
                services.undo_withdrawal(t, card_id, _actor(request, t))
                messages.success(request, _("The withdrawal is undone."))
            else:
                services.withdraw_card(t, card_id, _actor(request, t))
                messages.success(
                    request,
                    _("Card %(card)s (%(name)s) is withdrawn.")
                    % {"card": card.number, "name": card.player.name},
                )
        except RuleError as failure:
            error = rule_error_text(failure)
        else:
            return redirect(
                reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#cards"
            )
    pairings = [*(state.pairings[state.current.pk] if state.current else []), *state.placement]
    walkovers = [
        row
        for row in state.rows(pairings)
        if card_id in (row["pairing"].left_id, row["pairing"].right_id)
        and row["kind"] == "match"
        and row["result"] is None
    ]
    return render(
        request,
        "tournaments/withdraw.html",
        {
            "club": t.club,
            "tournament": t,
            "card": card,
            "undo": undo,
            "walkovers": walkovers,
            "error": error,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def lower(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        cards = services.lower_cards(t, _actor(request))
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(request, _("Now %(n)s cards are laid out.") % {"n": cards})
    return redirect("tournament", slug=slug, tournament_id=t.pk)


@login_required
@require_POST
def draw_next(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    shown = request.POST.get("round", "")
    expected = int(shown) if shown.isdigit() else None  # the round the desk offered
    try:
        if request.POST.get("mode") == "physical":
            services.start_physical_draw(t, _actor(request), expected)
            return redirect("physical_draw", slug=slug, tournament_id=t.pk)
        round_ = services.draw_round(t, _actor(request, t), expected=expected)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect("tournament", slug=slug, tournament_id=t.pk)
    return redirect("round", slug=slug, tournament_id=t.pk, number=round_.number)


@login_required
@require_http_methods(["GET", "POST"])
def physical_draw(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    state = services.load_state(t)
    round_ = state.in_progress
    if round_ is None:
        if request.method == "POST":  # typed on a page from before the draw was complete
            messages.error(request, _("The draw is complete already: this pull was not recorded."))
        return redirect("tournament", slug=slug, tournament_id=t.pk)
    form = PullForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.add_pull(
                t,
                round_.pk,
                form.cleaned_data["number"],
                _actor(request),
                seen=form.cleaned_data["seen"],
            )
        except RuleError as error:
            form.add_error("number", rule_error_text(error))
            state = services.load_state(t)  # the page shows the turn as it is now
            round_ = state.in_progress
            if round_ is None:
                return redirect("tournament", slug=slug, tournament_id=t.pk)
        else:
            state = services.load_state(t)
            if state.in_progress is None:
                return redirect("round", slug=slug, tournament_id=t.pk, number=round_.number)
            return redirect("physical_draw", slug=slug, tournament_id=t.pk)
    session = services.physical_session(state, round_)
    turn = session.next_turn()
    latest = services.latest_pull(round_)
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
    }
    return render(request, "tournaments/physical.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def undo(request, slug, tournament_id, round_id):
    """Undo a draw, after a confirmation step (GET, or a POST without ``confirm``)."""
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    if not _confirmed(request):
        round_ = Round.objects.filter(tournament=t, pk=round_id, undone_at__isnull=True).first()
        if round_ is None:
            raise Http404
        return _confirm(
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
        services.undo_draw(t, round_id, _actor(request))
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(request, _("The draw is undone; it stays in the history."))
    return redirect(desk)


@login_required
@require_http_methods(["GET", "POST"])
def undo_pull(request, slug, tournament_id, round_id):
    """Undo the last pull of the latest draw at the venue, after a confirmation step;
    a draw that pull completed is open again (``services.undo_last_pull``)."""
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    back = reverse("physical_draw", kwargs={"slug": slug, "tournament_id": t.pk})
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    asked = request.POST.get("pull", "")
    if not _confirmed(request) or not asked.isdigit():
        state = services.load_state(t)
        round_ = state.current
        if round_ is None or round_.pk != round_id or round_.seed is not None:
            return redirect(desk)
        last = services.latest_pull(round_)
        if last is None:
            return redirect(back)
        reopen = (
            [_("This pull completed the draw: its pairings are undone and the draw is open again.")]
            if round_.drawn_at
            else []
        )
        card = last.card
        pot = _("left pot") if last.pot == "left" else _("right pot")
        return _confirm(
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
        services.undo_last_pull(t, round_id, _actor(request), pull=int(asked))
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect(back)
    messages.success(request, _("The last pull is undone: enter it again."))
    return redirect(back)


def _pairing_rows(state, pairings, only_open=False, player_query=""):
    """``state.rows`` filtered: open matches only, or a player's name (umlauts folded)."""
    query = german_key(player_query)
    rows = []
    for row in state.rows(pairings):
        names = " ".join(c.player.name_key for c in (row["left"], row["right"]) if c)
        if query and query not in names:
            continue
        if only_open and (row["kind"] != "match" or row["result"] is not None):
            continue
        rows.append(row)
    return rows


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
    rows = _pairing_rows(state, state.pairings[round_.pk], only_open, player)
    placement = (
        _pairing_rows(state, state.placement, only_open, player) if round_ == state.current else []
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


def _save_result(request, pairing, actor, may_correct: bool):
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
    error, stale = _save_result(request, pairing, _actor(request, t), may_correct)
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


@require_http_methods(["GET", "POST"])
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
        error, _stale = _save_result(request, pairing, services.Actor(None, via_link=True), False)
        if error is None:
            page = reverse("match_link", kwargs={"token": token})
            return redirect(f"{page}?sent={request.POST.get('key', '')}")
    state = services.load_state(pairing.tournament)
    row = _pairing_rows(state, [pairing])[0]
    row["action"] = request.path
    result = row["result"]
    return render(
        request,
        "tournaments/match.html",
        {
            "tournament": pairing.tournament,
            "row": row,
            "error": error,
            "thanks": result is not None and str(result.key) == request.GET.get("sent"),
            "scores": services.SCORES[pairing.tournament.match_bummerl],
            "key": uuid.uuid4(),
        },
        status=409 if error and result is not None else 200,
    )


@login_required
@require_GET
def export(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id)
    response = JsonResponse(
        services.export(t), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="preisschnapsen-{t.pk}.json"'
    return response


def _bracket_context(t: Tournament):
    state = services.load_state(t)
    columns = []
    for round_, round_state in zip(state.rounds, state.round_states, strict=True):
        if round_.drawn_at is None:
            continue
        columns.append(
            {
                "round": round_,
                "rows": _pairing_rows(state, state.pairings[round_.pk]),
                "open": round_state.open_matches,
            }
        )
    holdings: dict[int, list] = {}
    for card_id in state.alive():
        card = state.cards[card_id]
        holdings.setdefault(card.player_id, []).append(card)
    still_in = sorted(
        ({"player": cards[0].player, "cards": len(cards)} for cards in holdings.values()),
        key=lambda item: (-item["cards"], item["player"].name_key),
    )
    return {
        "tournament": t,
        "columns": columns,
        "placement": _pairing_rows(state, state.placement),
        "still_in": still_in if len(still_in) <= 200 else [],
        "still_in_count": len(still_in),
        "awards": [(a, state.cards[a.card]) for a in state.awards()],
        "withdrawn": sorted(
            (c for c in state.cards.values() if c.withdrawn_round is not None),
            key=lambda c: c.number,
        ),
    }


@require_GET
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
        sheet = services.open_match_sheet(
            pairing, services.Actor(request.user if request.user.is_authenticated else None)
        )
    except RuleError as error:
        messages.error(request, rule_error_text(error))
        return redirect("match_link", token=token)
    return redirect("entry:page", token=sheet.entry_token)


@login_required
@require_GET
def print_bracket(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id)
    return pdf_response(
        "print/bracket.html", printing.bracket_context(t), f"turnierbaum-{t.pk}.pdf"
    )


@login_required
@require_GET
def print_prizes(request, slug, tournament_id):
    t = tournament_for(request, slug, tournament_id)
    return pdf_response("print/prizes.html", printing.prizes_context(t), f"preise-{t.pk}.pdf")


def _drawn_round(t, number):
    round_ = Round.objects.filter(
        tournament=t, number=number, undone_at__isnull=True, drawn_at__isnull=False
    ).first()
    if round_ is None:
        raise Http404
    return round_


@login_required
@require_GET
def print_draw(request, slug, tournament_id, number):
    t = tournament_for(request, slug, tournament_id)
    round_ = _drawn_round(t, number)
    return pdf_response(
        "print/draw.html", printing.draw_context(t, round_), f"auslosung-{t.pk}-{number}.pdf"
    )


@login_required
@require_GET
def print_match_sheets(request, slug, tournament_id, number):
    # The sheets carry the match links: organisers only, like a table's private link.
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    round_ = _drawn_round(t, number)
    context = printing.match_sheets_context(t, round_, request.build_absolute_uri)
    return pdf_response("print/match_sheets.html", context, f"partieblaetter-{t.pk}-{number}.pdf")


@login_required
@require_GET
def history(request, slug, tournament_id):
    """Who changed what in this tournament, and when (organisers)."""
    t = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    entries = audit.history("tournament", t.pk)[:2000]
    rows = audit.history_rows(entries, describe_change(services.load_state(t)))
    back = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk})
    return render(request, "audit.html", {"title": t.name, "rows": rows, "back": back})
