"""The waiting list of an announced Preisschnapsen night and its timed offers (issue
28): freed cards serve the first in line (``serve_waiting_list``), an offer is accepted
or declined with the registration's private link, and lapses unanswered in time
(``lapse_due``, which every registration writer runs first under the night's lock);
``release_registration`` lets a registration's cards go and serves the list again.
"""

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from clubs.audit import Action
from tournaments.models import Registration, RegistrationStatus, Tournament
from tournaments.services.counts import free_cards
from tournaments.services.reading import locked
from tournaments.services.registrations import (
    STANDING_STATUSES,
    check_not_drawn,
    check_status,
    checkin_closed,
    log_registration,
    moment_text,
    round_drawn,
    tell_player,
    window_open,
)
from tournaments.services.sheets import Actor

S = RegistrationStatus


def locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    """The registration's night and the registration, both locked (night first), after
    the night's offers past their time have lapsed."""
    t = locked(registration.tournament)
    lapse_due(t, timezone.now())
    r = Registration.objects.select_for_update(no_key=True).get(pk=registration.pk)
    r.tournament = t
    return t, r


# -- the waiting list and its offers --------------------------------------------------------


def serve_waiting_list(
    tournament: Tournament, now: datetime.datetime, actor: Actor | None = None
) -> list[Registration]:
    """Give freed cards to the waiting list, in its order (the caller holds the
    tournament's lock). Nothing while an offer stands, once round 1 is drawn or once
    check-in has closed. While registration is open (``window_open``) the first in line
    that the free cards hold whole is offered them until ``min(now +
    REGISTRATION_OFFER_HOURS, registration_closes)`` ("registration offered", told
    "offered"); else the first in line move up at once while the free cards hold them
    whole ("registration moved up", told "moved_up"). Never one past the one before it.
    Returns the registrations offered or moved up."""
    t = tournament
    if round_drawn(t) or checkin_closed(t, now):
        return []
    if Registration.objects.filter(tournament=t, status=S.OFFERED).exists():
        return []  # the first in line has the cards offered: nobody behind it is served
    # While the window is open, cards are offered, at most until it closes.
    offer_closes = t.registration_closes if window_open(t, now) else None
    free = free_cards(t)
    served = []
    for r in Registration.objects.filter(tournament=t, status=S.WAITING).order_by("pk"):
        if r.cards > free:
            break
        r.tournament = t
        if offer_closes is not None:
            hours = datetime.timedelta(hours=settings.REGISTRATION_OFFER_HOURS)
            r.status, r.offered_until = S.OFFERED, min(now + hours, offer_closes)
            r.save(update_fields=["status", "offered_until", "changed_at"])
            until = moment_text(r.offered_until)
            log_registration(
                r, Action.REGISTRATION_OFFERED, None, {"cards": r.cards, "until": until}, actor
            )
            tell_player(r, "offered")
            served.append(r)
            break
        free -= r.cards
        r.status = S.REGISTERED
        r.save(update_fields=["status", "changed_at"])
        log_registration(r, Action.REGISTRATION_MOVED_UP, None, {"cards": r.cards}, actor)
        tell_player(r, "moved_up")
        served.append(r)
    return served


def lapse_due(t: Tournament, now: datetime.datetime) -> int:
    """Cancel the night's offers whose ``offered_until`` has passed ("offer lapsed", told
    "cancelled") and serve the waiting list again (the caller holds the night's lock).
    Returns how many registrations changed (lapsed, offered or moved up)."""
    due = Registration.objects.select_for_update(no_key=True).filter(
        tournament=t, status=S.OFFERED, offered_until__lte=now
    )
    changed = 0
    for r in due.order_by("pk"):
        r.tournament = t
        r.status = S.CANCELLED
        r.save(update_fields=["status", "changed_at"])
        until = moment_text(r.offered_until)
        log_registration(
            r,
            Action.OFFER_LAPSED,
            {"status": S.OFFERED, "until": until},
            {"cards": r.cards},
            audit.SYSTEM,
        )
        tell_player(r, "cancelled")
        changed += 1
    if changed:
        changed += len(serve_waiting_list(t, now, audit.SYSTEM))
    return changed


EXPIRED = gettext_noop("The offer has expired.")


def accept_offer(registration: Registration) -> Registration:
    """Accept the cards offered to the registration (its private link): it is registered,
    its cards held as before; it stays unconfirmed when the night's organiser confirms
    each registration and has not yet. A second tap changes nothing. RuleError on
    ``registration`` when the offer has expired (it lapsed at this very write, which
    stays: the registration stands cancelled, its cards offered to the next) or it is
    not offered. Logged as "offer accepted", told "moved_up"; then the next in line is
    served (``serve_waiting_list``)."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        now = timezone.now()
        was_offered = r.offered_until is not None
        if r.status == S.REGISTERED and was_offered:
            return r  # accepted already
        expired = r.status == S.CANCELLED and r.offered_until is not None and r.offered_until <= now
        if r.status == S.OFFERED:
            check_not_drawn(t)
            r.status = S.REGISTERED
            r.save(update_fields=["status", "changed_at"])
            log_registration(r, Action.OFFER_ACCEPTED, {"status": S.OFFERED}, {"cards": r.cards})
            tell_player(r, "moved_up")
            serve_waiting_list(t, now)  # the offer no longer stands: the next in line
            return r
        if not expired:
            check_status(r, (S.OFFERED,))
    # Raised once the lapse found by this write has committed.
    raise RuleError("registration", EXPIRED)


def decline_offer(registration: Registration) -> Registration:
    """Decline the cards offered (its private link): the registration is cancelled and
    the cards go to the next in line. A second tap changes nothing. RuleError on
    ``registration`` when it is not offered. Logged as "offer declined", told
    "cancelled"."""
    return release_registration(
        registration,
        S.CANCELLED,
        Action.OFFER_DECLINED,
        None,
        "cancelled",
        (S.OFFERED,),
        again=lambda r: r.offered_until is not None,  # declined (or lapsed) already
    )


def release_registration(
    registration: Registration,
    status: str,
    action: Action,
    actor: Actor | None,
    told: str,
    statuses=STANDING_STATUSES,
    again=lambda r: True,
) -> Registration:
    """Set ``status`` (cancelled, refused, no-show) on a registration in one of
    ``statuses``, log ``action``, tell the player ``told`` and serve the waiting list;
    the same status again changes nothing where ``again(r)`` (a second tap), else it is
    refused as any other status. RuleError on ``registration`` once round 1 is drawn."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        if r.status == status and again(r):
            return r
        check_status(r, statuses)
        check_not_drawn(t)
        before = r.status
        r.status = status
        r.save(update_fields=["status", "changed_at"])
        log_registration(r, action, {"status": before}, {"cards": r.cards}, actor)
        tell_player(r, told)
        serve_waiting_list(t, timezone.now(), actor)
        return r
