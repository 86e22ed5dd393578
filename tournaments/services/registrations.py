"""Writers of an announced night's registrations (issue 28): the registration window and
its terms, registering on the night's public page, changing or cancelling with the
registration's private link, the organiser's confirmation, the waiting list and its
timed offers, and the check-in at the door.

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
import uuid

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop, key_reused
from base.text import name_fold
from clubs import audit
from clubs.players import checked_name, known_player
from tournaments import notices
from tournaments.models import (
    ACTIVE_REGISTRATION,
    HOLDING_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.services.cards import sell_cards
from tournaments.services.reading import count_in_play, count_reserved, locked
from tournaments.services.sheets import Actor

CONTACT_LENGTH = 120
TRANSFER_LENGTH = 200

S = RegistrationStatus

STANDING_STATUSES = (S.REGISTERED, S.WAITING, S.OFFERED)
"""A registration that stands and is not checked in: it may still be cancelled,
refused, confirmed, marked paid or released."""

SYSTEM = Actor()
"""The actor of the timed work (offers lapsing, the close of check-in)."""


def clean_contact(text: str) -> str:
    """A phone number or e-mail address as typed, without control and format characters
    (an escape sequence, a right-to-left override that shows the number reordered on the
    desk) and with its spaces folded to one."""
    kept = "".join(c for c in text or "" if unicodedata.category(c) not in ("Cc", "Cf"))
    return " ".join(kept.split())


def reserved(tournament: Tournament) -> int:
    """The cards held by the tournament's registrations that are registered or offered
    and not yet checked in (``reading.count_reserved``). One query."""
    return count_reserved(tournament)


def free_cards(tournament: Tournament) -> int:
    """Cards laid out that neither a card in play nor a registration holds (0 or more)."""
    return max(0, tournament.cards - count_in_play(tournament) - reserved(tournament))


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


def _drawn(t: Tournament) -> bool:
    return Round.objects.live().filter(tournament=t).exists()


# -- the organiser's settings --------------------------------------------------------------


CHECKIN_AFTER_OPENS = gettext_noop("Check-in closes after registration opens.")


def set_registration(
    tournament: Tournament,
    actor: Actor,
    *,
    opens: datetime.datetime | None,
    closes: datetime.datetime | None,
    public: bool,
) -> Tournament:
    """Set the night's registration window and whether the public may register. RuleError
    on ``closes`` when it is not after ``opens``, or one of the two is missing while
    ``public`` is set (on ``opens`` then); on ``opens`` when it is not before the night's
    ``checkin_closes``. The same settings again change nothing and log nothing; else
    "registration set" in the history."""
    if public and opens is None:
        raise RuleError("opens", gettext_noop("Say when registration opens."))
    if public and closes is None:
        raise RuleError("closes", gettext_noop("Say when registration closes."))
    if opens is not None and closes is not None and closes <= opens:
        raise RuleError("closes", gettext_noop("Registration closes after it opens."))
    with transaction.atomic():
        t = locked(tournament)
        _lapse_due(t, timezone.now())
        if opens is not None and t.checkin_closes is not None and t.checkin_closes <= opens:
            raise RuleError("opens", CHECKIN_AFTER_OPENS)
        before = _window(t)
        t.registration_opens, t.registration_closes = opens, closes
        t.registration_public = public
        after = _window(t)
        if after != before:
            t.save(
                update_fields=["registration_opens", "registration_closes", "registration_public"]
            )
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                "registration set",
                actor=actor,
                before=before,
                after=after,
            )
        return t


def set_registration_terms(
    tournament: Tournament,
    actor: Actor,
    *,
    confirm: bool,
    transfer_to: str,
    checkin_closes: datetime.datetime | None,
) -> Tournament:
    """Set beside the window whether the organiser confirms each registration
    (``confirm``), the bank account for prepayment (``transfer_to``: free text, spaces
    folded, at most 200 characters; empty: no transfer) and when check-in closes
    (``checkin_closes``; None: never by itself). RuleError on ``transfer_to`` when too
    long; on ``checkin_closes`` when it is not after registration opens. Switching
    ``confirm`` on leaves the registrations made before confirmed. The same settings again
    change nothing and log nothing; else "registration terms set" with before and after."""
    transfer_to = " ".join((transfer_to or "").split())
    if len(transfer_to) > TRANSFER_LENGTH:
        raise RuleError("transfer_to", gettext_noop("At most 200 characters."))
    with transaction.atomic():
        t = locked(tournament)
        _lapse_due(t, timezone.now())
        opens = t.registration_opens
        if checkin_closes is not None and opens is not None and checkin_closes <= opens:
            raise RuleError("checkin_closes", CHECKIN_AFTER_OPENS)
        before = _terms(t)
        t.confirm_registrations, t.transfer_to = confirm, transfer_to
        t.checkin_closes = checkin_closes
        after = _terms(t)
        if after != before:
            t.save(update_fields=["confirm_registrations", "transfer_to", "checkin_closes"])
            audit.record(
                t.club_id,
                "tournament",
                t.pk,
                "registration terms set",
                actor=actor,
                before=before,
                after=after,
            )
        return t


def _moment_text(moment) -> str | None:
    return timezone.localtime(moment).isoformat(timespec="minutes") if moment else None


def _window(t: Tournament) -> dict:
    return {
        "opens": _moment_text(t.registration_opens),
        "closes": _moment_text(t.registration_closes),
        "public": t.registration_public,
    }


def _terms(t: Tournament) -> dict:
    return {
        "confirm": t.confirm_registrations,
        "transfer_to": t.transfer_to,
        "checkin_closes": _moment_text(t.checkin_closes),
    }


# -- registering -----------------------------------------------------------------------------


def _check_count(t: Tournament, cards) -> int:
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 1:
        raise RuleError("cards", gettext_noop("Register at least one card."))
    if cards > t.max_cards:
        raise RuleError(
            "cards", gettext_noop("A player has at most %(max)s cards."), max=t.max_cards
        )
    return cards


def _check_held(t: Tournament, name: str, cards: int) -> None:
    """Refuse cards past the most per player, counting those sold at the door already."""
    player = known_player(t.club, name)
    held = Card.objects.filter(tournament=t, player=player).count() if player else 0
    if held + cards > t.max_cards:
        raise RuleError(
            "cards",
            gettext_noop("%(name)s holds %(held)s of at most %(max)s cards."),
            name=player.name if player else name,
            held=held,
            max=t.max_cards,
        )


def _check_open(t: Tournament) -> None:
    if _drawn(t):
        raise RuleError("tournament", gettext_noop("The draw has started: registration is over."))
    now = timezone.now()
    if checkin_closed(t, now):
        raise RuleError("tournament", gettext_noop("Check-in has closed: registration is over."))
    if not window_open(t, now):
        opens = t.registration_opens
        if t.registration_public and opens is not None and now < opens:
            raise RuleError(
                "tournament",
                gettext_noop("Registration opens on %(opens)s."),
                opens=timezone.localtime(opens).strftime("%d.%m.%Y %H:%M"),
            )
        raise RuleError("tournament", gettext_noop("Registration for this night is closed."))


DUPLICATE = gettext_noop(
    "%(name)s is registered for this night already: change that registration with its "
    "personal link."
)


def register(
    tournament: Tournament,
    *,
    name: str,
    cards: int,
    contact: str = "",
    key: uuid.UUID | None = None,
    language: str = "",
) -> Registration:
    """Register ``cards`` cards for the player called ``name`` (cleaned as at the door);
    ``contact``: an optional phone number or e-mail address; ``language``: the player's
    language code (``de``, ``en``), kept for his mails. The registration is *registered*
    when the free cards hold it whole and nobody waits, else *waiting*; it is confirmed
    at once unless the night's organiser confirms each registration.

    RuleError on ``tournament`` outside the registration window or once round 1 is drawn;
    on ``name`` (empty, too long, or a registration of that person stands already: one
    person, one registration, names compared as at the door); on ``contact`` (too long);
    on ``cards`` (below 1, past the most per player, counting cards bought at the door).
    The same ``key`` again returns the registration it made when it is the same (name,
    cards), and is refused on ``key`` when it is another. Logged as "registered"; the
    player is told "registered" or "waiting"."""
    name = checked_name(name)
    contact = clean_contact(contact)
    if len(contact) > CONTACT_LENGTH:
        raise RuleError("contact", gettext_noop("At most 120 characters."))
    with transaction.atomic():
        t = locked(tournament)
        if key is not None:
            earlier = Registration.objects.filter(key=key).first()
            if earlier is not None:
                if (earlier.tournament_id, earlier.name_fold, earlier.cards) != (
                    t.pk,
                    name_fold(name),
                    cards,
                ):
                    raise key_reused()
                return earlier
        now = timezone.now()
        _lapse_due(t, now)
        _check_open(t)
        _check_count(t, cards)
        fold = name_fold(name)
        standing = Registration.objects.filter(
            tournament=t, name_fold=fold, status__in=ACTIVE_REGISTRATION
        ).first()
        if standing is not None:
            raise RuleError("name", DUPLICATE, name=standing.name)
        _check_held(t, name, cards)
        queue = Registration.objects.filter(tournament=t, status=S.WAITING).exists()
        status = S.REGISTERED if not queue and cards <= free_cards(t) else S.WAITING
        try:
            with transaction.atomic():
                registration = Registration.objects.create(
                    tournament=t,
                    name=name,
                    name_fold=fold,
                    contact=contact,
                    cards=cards,
                    status=status,
                    key=key,
                    language=(language or "")[:8],
                    confirmed_at=None if t.confirm_registrations else now,
                )
        except IntegrityError:  # the constraint behind the check above
            raise RuleError("name", DUPLICATE, name=name) from None
        _log(registration, "registered", None, {"cards": cards, "status": status})
        _notify(registration, "registered" if status == S.REGISTERED else "waiting")
        return registration


def _log(registration: Registration, action: str, before, after, actor: Actor | None = None):
    t = registration.tournament
    audit.record(
        t.club_id,
        "tournament",
        t.pk,
        action,
        actor=actor or Actor(None, via_link=True),
        before=before,
        after={"registration": registration.pk, "name": registration.name, **(after or {})},
    )


def _notify(registration: Registration, what: str) -> None:
    """Tell the player ``what`` (``notices.notify``) once the transaction commits."""
    pk = registration.pk
    transaction.on_commit(lambda: notices.notify(pk, what))


def _locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    """The registration's night and the registration, both locked (night first), after
    the night's offers past their time have lapsed."""
    t = locked(registration.tournament)
    _lapse_due(t, timezone.now())
    r = Registration.objects.select_for_update().get(pk=registration.pk)
    r.tournament = t
    return t, r


