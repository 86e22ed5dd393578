"""The registrations of an announced Preisschnapsen night (issue 28): what their writers
share, the words below, the free cards and the reads the desk and the public page ask
(the window open, an offer open, the amount due, a transfer reference found). The
writers: ``services.signup`` (the registration window and its terms, registering on the
night's public page, changing the cards with the registration's private link),
``services.waiting_list`` (the waiting list and its timed offers) and
``services.checkin`` (cancelling, the organiser's confirmation, the check-in at the door,
releasing, the timed work).

Words: a *registration* holds a number of cards for a player before the night; while
it is *registered* (or *offered*) its cards are *reserved*: they count against the cards
laid out as sold cards do, so neither another registration nor a sale at the door takes
them. When the free cards (laid out, minus in play, minus reserved) do not hold a
registration whole, it *waits*: the waiting list is served in the order the
registrations came in, and a registration never jumps the one before it.

Cards freed (a cancellation, fewer cards, a refusal, a no-show) serve the waiting list
(``serve_waiting_list``): while registration is open, the first in line that the free
cards hold whole is *offered* them until ``offered_until`` (``REGISTRATION_OFFER_HOURS``
from then, never past the close of registration); it accepts (registered) or declines
(cancelled), and an offer unanswered in time *lapses* (cancelled, "offer lapsed"), each
time going on to the next in line. While an offer stands nobody behind it is served.
Once registration has closed there is no time to answer: the first in line move up at
once, as many as then fit whole ("registration moved up"). Once check-in has closed the
waiting list is not served: freed cards go to the door.

A night with ``confirm_registrations`` holds a new registration's cards as any other,
but the registration *awaits confirmation* (``confirmed_at`` empty) until the organiser
confirms it or refuses it (*refused*: its cards released); without the setting it is
confirmed when it is made. *Check-in* sells a registration's cards through
``sell_cards`` (paid or not as the registration says) and confirms it; *no-show*
releases them; at ``checkin_closes`` (``expire_due``) every registration still holding
cards is released as a no-show.

Every writer locks the tournament row first (``reading.locked``), so the writes of one
night, the door's sales among them, are served one after the other: of two phones that
ask for the last card at once, the second sees it taken and waits. Each writer lapses
the night's offers past their time first, so a late answer finds its offer gone. The
player is told of each event (``tournaments.notices.notify``) once its transaction has
committed.
"""

import datetime
import unicodedata

from django.db import transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop
from clubs import audit
from tournaments import notices
from tournaments.models import Card, Registration, RegistrationStatus, Round, Tournament
from tournaments.services.sheets import Actor

CONTACT_LENGTH = 120
TRANSFER_LENGTH = 200

S = RegistrationStatus

STANDING_STATUSES = (S.REGISTERED, S.WAITING, S.OFFERED)
"""A registration that stands and is not checked in: it may still be cancelled,
refused, confirmed, marked paid or released."""


def clean_contact(text: str) -> str:
    """A phone number or e-mail address as typed, without control and format characters
    (an escape sequence, a right-to-left override that shows the number reordered on the
    desk) and with its spaces folded to one."""
    kept = "".join(c for c in text or "" if unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(kept.split())


def window_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """True while the night takes registrations: open to the public, the window set and
    ``now`` inside it (opens <= now < closes). The writers also refuse once round 1 is
    drawn."""
    now = now or timezone.now()
    t = tournament
    if not t.registration_public or t.registration_opens is None or t.registration_closes is None:
        return False
    return t.registration_opens <= now < t.registration_closes


def checkin_closed(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """True once the night's ``checkin_closes`` has passed (never when it is empty)."""
    closes = tournament.checkin_closes
    return closes is not None and (now or timezone.now()) >= closes


def awaits_confirmation(registration: Registration) -> bool:
    """True for a registration that stands (registered, waiting or offered) on a night
    whose organiser confirms each registration, and is not confirmed yet."""
    return (
        registration.tournament.confirm_registrations
        and registration.confirmed_at is None
        and registration.status in STANDING_STATUSES
    )


def offer_open(registration: Registration, now: datetime.datetime | None = None) -> bool:
    """True while the registration's offer may be accepted: offered and before
    ``offered_until`` (an offer past it lapses at the next write or timed run)."""
    return (
        registration.status == S.OFFERED
        and registration.offered_until is not None
        and (now or timezone.now()) < registration.offered_until
    )


def amount_due(registration: Registration):
    """What the registration's cards cost: cards × the night's entry fee (a Decimal, in
    euros)."""
    return registration.cards * registration.tournament.entry_fee


def reference_fold(text: str) -> str:
    """A transfer reference as compared: upper case, without dashes and spaces
    ("bu-7k3m 9p2x" -> "BU7K3M9P2X")."""
    return "".join(sign for sign in text.upper() if sign not in "- \u00a0")


def finds_reference(registration: Registration, query: str) -> bool:
    """True when ``query`` (the desk's search) is the registration's transfer reference,
    whole or without its ``BU-``, case, dashes and spaces ignored."""
    folded = reference_fold(query)
    whole = reference_fold(registration.reference)
    return len(folded) >= 8 and folded in (whole, whole[2:])


def checked_in_cards(registration: Registration) -> list[int]:
    """The numbers of the cards a checked-in registration bought at the door (its sale,
    ``sale_key``), in order; [] for one not checked in. One query, none when not checked
    in."""
    if registration.status != S.CHECKED_IN:
        return []
    cards = Card.objects.filter(
        tournament_id=registration.tournament_id, sale_key=registration.sale_key
    )
    return list(cards.order_by("number").values_list("number", flat=True))


def round_drawn(t: Tournament) -> bool:
    return Round.objects.live().filter(tournament=t).exists()


def moment_text(moment) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="minutes") if moment else None


def log_registration(
    registration: Registration, action: audit.Action, before, after, actor: Actor | None = None
):
    t = registration.tournament
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        action,
        actor=actor or audit.VIA_LINK,
        before=before,
        after={"registration": registration.pk, "name": registration.name, **(after or {})},
    )


def tell_player(registration: Registration, what: str) -> None:
    """Tell the player ``what`` (``notices.notify``) once the transaction commits."""
    pk = registration.pk
    transaction.on_commit(lambda: notices.notify(pk, what))


STANDING = gettext_noop("This registration stands as “%(status)s”: it can no longer be changed.")


def check_status(r: Registration, statuses=STANDING_STATUSES) -> None:
    if r.status not in statuses:
        raise RuleError("registration", STANDING, status=r.get_status_display())


DRAW_STARTED = gettext_noop("The draw has started.")


def check_not_drawn(t: Tournament) -> None:
    """Once round 1 is drawn a registration no longer changes: it was checked in, or it
    was not and plays no part in the night."""
    if round_drawn(t):
        raise RuleError("registration", DRAW_STARTED)
