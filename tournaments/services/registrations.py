"""Writers of an announced night's registrations (issue 28): the registration window,
registering on the night's public page, changing or cancelling with the registration's
private link, the waiting list and the check-in at the door.

Words: a *registration* holds a number of cards for a player before the night; while
it is *registered* its cards are *reserved*: they count against the cards laid out as
sold cards do, so neither another registration nor a sale at the door takes them. When
the free cards (laid out, minus in play, minus reserved) do not hold a registration
whole, it *waits*: the waiting list is served in the order the registrations came in,
and a registration never jumps the one before it. Cards freed (a cancellation, fewer
cards, a no-show) move the first in line up at once, as many as then fit whole, each
kept in the club's history as "registration moved up"; nobody has to accept an offer.
*Check-in* sells a registration's cards through ``sell_cards`` (paid or not as the
registration says), so the draw takes them as any sold card; *no-show* releases them.

Every writer locks the tournament row first (``reading.locked``), so the writes of one
night, the door's sales among them, are served one after the other: of two phones that
ask for the last card at once, the second sees it taken and waits.
"""

import datetime
import uuid

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from clubs import audit
from clubs.errors import key_reused
from clubs.players import checked_name, known_player
from clubs.text import name_fold
from scoring.rules.errors import RuleError, gettext_noop
from tournaments.models import (
    ACTIVE_REGISTRATION,
    Card,
    Registration,
    RegistrationStatus,
    Round,
    Tournament,
)
from tournaments.services.cards import sell_cards
from tournaments.services.reading import count_in_play, locked
from tournaments.services.sheets import Actor

CONTACT_LENGTH = 120

S = RegistrationStatus


def reserved(tournament: Tournament) -> int:
    """The cards held by the tournament's registrations that are registered and not yet
    checked in. One query."""
    rows = Registration.objects.filter(tournament=tournament, status=S.REGISTERED)
    return rows.aggregate(n=Sum("cards"))["n"] or 0


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


def waiting_position(registration: Registration) -> int | None:
    """A waiting registration's place on the waiting list (1: the first in line); None
    for one that does not wait."""
    if registration.status != S.WAITING:
        return None
    earlier = Registration.objects.filter(
        tournament_id=registration.tournament_id, status=S.WAITING, pk__lt=registration.pk
    )
    return earlier.count() + 1


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
    ``public`` is set (on ``opens`` then). The same settings again change nothing and log
    nothing; else "registration set" in the history."""
    if public and opens is None:
        raise RuleError("opens", gettext_noop("Say when registration opens."))
    if public and closes is None:
        raise RuleError("closes", gettext_noop("Say when registration closes."))
    if opens is not None and closes is not None and closes <= opens:
        raise RuleError("closes", gettext_noop("Registration closes after it opens."))
    with transaction.atomic():
        t = locked(tournament)
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


def _window(t: Tournament) -> dict:
    def text(moment):
        return timezone.localtime(moment).isoformat(timespec="minutes") if moment else None

    return {
        "opens": text(t.registration_opens),
        "closes": text(t.registration_closes),
        "public": t.registration_public,
    }


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
    if Round.objects.live().filter(tournament=t).exists():
        raise RuleError("tournament", gettext_noop("The draw has started: registration is over."))
    now = timezone.now()
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
) -> Registration:
    """Register ``cards`` cards for the player called ``name`` (cleaned as at the door);
    ``contact``: an optional phone number or e-mail address. The registration is
    *registered* when the free cards hold it whole and nobody waits, else *waiting*.

    RuleError on ``tournament`` outside the registration window or once round 1 is drawn;
    on ``name`` (empty, too long, or a registration of that person stands already: one
    person, one registration, names compared as at the door); on ``contact`` (too long);
    on ``cards`` (below 1, past the most per player, counting cards bought at the door).
    The same ``key`` again returns the registration it made when it is the same (name,
    cards), and is refused on ``key`` when it is another. Logged as "registered"."""
    name = checked_name(name)
    contact = " ".join((contact or "").split())
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
                )
        except IntegrityError:  # the constraint behind the check above
            raise RuleError("name", DUPLICATE, name=name) from None
        _log(registration, "registered", None, {"cards": cards, "status": status})
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


def _locked_registration(registration: Registration) -> tuple[Tournament, Registration]:
    t = locked(registration.tournament)
    r = Registration.objects.select_for_update().get(pk=registration.pk)
    r.tournament = t
    return t, r


STANDING = gettext_noop("This registration stands as “%(status)s”: it can no longer be changed.")


def _check_changeable(r: Registration) -> None:
    if r.status not in (S.REGISTERED, S.WAITING):
        raise RuleError("registration", STANDING, status=r.get_status_display())


def change_cards(registration: Registration, cards: int) -> Registration:
    """Set the registration's number of cards (its private link). Fewer cards free theirs
    for the waiting list at once; more are granted only when the free cards hold them and
    nobody waits (a waiting registration just asks for more). RuleError on ``cards`` as ``register``,
    and when more cards are not free; on ``registration`` when it is checked in,
    cancelled or a no-show, or round 1 is drawn. The same number again changes nothing.
    Logged as "registration changed"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        _check_changeable(r)
        if Round.objects.live().filter(tournament=t).exists():
            raise RuleError("registration", gettext_noop("The draw has started."))
        _check_count(t, cards)
        if cards == r.cards:
            return r
        _check_held(t, r.name, cards)
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
        before = r.cards
        r.cards = cards
        r.save(update_fields=["cards", "changed_at"])
        _log(r, "registration changed", {"cards": before}, {"cards": cards})
        move_up(t)
        r.refresh_from_db()
        return r


