"""An announced night (issue 28): its registration window and terms (organisers), the
public registration form under the night's public link, a registration's private link
(see, change, cancel, answer an offer, the bank transfer) and the desk at the door:
confirm, refuse, check in, release (``services.signup``, ``services.waiting_list``,
``services.checkin``)."""

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from base import limits
from base.clientip import limit_address
from base.errors import gettext_noop
from base.links import absolute_url
from base.text import german_key, name_search
from clubs.audit import Actor
from clubs.forms import put_rule_error, rule_error_text
from clubs.models import Role
from scoring.rules import RuleError
from tournaments.forms import (
    RegisterForm,
    RegistrationCardsForm,
    RegistrationTermsForm,
    RegistrationWindowForm,
)
from tournaments.models import HOLDING_REGISTRATION, Registration, RegistrationStatus
from tournaments.services import checkin, counts, signup, waiting_list
from tournaments.services import registrations as service
from tournaments.services.counts import waiting_position
from tournaments.views.common import tournament_for
from tournaments.views.public import announcement, name_query, public_tournament


def _may_post(request) -> bool:
    """Count one registration sent from the visitor's address (``limit_address``: an
    IPv6 address by its /64); False past ``REGISTRATION_POSTS`` in the
    ``REGISTRATION_WINDOW`` seconds since the first of the window (``base.limits``)."""
    return limits.take(
        f"registrations:address:{limit_address(request)}",
        settings.REGISTRATION_POSTS,
        settings.REGISTRATION_WINDOW,
    )


@require_http_methods(["GET", "HEAD", "POST"])
def register(request, token):
    """The night's announcement and its registration form (``/p/<token>/register/``):
    a registration made sends the player to its private link. 404 when the night is not
    open to the public; 429 past the address's limit; a refused registration shows the
    form again with the reason on its field (400)."""
    t = public_tournament(token)
    shown = announcement(t)
    if shown is None:
        raise Http404
    form = RegisterForm(request.POST or None, initial={"cards": 1})
    status = 200
    if request.method == "POST":
        if not _may_post(request):
            form = RegisterForm(request.POST)
            form.is_valid()
            form.add_error(None, _("Too many registrations from this address: try again later."))
            return _night_page(request, t, form, 429)
        if form.is_valid():
            data = form.cleaned_data
            try:
                registration = signup.register(
                    t,
                    name=data["name"],
                    cards=data["cards"],
                    contact=data["contact"],
                    key=data["key"],
                    language=request.LANGUAGE_CODE,
                )
            except RuleError as error:
                put_rule_error(form, error, shown=("name", "contact", "cards"))
            else:
                return redirect("registration_link", token=registration.token)
        status = 400
    return _night_page(request, t, form, status)


def _night_page(request, t, form, status):
    context = {"tournament": t, "night": announcement(t), "register_form": form}
    return render(request, "tournaments/night.html", context, status=status)


LINK_ACTIONS = {
    "cancel": (checkin.cancel, gettext_noop("Your registration is cancelled.")),
    "accept": (waiting_list.accept_offer, gettext_noop("The cards are yours: you are registered.")),
    "decline": (waiting_list.decline_offer, gettext_noop("You declined the offer.")),
}


