"""A registration's end before an announced Preisschnapsen night (issue 28): cancelled,
refused or confirmed by the organiser, checked in at the door (its Karten sold through
``sell_cards``), marked paid, released as a no-show; and the timed work of every night
(``expire_due``: offers lapsing, the close of check-in).
"""

import datetime

from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments.models import (
    HOLDING_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.services.cards import sell_cards
from tournaments.services.reading import locked
from tournaments.services.registrations import (
    STANDING_STATUSES,
    awaits_confirmation,
    check_not_drawn,
    check_status,
    checkin_closed,
    log_registration,
    round_drawn,
    tell_player,
)
from tournaments.services.sheets import Actor
from tournaments.services.waiting_list import (
    decline_offer,
    lapse_due,
    locked_registration,
    release_registration,
)

S = RegistrationStatus


# -- cancelling, confirming, refusing, releasing ---------------------------------------------


def cancel(registration: Registration, actor: Actor | None = None) -> Registration:
    """Cancel the registration (its private link, or an organiser): its cards serve the
    waiting list (``serve_waiting_list``). Cancelling a cancelled one changes nothing.
    RuleError on ``registration`` once it is checked in, refused or a no-show. Logged as
    "registration cancelled", told "cancelled". An offered registration cancelled
    declines its offer (``decline_offer``)."""
    if registration.status == S.OFFERED:
        return decline_offer(registration)
    return release_registration(
        registration, S.CANCELLED, Action.REGISTRATION_CANCELLED, actor, "cancelled"
    )


def no_show(registration: Registration, actor: Actor) -> Registration:
    """Mark a registered (offered or waiting) player as not come: the registration's
    cards are released and serve the waiting list (``serve_waiting_list``). A second tap
    changes nothing. RuleError on ``registration`` once it is checked in, cancelled or
    refused. Logged as "registration no-show", told "released"."""
    return release_registration(
        registration, S.NO_SHOW, Action.REGISTRATION_NO_SHOW, actor, "released"
    )


WITHOUT_CONFIRMATION = gettext_noop("This night takes registrations without confirmation.")


def refuse(registration: Registration, actor: Actor) -> Registration:
    """Refuse a registration (registered, offered or waiting) of a night whose organiser
    confirms each registration: its cards are released and serve the waiting list. A
    second tap changes nothing. RuleError on ``registration`` when the night does not
    confirm registrations, or the registration is checked in, cancelled or a no-show.
    Logged as "registration refused", told "refused"."""
    if not registration.tournament.confirm_registrations:
        raise RuleError("registration", WITHOUT_CONFIRMATION)
    return release_registration(
        registration, S.REFUSED, Action.REGISTRATION_REFUSED, actor, "refused"
    )


def confirm(registration: Registration, actor: Actor) -> Registration:
    """Confirm a registration (registered, offered or waiting: it keeps its place) of a
    night whose organiser confirms each registration: ``confirmed_at`` is set. A second
    tap changes nothing. RuleError on ``registration`` when the night does not confirm
    registrations, or the registration is checked in, cancelled, refused or a no-show.
    Logged as "registration confirmed", told "confirmed"."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        if r.confirmed_at is not None:
            return r
        if not t.confirm_registrations:
            raise RuleError("registration", WITHOUT_CONFIRMATION)
        check_status(r)
        check_not_drawn(t)
        _confirm(r, actor)
        return r


def _confirm(r: Registration, actor: Actor) -> None:
    r.confirmed_at = timezone.now()
    r.save(update_fields=["confirmed_at", "changed_at"])
    log_registration(r, Action.REGISTRATION_CONFIRMED, None, {"cards": r.cards}, actor)
    tell_player(r, "confirmed")


def check_in(registration: Registration, actor: Actor) -> list[Card]:
    """Check the registration in at the door: its cards are sold to its player (found or
    added as at the door) through ``sell_cards``, paid or not as the registration says.
    A registration not yet confirmed is confirmed by it ("registration confirmed"); an
    offered one takes its offer. A second tap returns the cards of the first. RuleError
    on ``registration`` when it waits, is cancelled, refused or a no-show; and as
    ``sell_cards`` (round 1 drawn, too many cards for the player). Logged as
    "registration checked in" beside "cards sold"."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        if r.status == S.CHECKED_IN:
            return list(Card.objects.filter(sale_key=r.sale_key))
        check_status(r, HOLDING_REGISTRATION)
        if awaits_confirmation(r):
            _confirm(r, actor)
        r.status = S.CHECKED_IN  # first, so that its cards no longer count as reserved
        r.save(update_fields=["status", "changed_at"])
        try:
            cards = sell_cards(t, r.name, r.cards, actor, r.sale_key, paid=r.paid)
        except RuleError as error:
            raise RuleError("registration", error.template, **error.params) from None
        log_registration(
            r, Action.REGISTRATION_CHECKED_IN, None, {"cards": [c.number for c in cards]}, actor
        )
        return cards


def release_not_checked_in(tournament: Tournament, actor: Actor) -> int:
    """The desk's "release those not checked in": every registration that stands and is
    not checked in (registered, offered or waiting) becomes a no-show, its cards free for
    the door ("registration released", told "released"). Returns how many; a second tap
    finds none. RuleError on ``tournament`` once round 1 is drawn."""
    with transaction.atomic():
        t = locked(tournament)
        if round_drawn(t):
            raise RuleError("tournament", gettext_noop("The draw has started."))
        lapse_due(t, timezone.now())  # an offer past its time lapses, as ever
        return _release_absent(t, STANDING_STATUSES, actor)


def _release_absent(t: Tournament, statuses, actor: Actor) -> int:
    rows = Registration.objects.select_for_update(no_key=True).filter(
        tournament=t, status__in=statuses
    )
    released = 0
    for r in rows.order_by("pk"):
        r.tournament = t
        before = r.status
        r.status = S.NO_SHOW
        r.save(update_fields=["status", "changed_at"])
        log_registration(
            r, Action.REGISTRATION_RELEASED, {"status": before}, {"cards": r.cards}, actor
        )
        tell_player(r, "released")
        released += 1
    return released


def set_paid(registration: Registration, actor: Actor, *, paid: bool) -> Registration:
    """Mark a registration paid before the night (a bank transfer, found by its
    reference) or not: its cards are sold paid or unpaid at check-in accordingly. The
    same value again changes nothing. RuleError on ``registration`` once it is checked in
    (the cards' payment is changed at the desk then), cancelled, refused or a no-show.
    Logged as "registration paid"."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        if r.paid == paid:
            return r
        check_status(r)
        check_not_drawn(t)
        r.paid = paid
        r.save(update_fields=["paid", "changed_at"])
        log_registration(r, Action.REGISTRATION_PAID, {"paid": not paid}, {"paid": paid}, actor)
        return r


# -- the timed work -------------------------------------------------------------------------


def expire_due(now: datetime.datetime | None = None) -> int:
    """The timed work of every night (``tournaments.jobs.tick``): offers past
    ``offered_until`` lapse and go to the next in line (``lapse_due``); once
    ``checkin_closes`` has passed and before round 1 is drawn, the registrations not
    checked in (registered, offered, and waiting: the waiting list is no longer served)
    are released as no-shows ("registration released", told "released"), their cards
    free for the door, where a player released may still buy cards. Each night under its lock, so two runs at
    once change each registration once: the second finds nothing due. Returns how many
    registrations changed."""
    now = now or timezone.now()
    offers = Registration.objects.filter(status=S.OFFERED, offered_until__lte=now)
    holding = Registration.objects.filter(
        status__in=STANDING_STATUSES,
        tournament__checkin_closes__isnull=False,
        tournament__checkin_closes__lte=now,
    )
    closed = set(holding.values_list("tournament_id", flat=True))
    # A night drawn keeps its registrations not checked in: nothing to do there, ever.
    closed -= set(
        Round.objects.live()
        .filter(tournament_id__in=closed)
        .values_list("tournament_id", flat=True)
    )
    nights = set(offers.values_list("tournament_id", flat=True)) | closed
    changed = 0
    for night in Tournament.objects.filter(pk__in=nights).order_by("pk"):
        with transaction.atomic():
            t = locked(night)
            changed += lapse_due(t, now)
            if checkin_closed(t, now) and not round_drawn(t):
                changed += _release_absent(t, STANDING_STATUSES, audit.SYSTEM)
    return changed
