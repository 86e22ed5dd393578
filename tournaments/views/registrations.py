"""An announced night (issue 28): its registration window (organisers), the public
registration form under the night's public link, a registration's private link (see,
change, cancel) and the check-in at the door (``services.registrations``)."""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import caches
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from bummerl.clientip import limit_address
from clubs.forms import put_rule_error, rule_error_text
from clubs.models import Role
from clubs.text import name_fold
from scoring.rules import RuleError
from tournaments.forms import RegisterForm, RegistrationCardsForm, RegistrationWindowForm
from tournaments.models import Registration, RegistrationStatus
from tournaments.services import registrations as service
from tournaments.views.common import actor, tournament_for
from tournaments.views.public import announcement, name_query, public_tournament


def _may_post(request) -> bool:
    """Count one registration sent from the visitor's address (``limit_address``: an
    IPv6 address by its /64); False past ``REGISTRATION_POSTS`` in the
    ``REGISTRATION_WINDOW`` seconds since the first of the window (a limit, not a
    ledger: two processes counting at one moment may both count one)."""
    cache, now = caches["printouts"], time.time()
    key = f"registrations:{limit_address(request)}"
    start, sent = cache.get(key) or (now, 0)
    if now - start >= settings.REGISTRATION_WINDOW:
        start, sent = now, 0
    if sent >= settings.REGISTRATION_POSTS:
        return False
    timeout = max(1, int(start + settings.REGISTRATION_WINDOW - now))
    cache.set(key, (start, sent + 1), timeout=timeout)
    return True


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
                registration = service.register(
                    t,
                    name=data["name"],
                    cards=data["cards"],
                    contact=data["contact"],
                    key=data["key"],
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


@require_http_methods(["GET", "HEAD", "POST"])
def registration_link(request, token):
    """A registration's private link (``/p/r/<token>/``): its status, cards and place on
    the waiting list; change the number of cards or cancel (``action``). 404 for an
    unknown token."""
    r = Registration.objects.filter(token=token).select_related("tournament__club").first()
    if r is None:
        raise Http404
    form = RegistrationCardsForm(initial={"cards": r.cards})
    error, status = None, 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "cancel":
                service.cancel(r)
                messages.success(request, _("Your registration is cancelled."))
                return redirect("registration_link", token=token)
            form = RegistrationCardsForm(request.POST)
            if form.is_valid():
                service.change_cards(r, form.cleaned_data["cards"])
                messages.success(request, _("Saved."))
                return redirect("registration_link", token=token)
        except RuleError as refused:
            error = rule_error_text(refused)
        status = 400
        r.refresh_from_db()
    context = {
        "tournament": r.tournament,
        "registration": r,
        "position": service.waiting_position(r),
        "form": form,
        "error": error,
        "changeable": r.status in (RegistrationStatus.REGISTERED, RegistrationStatus.WAITING),
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
            service.set_registration(
                t,
                actor(request, access),
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


def _desk_page(request, t, access, form=None):
    query = name_query(request)
    rows = list(Registration.objects.filter(tournament=t).order_by("pk"))
    position = 0
    for r in rows:
        if r.status == RegistrationStatus.WAITING:
            position += 1
            r.position = position
    if query:  # a name at the door: the registrations whose name holds it, any case
        rows = [r for r in rows if name_fold(query) in r.name_fold]
    form = form or RegistrationWindowForm(
        initial={
            "opens": t.registration_opens,
            "closes": t.registration_closes,
            "public": t.registration_public,
        }
    )
    context = {
        "club": t.club,
        "tournament": t,
        "access": access,
        "registrations": rows,
        "query": query,
        "form": form,
        "reserved": service.reserved(t),
        "free": service.free_cards(t),
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


ACTIONS = {"check-in": service.check_in, "no-show": service.no_show, "paid": None}


@login_required
@require_POST
def registration_action(request, slug, tournament_id, registration_id, action):
    """Check a registration in (its cards sold), mark it not come (its cards released)
    or mark it paid before the night; organisers only. 404 for another night's
    registration or an unknown action."""
    t, access = tournament_for(request, slug, tournament_id, Role.ORGANISER)
    r = Registration.objects.filter(tournament=t, pk=registration_id).first()
    if r is None or action not in ACTIONS:
        raise Http404
    try:
        if action == "paid":
            service.set_paid(r, actor(request, access), paid=request.POST.get("paid") == "1")
        elif action == "check-in":
            cards = service.check_in(r, actor(request, access))
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
            service.no_show(r, actor(request, access))
    except RuleError as error:
        messages.error(request, rule_error_text(error))
    return redirect("registrations", slug=slug, tournament_id=t.pk)