def cancel(registration: Registration, actor: Actor | None = None) -> Registration:
    """Cancel the registration (its private link, or an organiser): its cards go to the
    waiting list at once (``move_up``). Cancelling a cancelled one changes nothing.
    RuleError on ``registration`` once it is checked in or a no-show. Logged as
    "registration cancelled"."""
    return _release(registration, S.CANCELLED, "registration cancelled", actor)


def move_up(tournament: Tournament, actor: Actor | None = None) -> list[Registration]:
    """Move waiting registrations up in their order while the free cards hold the first
    in line whole (the caller holds the tournament's lock). Returns those moved up, each
    logged as "registration moved up"."""
    moved = []
    if Round.objects.live().filter(tournament=tournament).exists():
        return moved
    free = free_cards(tournament)
    for r in Registration.objects.filter(tournament=tournament, status=S.WAITING).order_by("pk"):
        if r.cards > free:
            break
        free -= r.cards
        Registration.objects.filter(pk=r.pk).update(status=S.REGISTERED, changed_at=timezone.now())
        r.status = S.REGISTERED
        r.tournament = tournament
        _log(r, "registration moved up", None, {"cards": r.cards}, actor)
        moved.append(r)
    return moved


def check_in(registration: Registration, actor: Actor) -> list[Card]:
    """Check the registration in at the door: its cards are sold to its player (found or
    added as at the door) through ``sell_cards``, paid or not as the registration says.
    A second tap returns the cards of the first. RuleError on ``registration`` when it
    waits, is cancelled or a no-show; and as ``sell_cards`` (round 1 drawn, too many
    cards for the player). Logged as "registration checked in" beside "cards sold"."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        if r.status == S.CHECKED_IN:
            return list(Card.objects.filter(sale_key=r.sale_key))
        if r.status != S.REGISTERED:
            raise RuleError("registration", STANDING, status=r.get_status_display())
        r.status = S.CHECKED_IN  # first, so that its cards no longer count as reserved
        r.save(update_fields=["status", "changed_at"])
        try:
            cards = sell_cards(t, r.name, r.cards, actor, r.sale_key, paid=r.paid)
        except RuleError as error:
            raise RuleError("registration", error.template, **error.params) from None
        _log(r, "registration checked in", None, {"cards": [c.number for c in cards]}, actor)
        return cards


def no_show(registration: Registration, actor: Actor) -> Registration:
    """Mark a registered (or waiting) player as not come: the registration's cards are
    released at once and the waiting list moves up (``move_up``). A second tap changes
    nothing. RuleError on ``registration`` once it is checked in or cancelled. Logged as
    "registration no-show"."""
    return _release(registration, S.NO_SHOW, "registration no-show", actor)


def _release(registration: Registration, status: str, action: str, actor) -> Registration:
    """Set ``status`` (cancelled, no-show) on a registration still changeable, log
    ``action`` and move the waiting list up; the same status again changes nothing."""
    with transaction.atomic():
        t, r = _locked_registration(registration)
        if r.status == status:
            return r
        _check_changeable(r)
        before = r.status
        r.status = status
        r.save(update_fields=["status", "changed_at"])
        _log(r, action, {"status": before}, {"cards": r.cards}, actor)
        move_up(t, actor)
        return r


def set_paid(registration: Registration, actor: Actor, *, paid: bool) -> Registration:
    """Mark a registration paid before the night (a bank transfer) or not: its cards are
    sold paid or unpaid at check-in accordingly. The same value again changes nothing.
    RuleError on ``registration`` once it is checked in (the cards' payment is changed
    at the desk then), cancelled or a no-show. Logged as "registration paid"."""
    with transaction.atomic():
        _t, r = _locked_registration(registration)
        if r.paid == paid:
            return r
        _check_changeable(r)
        r.paid = paid
        r.save(update_fields=["paid", "changed_at"])
        _log(r, "registration paid", {"paid": not paid}, {"paid": paid}, actor)
        return r


def expire_due(now: datetime.datetime | None = None) -> int:
    """Stub: offers past ``offered_until`` go to the next in line, and registrations not
    checked in by ``checkin_closes`` release their cards. Returns how many changed."""
    return 0