@require_http_methods(["GET", "HEAD", "POST"])
def registration_link(request, token):
    """A registration's private link (``/p/r/<token>/``): its status (awaiting the
    organiser's confirmation, an offer and its deadline), cards, place on the waiting
    list and, when the night takes transfers, the bank account, amount and reference; once
    checked in, its card numbers and the way to "Wo spiele ich?"; change the number of cards, cancel, accept or decline an offer (``action``). 404 for
    an unknown token; a refused action shows the page with the reason (400)."""
    r = Registration.objects.filter(token=token).select_related("tournament__club").first()
    if r is None:
        raise Http404
    form = RegistrationCardsForm(initial={"cards": r.cards})
    error, status = None, 200
    if request.method == "POST":
        try:
            action = request.POST.get("action")
            if action in LINK_ACTIONS:
                writer, done = LINK_ACTIONS[action]
                writer(r)
                messages.success(request, _(done))
                return redirect("registration_link", token=token)
            form = RegistrationCardsForm(request.POST)
            if form.is_valid():
                signup.change_cards(r, form.cleaned_data["cards"])
                messages.success(request, _("Saved."))
                return redirect("registration_link", token=token)
        except RuleError as refused:
            error = rule_error_text(refused)
        status = 400
        r.refresh_from_db()
    t = r.tournament
    standing = r.status in service.STANDING_STATUSES
    context = {
        "tournament": t,
        "registration": r,
        "position": waiting_position(r),
        "form": form,
        "error": error,
        "changeable": r.status in (RegistrationStatus.REGISTERED, RegistrationStatus.WAITING),
        "cancellable": standing and r.status != RegistrationStatus.OFFERED,
        "unconfirmed": service.awaits_confirmation(r),
        "offered": r.status == RegistrationStatus.OFFERED,
        "offer_open": service.offer_open(r),
        "transfer": bool(t.transfer_to) and r.status == RegistrationStatus.REGISTERED,
        "amount": service.amount_due(r),
        "cards": service.checked_in_cards(r),
        "calendar_url": absolute_url(
            request, reverse("registration_calendar", kwargs={"token": r.feed_token})
        ),
    }
    return render(request, "tournaments/registration.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def window(request, slug, tournament_id):
    """The organisers' page of the night's registration window."""
    role = Role.ORGANISER if request.method == "POST" else Role.MEMBER
    t, access = tournament_for(request, slug, tournament_id, role)
    initial = {
        "opens": t.registration_opens,
        "closes": t.registration_closes,
        "public": t.registration_public,
    }
    form = RegistrationWindowForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            signup.set_registration(
                t,
                access.actor,
                opens=data["opens"],
                closes=data["closes"],
                public=data["public"],
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("opens", "closes"))
        else:
            messages.success(request, _("Saved."))
            return redirect("registrations", slug=slug, tournament_id=t.pk)
    return _desk_page(request, t, access, form)


@login_required
@require_POST
def terms(request, slug, tournament_id):
    """The organisers' form of the night's registration terms: confirmation, bank account
    for prepayment, close of check-in; a refused setting shows the desk with the reason
    on its field."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    form = RegistrationTermsForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            signup.set_registration_terms(
                t,
                access.actor,
                confirm=data["confirm"],
                transfer_to=data["transfer_to"],
                checkin_closes=data["checkin_closes"],
            )
        except RuleError as error:
            put_rule_error(form, error, shown=("transfer_to", "checkin_closes"))
        else:
            messages.success(request, _("Saved."))
            return redirect("registrations", slug=slug, tournament_id=t.pk)
    return _desk_page(request, t, access, terms_form=form)


def _desk_page(request, t, access, form=None, terms_form=None):
    query = name_query(request)
    rows = list(Registration.objects.filter(tournament=t).order_by("pk"))
    position = 0
    for r in rows:  # what each row offers, asked of the service once: the template's own
        r.tournament = t
        r.unconfirmed = service.awaits_confirmation(r)  # type: ignore[attr-defined]
        r.offered = r.status == RegistrationStatus.OFFERED  # type: ignore[attr-defined]
        r.holding = r.status in HOLDING_REGISTRATION  # type: ignore[attr-defined]
        r.standing = r.status in service.STANDING_STATUSES  # type: ignore[attr-defined]
        if r.status == RegistrationStatus.WAITING:
            position += 1
            r.position = position  # type: ignore[attr-defined]
    standing = sum(1 for r in rows if r.status in service.STANDING_STATUSES)
    if query:  # a name at the door, or a transfer's reference from the bank statement
        pattern = name_search(query)
        rows = [
            r
            for r in rows
            if pattern.search(german_key(r.name)) or service.finds_reference(r, query)
        ]
    form = form or RegistrationWindowForm(
        initial={
            "opens": t.registration_opens,
            "closes": t.registration_closes,
            "public": t.registration_public,
        }
    )
    terms_form = terms_form or RegistrationTermsForm(
        initial={
            "confirm": t.confirm_registrations,
            "transfer_to": t.transfer_to,
            "checkin_closes": t.checkin_closes,
        }
    )
    context = {
        "club": t.club,
        "tournament": t,
        "access": access,
        "registrations": rows,
        "query": query,
        "form": form,
        "terms_form": terms_form,
        "reserved": counts.count_reserved(t),
        "free": counts.free_cards(t),
        "not_checked_in": standing,
        "public_url": reverse("register", kwargs={"token": t.public_token}),
    }
    return render(request, "tournaments/registrations.html", context)


@login_required
@require_http_methods(["GET", "HEAD"])
def registrations(request, slug, tournament_id):
    """The desk's list of the night's registrations (organisers see contacts), with the
    registration window's form, and one-tap check-in and no-show; ``?q=``: those whose
    name holds it (case and spacing folded as names are)."""
    t, access = tournament_for(request, slug, tournament_id)
    return _desk_page(request, t, access)


ACTIONS: dict[str, Callable[[Registration, Actor], object] | None] = {
    "check-in": checkin.check_in,
    "no-show": checkin.no_show,
    "confirm": checkin.confirm,
    "refuse": checkin.refuse,
    "paid": None,
}


@login_required
@require_POST
def registration_action(request, slug, tournament_id, registration_id, action):
    """Check a registration in (its cards sold), mark it not come (its cards released),
    confirm or refuse it (a night whose organiser confirms each registration) or mark it
    paid before the night; organisers only. A double tap acts once (each writer finds
    its work done). 404 for another night's registration or an unknown action."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    r = Registration.objects.filter(tournament=t, pk=registration_id).first()
    if r is None or action not in ACTIONS:
        raise Http404
    try:
        if action == "paid":
            checkin.set_paid(r, access.actor, paid=request.POST.get("paid") == "1")
        elif action == "check-in":
            cards = checkin.check_in(r, access.actor)
            numbers = ", ".join(str(c.number) for c in cards)
            messages.success(
                request,
                ngettext(
                    "%(name)s checked in: card %(numbers)s",
                    "%(name)s checked in: cards %(numbers)s",
                    len(cards),
                )
                % {"name": r.name, "numbers": numbers},
            )
        else:
            write = ACTIONS[action]
            assert write is not None  # "paid" is answered above
            write(r, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    return redirect("registrations", slug=slug, tournament_id=t.pk)


@login_required
@require_POST
def release_not_checked_in(request, slug, tournament_id):
    """The desk's "release those not checked in" (asked first on the page): every
    registration not checked in becomes a no-show and its cards are free for the door;
    organisers only. A second tap releases none."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    try:
        released = checkin.release_not_checked_in(t, access.actor)
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    else:
        messages.success(
            request,
            ngettext("%(n)s registration released.", "%(n)s registrations released.", released)
            % {"n": released},
        )
    return redirect("registrations", slug=slug, tournament_id=t.pk)
