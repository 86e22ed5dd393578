"""Signing up for an announced Preisschnapsen night (issue 28): the organiser's
registration window and terms (confirmation, the account for prepayment, the close of
check-in), registering on the night's public page, and changing the number of cards with
the registration's private link. The words and the waiting list are in
``services.registrations`` and ``services.waiting_list``.
"""

import datetime
import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from base.errors import RuleError, gettext_noop, key_reused
from base.text import name_fold
from clubs import audit
from clubs.audit import Action
from clubs.players import checked_name, known_player
from tournaments.models import (
    ACTIVE_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Tournament,
)
from tournaments.services.counts import free_cards
from tournaments.services.reading import locked
from tournaments.services.registrations import (
    CONTACT_LENGTH,
    TRANSFER_LENGTH,
    check_not_drawn,
    check_status,
    checkin_closed,
    clean_contact,
    log_registration,
    moment_text,
    round_drawn,
    tell_player,
    window_open,
)
from tournaments.services.sheets import Actor
from tournaments.services.waiting_list import lapse_due, locked_registration, serve_waiting_list

S = RegistrationStatus


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
        lapse_due(t, timezone.now())
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
                Action.REGISTRATION_SET,
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
        lapse_due(t, timezone.now())
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
                Action.REGISTRATION_TERMS_SET,
                actor=actor,
                before=before,
                after=after,
            )
        return t


def _window(t: Tournament) -> dict:
    return {
        "opens": moment_text(t.registration_opens),
        "closes": moment_text(t.registration_closes),
        "public": t.registration_public,
    }


def _terms(t: Tournament) -> dict:
    return {
        "confirm": t.confirm_registrations,
        "transfer_to": t.transfer_to,
        "checkin_closes": moment_text(t.checkin_closes),
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
    if round_drawn(t):
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
    actor: Actor | None = None,
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
    cards), and is refused on ``key`` when it is another. Logged as "registered", by
    ``actor`` (None: the holder of the public form's link); the player is told
    "registered" or "waiting"."""
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
        lapse_due(t, now)
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
        log_registration(
            registration, Action.REGISTERED, None, {"cards": cards, "status": status}, actor
        )
        tell_player(registration, "registered" if status == S.REGISTERED else "waiting")
        return registration


def change_cards(registration: Registration, cards: int) -> Registration:
    """Set the registration's number of cards (its private link). Fewer cards free theirs
    for the waiting list (``serve_waiting_list``); more are granted only when the free
    cards hold them and nobody waits (a waiting registration just asks for more).
    RuleError on ``cards`` as ``register``, and when more cards are not free; on
    ``registration`` when it is offered (accept or decline first), checked in, cancelled,
    refused or a no-show, or round 1 is drawn. The same number again changes nothing.
    Logged as "registration changed"."""
    with transaction.atomic():
        t, r = locked_registration(registration)
        check_status(r, (S.REGISTERED, S.WAITING))
        check_not_drawn(t)
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
        log_registration(r, Action.REGISTRATION_CHANGED, before, after)
        serve_waiting_list(t, timezone.now())
        r.refresh_from_db()
        return r
