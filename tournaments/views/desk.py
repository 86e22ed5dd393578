"""The organiser's desk: the tournament list, card sales, payments and the cash report,
withdrawals, lowering the number of cards, the tables, where each player plays and the
players' personal links."""

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from base.links import absolute_url
from base.printing import qr_svg
from base.text import clean_name, warn_unprintable
from clubs.access import access_for
from clubs.forms import put_rule_error, read_ids, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments import printing, venue_lists
from tournaments.forms import SellForm, TablesForm, TournamentForm
from tournaments.models import Card, Kind, ResultCheck, Tournament
from tournaments.money import euro
from tournaments.printing import printout_view
from tournaments.rows import rows
from tournaments.services.cards import (
    cancel_sale,
    create_tournament,
    pay_cards,
    sell_cards,
    set_paid,
)
from tournaments.services.layout import lower_cards, set_tables
from tournaments.services.reading import CARD_COUNTS, load_state
from tournaments.services.withdrawals import undo_withdrawal, withdraw_card
from tournaments.views.common import confirm, confirmed, tournament_for
from tournaments.views.desk_page import desk_context


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def tournament_list(request, slug):
    access = access_for(request, slug, Role.ORGANISER if request.method == "POST" else Role.MEMBER)
    club = access.club
    form = TournamentForm(request.POST or None, club=club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        tournament = create_tournament(
            club,
            access.actor,
            name=data["name"],
            starts_at=data["starts_at"],
            venue=data["venue"],
            rule_set=data["rule_set"],
            max_cards=data["max_cards"],
            match_bummerl=data["match_bummerl"],
            entry_fee=data["entry_fee"],
            one_prize_per_player=data["one_prize_per_player"],
            prizes=data["prizes"],
            result_check=data["result_check"] or ResultCheck.SINGLE,
            **form.format_fields(),  # cards, and the format's settings (RULES.md 5.10, 6)
            ranking_ties=data["ranking_ties"],
            category_prizes=data["category_prizes"],
            category_with_overall=data["category_with_overall"],
        )
        warn_unprintable(
            request, tournament.name, *(p["description"] for p in tournament.prizes), name=False
        )
        return redirect("tournament", slug=club.slug, tournament_id=tournament.pk)
    tournaments = Tournament.objects.filter(club=club)
    return render(
        request,
        "tournaments/list.html",
        {"club": club, "form": form, "tournaments": tournaments, "access": access},
    )


def _desk(tournament, access, **forms) -> dict:
    """The desk page's context (``desk_page.desk_context``), read afresh."""
    return desk_context(tournament, access, load_state(tournament), **forms).as_context()


@login_required
@require_safe
def tournament(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    return render(request, "tournaments/desk.html", _desk(t, access))


@login_required
@require_POST
def sell(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = SellForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            cards = sell_cards(
                t, data["name"], data["count"], access.actor, data["key"], paid=data["paid"]
            )
        except RuleError as error:
            put_rule_error(form, error, shown=form.fields)  # a new key: sending again is a new sale
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
    context = _desk(t, access, sell_form=form)
    return render(request, "tournaments/desk.html", context)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def mark_paid(request, slug, tournament_id, card_id):
    """Mark a card paid (one tap: the money is taken) or not paid (the money is given back,
    or paid was tapped by mistake): that one asks first, since it changes the cash."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    card = t.card_set.filter(pk=card_id).select_related("player").first()
    if card is None:
        raise Http404
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#cards"
    paid = (request.POST if request.method == "POST" else request.GET).get("paid") == "1"
    if not paid and card.paid and not confirmed(request):
        return confirm(
            request,
            t,
            _("Card %(number)s of %(name)s: not paid?")
            % {"number": card.number, "name": card.player.name},
            [
                _("The card is then listed as not paid and %(fee)s as open in the cash.")
                % {"fee": euro(t.entry_fee)}
            ],
            _("Yes, not paid"),
            desk,
            [("paid", "0")],
        )
    if request.method == "POST":
        set_paid(card, access.actor, paid=paid)
    return redirect(desk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def cancel(request, slug, tournament_id, card_id):
    """Cancel a card's sale until it is drawn (RULES.md 5.1): a page that says what will
    happen, and its confirmation (organisers). A second send finds the card gone and
    goes back to the desk, saying so."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    desk = reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#cards"
    card = Card.objects.filter(tournament=t, pk=card_id).select_related("player").first()
    if card is None:
        if request.method == "POST":
            messages.info(request, _("This sale is cancelled already."))
            return redirect(desk)
        raise Http404
    error = None
    if request.method == "POST":
        try:
            cancel_sale(t, card_id, access.actor)
        except RuleError as failure:
            error = rule_error_text(failure)
        else:
            messages.success(
                request,
                _("The sale of card %(card)s (%(name)s) is cancelled.")
                % {"card": card.number, "name": card.player.name},
            )
            return redirect(desk)
    return render(
        request,
        "tournaments/cancel_sale.html",
        {"club": t.club, "tournament": t, "card": card, "error": error},
        status=400 if error else 200,
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def withdraw(request, slug, tournament_id, card_id):
    """Withdraw a card whose holder went home, or take that back (RULES.md 5.7): a page
    that says what will happen, and its confirmation (organisers)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    state = load_state(t)
    card = state.cards.get(card_id)
    if card is None:
        raise Http404
    undo = (request.POST if request.method == "POST" else request.GET).get("undo") == "1"
    error = None
    if request.method == "POST":
        try:
            if undo:
                undo_withdrawal(t, card_id, access.actor)
                messages.success(request, _("The withdrawal is undone."))
            else:
                withdraw_card(t, card_id, access.actor)
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
        for row in rows(state, pairings)
        if card_id in (row.pairing.left_id, row.pairing.right_id)
        and row.kind == Kind.MATCH
        and row.result is None
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
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        cards = lower_cards(t, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(request, _("Now %(n)s cards are laid out.") % {"n": cards})
    return redirect("tournament", slug=slug, tournament_id=t.pk)


@login_required
@require_POST
def pay_player(request, slug, tournament_id):
    """Mark the cards the desk showed unpaid for one player paid in one tap (``card``:
    their ids; a value that is no id is passed over); sent twice, it records once
    (``pay_cards``). More ids than a night has cards: 400, nothing paid."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    ids = read_ids(request.POST, "card", most=max(CARD_COUNTS))
    if ids is None:
        return HttpResponseBadRequest("more cards than a night has")
    numbers = pay_cards(t, ids, access.actor)
    if numbers:
        messages.success(
            request,
            ngettext("Card %(numbers)s is paid.", "Cards %(numbers)s are paid.", len(numbers))
            % {"numbers": ", ".join(str(n) for n in numbers)},
        )
    return redirect(reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#cash")


@login_required
@require_POST
def tables(request, slug, tournament_id):
    """Set how many tables the night is played at (organisers); 0 turns table numbers off."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = TablesForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            set_tables(t, data["tables"], access.actor, seen=data["seen"])
        except RuleError as error:
            put_rule_error(form, error, "tables")
        else:
            return redirect(
                reverse("tournament", kwargs={"slug": slug, "tournament_id": t.pk}) + "#tables"
            )
    t.refresh_from_db()
    context = _desk(t, access, tables_form=form)
    return render(request, "tournaments/desk.html", context, status=400)


@login_required
@printout_view
def print_cash(request, slug, tournament_id):
    """The cash report as PDF: takings, unpaid cards by player, prizes (organisers)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    heavy = t.cards >= printing.HEAVY_CARDS
    return printing.night_pdf(request, t, "cash_job", (), f"kassa-{t.pk}.pdf", heavy=heavy)


@login_required
@require_safe
def seats(request, slug, tournament_id):
    """Where do I play: every player of an open match of the latest round, by name."""
    t, access = tournament_for(request, slug, tournament_id)
    context = venue_lists.seats_context(t) | {"club": t.club, "access": access}
    return render(request, "tournaments/seats.html", context)


@login_required
@printout_view
def print_seats(request, slug, tournament_id):
    t, access = tournament_for(request, slug, tournament_id)
    heavy = t.cards >= printing.HEAVY_CARDS
    return printing.night_pdf(request, t, "seats_job", (), f"tische-{t.pk}.pdf", heavy=heavy)


@login_required
@require_safe
def personal_links(request, slug, tournament_id):
    """Each player's personal link for the night (``tournaments.personal``) as a QR code,
    one small card per player, to print and hand out (organisers only: the links are
    private)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    links = venue_lists.personal_links(load_state(t), partial(absolute_url, request), qr_svg)
    context = {"club": t.club, "tournament": t, "access": access, "links": links}
    return render(request, "tournaments/personal_links.html", context)


@login_required
@printout_view
def print_personal_links(request, slug, tournament_id):
    """The personal links as PDF: A4, small cards to cut (organisers only)."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    heavy = t.cards >= printing.HEAVY_CARDS
    filename = f"links-{t.pk}.pdf"
    return printing.night_pdf(request, t, "personal_links_job", (), filename, heavy=heavy)