STANDING = gettext_noop("This registration stands as “%(status)s”: it can no longer be changed.")


def _check_status(r: Registration, statuses=STANDING_STATUSES) -> None:
    if r.status not in statuses:
        raise RuleError("registration", STANDING, status=r.get_status_display())


DRAW_STARTED = gettext_noop("The draw has started.")


def _check_not_drawn(t: Tournament) -> None:
    """Once round 1 is drawn a registration no longer changes: it was checked in, or it
    was not and plays no part in the night."""
    if _drawn(t):
        raise RuleError("registration", DRAW_STARTED)


def change_cards(registration: Registration, cards: int) -> Registration:
    """Set the registration's number of cards (its private link). Fewer cards free theirs
    for the waiting list (``serve_waiting_list``); more are granted only when the free
    cards hold them and nobody waits (a waiting registration just asks for more).
    RuleError on ``cards`` as ``register``, and when more cards are not free; on
    ``registration`` when it is offered (accept or decline first), checked in, cancelled,
    refused or a no-show, or round 1 is drawn. The same number again changes nothing.
    Logged as "registration changed"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        _check_status(r, (S.REGISTERED, S.WAITING))
        _check_not_drawn(t)
        _check_count(t, cards)
        if cards == r.cards:
            return r
        _check_held(t, r.name, cards)
        if cards > r.cards and not window_open(t):
            raise RuleError(
                "cards", gettext_noop("Registration has closed: no more cards can be added.")
            )
        if r.status == S.REGISTERED and cards > r.cards:
            # More cards are taken only from free ones nobody waits for: the waiting
            # list is served first.
            queue = Registration.objects.filter(tournament=t, status=S.WAITING).exists()
            if queue:
                raise RuleError(
                    "cards",
                    gettext_noop("Others are waiting for cards: no more can be added now."),
                )
            if cards - r.cards > free_cards(t):
                raise RuleError(
                    "cards",
                    gettext_noop("Only %(left)s more cards are free."),
                    left=free_cards(t),
                )
        before, after = {"cards": r.cards}, {"cards": cards}
        if r.paid and cards > r.cards:
            # The transfer paid for fewer cards: marked again once the rest has come.
            before["paid"], after["paid"] = True, False
            r.paid = False
        r.cards = cards
        r.save(update_fields=["cards", "paid", "changed_at"])
        _log(r, "registration changed", before, after)
        serve_waiting_list(t, timezone.now())
        r.refresh_from_db()
        return r


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
    if _drawn(t) or checkin_closed(t, now):
        return []
    if Registration.objects.filter(tournament=t, status=S.OFFERED).exists():
        return []  # the first in line has the cards offered: nobody behind it is served
    offering = window_open(t, now)
    free = free_cards(t)
    served = []
    for r in Registration.objects.filter(tournament=t, status=S.WAITING).order_by("pk"):
        if r.cards > free:
            break
        r.tournament = t
        if offering:
            hours = datetime.timedelta(hours=settings.REGISTRATION_OFFER_HOURS)
            r.status, r.offered_until = S.OFFERED, min(now + hours, t.registration_closes)
            r.save(update_fields=["status", "offered_until", "changed_at"])
            until = _moment_text(r.offered_until)
            _log(r, "registration offered", None, {"cards": r.cards, "until": until}, actor)
            _notify(r, "offered")
            served.append(r)
            break
        free -= r.cards
        r.status = S.REGISTERED
        r.save(update_fields=["status", "changed_at"])
        _log(r, "registration moved up", None, {"cards": r.cards}, actor)
        _notify(r, "moved_up")
        served.append(r)
    return served


def _lapse_due(t: Tournament, now: datetime.datetime) -> int:
    """Cancel the night's offers whose ``offered_until`` has passed ("offer lapsed", told
    "cancelled") and serve the waiting list again (the caller holds the night's lock).
    Returns how many registrations changed (lapsed, offered or moved up)."""
    due = Registration.objects.select_for_update().filter(
        tournament=t, status=S.OFFERED, offered_until__lte=now
    )
    changed = 0
    for r in due.order_by("pk"):
        r.tournament = t
        r.status = S.CANCELLED
        r.save(update_fields=["status", "changed_at"])
        until = _moment_text(r.offered_until)
        _log(r, "offer lapsed", {"status": S.OFFERED, "until": until}, {"cards": r.cards}, SYSTEM)
        _notify(r, "cancelled")
        changed += 1
    if changed:
        changed += len(serve_waiting_list(t, now, SYSTEM))
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
        t, r = _locked_registration(registration)
        now = timezone.now()
        was_offered = r.offered_until is not None
        if r.status == S.REGISTERED and was_offered:
            return r  # accepted already
        expired = r.status == S.CANCELLED and was_offered and r.offered_until <= now
        if r.status == S.OFFERED:
            _check_not_drawn(t)
            r.status = S.REGISTERED
            r.save(update_fields=["status", "changed_at"])
            _log(r, "offer accepted", {"status": S.OFFERED}, {"cards": r.cards})
            _notify(r, "moved_up")
            serve_waiting_list(t, now)  # the offer no longer stands: the next in line
            return r
        if not expired:
            _check_status(r, (S.OFFERED,))
    # Raised once the lapse found by this write has committed.
    raise RuleError("registration", EXPIRED)


def decline_offer(registration: Registration) -> Registration:
    """Decline the cards offered (its private link): the registration is cancelled and
    the cards go to the next in line. A second tap changes nothing. RuleError on
    ``registration`` when it is not offered. Logged as "offer declined", told
    "cancelled"."""
    return _release(
        registration,
        S.CANCELLED,
        "offer declined",
        None,
        "cancelled",
        (S.OFFERED,),
        again=lambda r: r.offered_until is not None,  # declined (or lapsed) already
    )


# -- cancelling, confirming, refusing, releasing ---------------------------------------------


def cancel(registration: Registration, actor: Actor | None = None) -> Registration:
    """Cancel the registration (its private link, or an organiser): its cards serve the
    waiting list (``serve_waiting_list``). Cancelling a cancelled one changes nothing.
    RuleError on ``registration`` once it is checked in, refused or a no-show. Logged as
    "registration cancelled", told "cancelled". An offered registration cancelled
    declines its offer (``decline_offer``)."""
    if registration.status == S.OFFERED:
        return decline_offer(registration)
    return _release(registration, S.CANCELLED, "registration cancelled", actor, "cancelled")


def no_show(registration: Registration, actor: Actor) -> Registration:
    """Mark a registered (offered or waiting) player as not come: the registration's
    cards are released and serve the waiting list (``serve_waiting_list``). A second tap
    changes nothing. RuleError on ``registration`` once it is checked in, cancelled or
    refused. Logged as "registration no-show", told "released"."""
    return _release(registration, S.NO_SHOW, "registration no-show", actor, "released")


WITHOUT_CONFIRMATION = gettext_noop("This night takes registrations without confirmation.")


def refuse(registration: Registration, actor: Actor) -> Registration:
    """Refuse a registration (registered, offered or waiting) of a night whose organiser
    confirms each registration: its cards are released and serve the waiting list. A
    second tap changes nothing. RuleError on ``registration`` when the night does not
    confirm registrations, or the registration is checked in, cancelled or a no-show.
    Logged as "registration refused", told "refused"."""
    if not registration.tournament.confirm_registrations:
        raise RuleError("registration", WITHOUT_CONFIRMATION)
    return _release(registration, S.REFUSED, "registration refused", actor, "refused")


def _release(
    registration: Registration,
    status: str,
    action: str,
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
        t, r = _locked_registration(registration)
        if r.status == status and again(r):
            return r
        _check_status(r, statuses)
        _check_not_drawn(t)
        before = r.status
        r.status = status
        r.save(update_fields=["status", "changed_at"])
        _log(r, action, {"status": before}, {"cards": r.cards}, actor)
        _notify(r, told)
        serve_waiting_list(t, timezone.now(), actor)
        return r


def confirm(registration: Registration, actor: Actor) -> Registration:
    """Confirm a registration (registered, offered or waiting: it keeps its place) of a
    night whose organiser confirms each registration: ``confirmed_at`` is set. A second
    tap changes nothing. RuleError on ``registration`` when the night does not confirm
    registrations, or the registration is checked in, cancelled, refused or a no-show.
    Logged as "registration confirmed", told "confirmed"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        if r.confirmed_at is not None:
            return r
        if not t.confirm_registrations:
            raise RuleError("registration", WITHOUT_CONFIRMATION)
        _check_status(r)
        _check_not_drawn(t)
        _confirm(r, actor)
        return r


def _confirm(r: Registration, actor: Actor) -> None:
    r.confirmed_at = timezone.now()
    r.save(update_fields=["confirmed_at", "changed_at"])
    _log(r, "registration confirmed", None, {"cards": r.cards}, actor)
    _notify(r, "confirmed")


def check_in(registration: Registration, actor: Actor) -> list[Card]:
    """Check the registration in at the door: its cards are sold to its player (found or
    added as at the door) through ``sell_cards``, paid or not as the registration says.
    A registration not yet confirmed is confirmed by it ("registration confirmed"); an
    offered one takes its offer. A second tap returns the cards of the first. RuleError
    on ``registration`` when it waits, is cancelled, refused or a no-show; and as
    ``sell_cards`` (round 1 drawn, too many cards for the player). Logged as
    "registration checked in" beside "cards sold"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        if r.status == S.CHECKED_IN:
            return list(Card.objects.filter(sale_key=r.sale_key))
        _check_status(r, HOLDING_REGISTRATION)
        if awaits_confirmation(r):
            _confirm(r, actor)
        r.status = S.CHECKED_IN  # first, so that its cards no longer count as reserved
        r.save(update_fields=["status", "changed_at"])
        try:
            cards = sell_cards(t, r.name, r.cards, actor, r.sale_key, paid=r.paid)
        except RuleError as error:
            raise RuleError("registration", error.template, **error.params) from None
        _log(r, "registration checked in", None, {"cards": [c.number for c in cards]}, actor)
        return cards


def release_not_checked_in(tournament: Tournament, actor: Actor) -> int:
    """The desk's "release those not checked in": every registration that stands and is
    not checked in (registered, offered or waiting) becomes a no-show, its cards free for
    the door ("registration released", told "released"). Returns how many; a second tap
    finds none. RuleError on ``tournament`` once round 1 is drawn."""
    with transaction.atomic():
        t = locked(tournament)
        if _drawn(t):
            raise RuleError("tournament", gettext_noop("The draw has started."))
        _lapse_due(t, timezone.now())  # an offer past its time lapses, as ever
        return _release_absent(t, STANDING_STATUSES, actor)


def _release_absent(t: Tournament, statuses, actor: Actor) -> int:
    rows = Registration.objects.select_for_update().filter(tournament=t, status__in=statuses)
    released = 0
    for r in rows.order_by("pk"):
        r.tournament = t
        before = r.status
        r.status = S.NO_SHOW
        r.save(update_fields=["status", "changed_at"])
        _log(r, "registration released", {"status": before}, {"cards": r.cards}, actor)
        _notify(r, "released")
        released += 1
    return released


def set_paid(registration: Registration, actor: Actor, *, paid: bool) -> Registration:
    """Mark a registration paid before the night (a bank transfer, found by its
    reference) or not: its cards are sold paid or unpaid at check-in accordingly. The
    same value again changes nothing. RuleError on ``registration`` once it is checked in
    (the cards' payment is changed at the desk then), cancelled, refused or a no-show.
    Logged as "registration paid"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        if r.paid == paid:
            return r
        _check_status(r)
        _check_not_drawn(t)
        r.paid = paid
        r.save(update_fields=["paid", "changed_at"])
        _log(r, "registration paid", {"paid": not paid}, {"paid": paid}, actor)
        return r


# -- the timed work -------------------------------------------------------------------------


def expire_due(now: datetime.datetime | None = None) -> int:
    """The timed work of every night (``tournaments.jobs.tick``): offers past
    ``offered_until`` lapse and go to the next in line (``_lapse_due``); once
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
            changed += _lapse_due(t, now)
            if checkin_closed(t, now) and not _drawn(t):
                changed += _release_absent(t, STANDING_STATUSES, SYSTEM)
    return changed
