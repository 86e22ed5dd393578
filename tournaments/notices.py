"""Mails to registered players (issue 28), sent by the task worker in the player's
language (``Registration.language``, else ``settings.LANGUAGE_CODE``).

Mail goes out only when ``mail_on``: a mail server is named (``EMAIL_HOST``, from
``DJANGO_EMAIL_HOST``) or the mail backend is another than Django's SMTP one (the test
run's in-memory backend), and the site's address for the mail's links is known
(``base.links.site_base``). Without that, nothing is sent and the registration's
private link (``/p/r/<token>/``) shows everything a mail would say. A mail goes only to a
registration whose ``contact`` is an e-mail address (Django's ``EmailValidator``); a
phone number gets none.

What goes out:

- ``notify``: one mail per event of a registration (made, on the waiting list, confirmed,
  refused, cards offered, moved up, cancelled, released), queued by the writers once
  their transaction committed; the task (``send``) reads the registration afresh and
  sends what is true then, or nothing when the event no longer holds (``EVENT_HOLDS``).
- ``send_reminders``: the day before (at most 24 hours before the start), one reminder
  per registration that holds or is offered cards (``tournaments.jobs.tick``).
- ``tell_tables``: when round 1 of the night is drawn, where each card of a checked-in
  registration plays (table and opponent, or its bye).

Every mail is plain text: a subject and a body rendered from ``templates/mail/``, sent
through ``base.mail.send`` (the site's sender and Message-ID).
"""

import datetime
import logging
import smtplib
from dataclasses import dataclass

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from base.links import site_base
from base.mail import mail_address, mail_on
from base.mail import send as send_mail_of_site
from base.tasks import enqueue
from tournaments import venue_lists
from tournaments.models import Card, Registration, RegistrationStatus, Tournament
from tournaments.rows import rows
from tournaments.services.counts import waiting_position
from tournaments.services.reading import load_state

log = logging.getLogger(__name__)

S = RegistrationStatus

EVENT_HOLDS = {
    "registered": (S.REGISTERED, S.WAITING, S.OFFERED),
    "waiting": (S.WAITING,),
    "confirmed": (S.REGISTERED,),
    "refused": (S.REFUSED,),
    "offered": (S.OFFERED,),
    "moved_up": (S.REGISTERED,),
    "cancelled": (S.CANCELLED,),
    "released": (S.WAITING, S.CANCELLED, S.NO_SHOW),
}
"""Each event ``notify`` takes, and the statuses in which its mail is still sent when
the task runs: a registration that moved on since (a waiting one moved up, an offer
taken or run out) gets the mail of that later event instead. "registered" is the
confirmation of a new registration and is sent while it stands, with its status then;
"confirmed" also needs ``confirmed_at``, "offered" an ``offered_until`` still ahead;
"released" (cards let go without the player cancelling: an offer run out, a no-show)
holds while the registration holds no cards."""

REMINDED = (S.REGISTERED, S.OFFERED)
"""The statuses of the registrations reminded the day before."""


def notify(registration_id: int, what: str) -> None:
    """Tell a registration's player what happened to it: when ``mail_on`` and its contact
    is an e-mail address, queue the task ``send`` (one mail); else do nothing (also for
    a registration that is gone). ``what`` is a key of ``EVENT_HOLDS`` ("registered",
    "waiting", "confirmed", "refused", "offered", "moved_up", "cancelled", "released");
    ValueError for another. Called by the registration writers after their transaction
    commits (``transaction.on_commit``). One query."""
    if what not in EVENT_HOLDS:
        raise ValueError(f"no such registration event: {what!r}")
    if not mail_on():
        return
    contact = Registration.objects.filter(pk=registration_id).values_list("contact", flat=True)
    if mail_address(contact.first() or "") is None:
        return
    enqueue(
        "tournaments.notices.send", registration_id, what, name=f"mail {what} {registration_id}"
    )


def send(registration_id: int, what: str) -> bool:
    """The task behind ``notify``: read the registration afresh and send its mail for
    ``what`` when the event still holds (``EVENT_HOLDS``). True when a mail went out;
    False when the registration is gone, has no e-mail address (any more), the event
    no longer holds or mail is off. Errors of the mail server are raised (the worker
    logs the task as failed)."""
    r = _registration(registration_id)
    if r is None or not mail_on() or not _holds(r, what):
        return False
    return _send(r, what) == 1


def _registration(registration_id: int) -> Registration | None:
    return (
        Registration.objects.select_related("tournament__club").filter(pk=registration_id).first()
    )


def _holds(r: Registration, what: str) -> bool:
    if r.status not in EVENT_HOLDS.get(what, ()):
        return False
    if what == "confirmed":
        return r.confirmed_at is not None
    if what == "offered":
        return r.offered_until is not None and r.offered_until > timezone.now()
    return True


def send_reminders(now=None) -> int:
    """Remind the players of nights that start within a day (after ``now``, default the
    present, and at most 24 hours later): each registration registered or offered
    cards, with an e-mail address and not yet reminded, gets one mail ("Morgen um
    19:00 …", "Heute um …"). ``reminded_at`` is set by a conditional UPDATE before its
    mail goes out, so that of two workers at once only one sends it; a mail the server
    refuses is logged and not tried again. Returns how many mails went out (0 while
    ``mail_on`` is false). Called by ``tournaments.jobs.tick``."""
    if not mail_on():
        return 0
    now = now or timezone.now()
    due = Registration.objects.filter(
        tournament__starts_at__gt=now,
        tournament__starts_at__lte=now + datetime.timedelta(hours=24),
        status__in=REMINDED,
        reminded_at__isnull=True,
        contact__contains="@",  # the rest are phone numbers; the address is checked below
    )
    sent = 0
    for pk in due.order_by("pk").values_list("pk", flat=True):
        claimed = Registration.objects.filter(
            pk=pk, reminded_at__isnull=True, status__in=REMINDED
        ).update(reminded_at=now)
        if not claimed:
            continue  # another worker reminds it, or it changed meanwhile
        r = _registration(pk)
        if r is None:
            continue
        try:
            sent += _send(r, "reminder", now=now)
        except (smtplib.SMTPException, OSError):
            log.exception("reminder of registration %s not sent", pk)
    return sent


def tell_tables(tournament_id: int) -> int:
    """After round 1 of the night is drawn, tell each checked-in registration with an
    e-mail address where its cards play: per card, table (or match) and opponent
    ("Deine Karte 12 spielt an Tisch 3 gegen Karte 7 (Ben)"), its bye (Freilos) or its
    walkover, as *Wo spiele ich?* shows them. Reads the night afresh: nothing is sent
    when round 1 is no longer the latest round drawn (undone, or a later one drawn),
    or while ``mail_on`` is false. Returns how many mails went out; a mail the server
    refuses is logged and the others still go. Queued by the draw writer
    (``services.draws``) when round 1 of a main bracket commits."""

    t = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if t is None or not mail_on():
        return 0
    state = load_state(t)
    current = state.current
    if current is None or current.number != 1 or current.drawn_at is None:
        return 0
    seats = {s.card.pk: s for s in venue_lists.seats(state)}
    byes = {c.pk for c in venue_lists.byes(state)}
    walkovers = {}  # card id -> the card of the same player that goes on
    for row in rows(state, state.pairings[current.pk]):
        if row.kind == "walkover" and row.winner is not None:
            for card in (row.left, row.right):
                # the loser only when it is the winner's holder's (not a withdrawn card)
                if card is not None and card.player_id == row.winner.player_id:
                    walkovers[card.pk] = row.winner
    sent = 0
    checked_in = Registration.objects.filter(tournament=t, status=S.CHECKED_IN).order_by("pk")
    for r in checked_in:
        if mail_address(r.contact) is None:
            continue
        r.tournament = t
        cards = sorted(
            (c for c in state.cards.values() if c.sale_key == r.sale_key), key=lambda c: c.number
        )
        plays = [_Play(c, seats.get(c.pk), c.pk in byes, walkovers.get(c.pk)) for c in cards]
        plays = [p for p in plays if p.seat or p.bye or p.goes_on]
        if not plays:
            continue
        try:
            sent += _send(r, "tables", plays=plays)
        except (smtplib.SMTPException, OSError):
            log.exception("tables of registration %s not sent", r.pk)
    return sent


@dataclass(frozen=True)
class _Play:
    """Where one card of a registration plays in round 1 (``tell_tables``)."""

    card: Card
    seat: venue_lists.Seat | None = None  # of its open match
    bye: bool = False
    goes_on: Card | None = None  # of a walkover (two cards of one player): the card that goes on

    @property
    def text(self) -> str:
        """The card's line, in the active language."""
        number = self.card.number
        if self.bye:
            return _("Your card %(card)s has a bye (Freilos) this round.") % {"card": number}
        if self.seat is None and self.goes_on is not None:
            if self.goes_on.pk == self.card.pk:
                return _("Your card %(card)s goes through without a match (walkover).") % {
                    "card": number
                }
            return _(
                "Your card %(card)s met your own card %(other)s: card %(other)s goes on (walkover)."
            ) % {"card": number, "other": self.goes_on.number}
        seat = self.seat
        assert seat is not None  # a card without a bye or walkover has its seat
        named = {"card": number, "other": seat.other.number, "name": seat.other.player.name}
        if seat.row.table:
            line = _(
                "Your card %(card)s plays at table %(table)s against card %(other)s (%(name)s)."
            )
            line %= named | {"table": seat.row.table}
        else:
            line = _("Your card %(card)s plays against card %(other)s (%(name)s): %(match)s.")
            line %= named | {"match": seat.row.name}
        return f"{line} ({seat.order_text})" if seat.order_text else line


def _language(r: Registration) -> str:
    """The registration's language as one of ``settings.LANGUAGES``, else the site's."""
    try:
        return translation.get_supported_language_variant(r.language or settings.LANGUAGE_CODE)
    except LookupError:
        return settings.LANGUAGE_CODE


def _send(r: Registration, what: str, **extra) -> int:
    """Render and send the mail ``what`` (an event, "reminder" or "tables") of ``r`` in
    its language; 1 when sent, 0 without an e-mail address or a site address."""
    address = mail_address(r.contact)
    base = site_base()
    if address is None or base is None:
        return 0
    with translation.override(_language(r)):
        subject, body = render(r, what, base, **extra)
    send_mail_of_site(subject, body, [address])
    return 1


def headline(what: str, starts_at, now=None) -> str:
    """The first words of a mail's subject for ``what``, in the active language:
    "Anmeldung erhalten", "Auf der Warteliste", …; a reminder's "Morgen um 19:00" or
    "Heute um 19:00" (the night's local start against ``now``'s local date)."""
    if what == "reminder":
        starts = timezone.localtime(starts_at)
        today = timezone.localtime(now or timezone.now()).date()
        time = starts.strftime("%H:%M")
        if starts.date() == today:
            return _("Today at %(time)s") % {"time": time}
        return _("Tomorrow at %(time)s") % {"time": time}
    return {
        "registered": _("Registration received"),
        "waiting": _("On the waiting list"),
        "confirmed": _("Registration confirmed"),
        "refused": _("Registration not accepted"),
        "offered": _("Cards free for you"),
        "moved_up": _("You moved up"),
        "cancelled": _("Registration cancelled"),
        "released": _("Your cards were released"),
        "tables": _("The night starts"),
    }[what]


def status_text(r: Registration) -> str:
    """The registration's status in words, in the active language: "angemeldet",
    "auf der Warteliste, Platz 2", "angemeldet, wartet auf die Bestätigung des
    Organisators", "bestätigt", "Karten angeboten, für dich reserviert bis 12.12.2026
    18:00", …"""
    if r.status == S.REGISTERED and r.tournament.confirm_registrations:
        if r.confirmed_at is None:
            return _("registered, awaiting the organiser's confirmation")
        return _("confirmed")
    if r.status == S.WAITING:
        return _("on the waiting list, place %(n)s") % {"n": waiting_position(r)}
    if r.status == S.OFFERED and r.offered_until is not None:
        until = timezone.localtime(r.offered_until).strftime("%d.%m.%Y %H:%M")
        return _("cards offered, held for you until %(until)s") % {"until": until}
    if r.status == S.REFUSED:
        return _("not accepted by the organiser")
    if r.status == S.NO_SHOW:
        return _("did not come: the cards were released")
    return r.get_status_display()


def render(r: Registration, what: str, base: str, plays=(), now=None) -> tuple[str, str]:
    """(subject, body) of the mail ``what`` of registration ``r`` in the active language:
    the subject is the headline, the night's name and date ("Anmeldung erhalten:
    Preisschnapsen, 12.12.2026"); the body (``templates/mail/registration.txt``) names
    the club, the night (date, time, venue), the cards, the status in words, the bank
    transfer (account, cards × entry fee, reference) while the night takes prepayment
    and the registration holds cards unpaid, the private link on ``base`` and, for
    "tables", each card's line (``plays``)."""
    t = r.tournament
    starts = timezone.localtime(t.starts_at)
    title = headline(what, t.starts_at, now)
    subject = " ".join(f"{title}: {t.name}, {starts:%d.%m.%Y}".split())  # one header line
    holds_cards = r.status in (S.REGISTERED, S.OFFERED) and not (
        t.confirm_registrations and r.status == S.REGISTERED and r.confirmed_at is None
    )
    context = {
        "registration": r,
        "tournament": t,
        "club": t.club,
        "what": what,
        "title": title,
        "today": starts.date() == timezone.localtime(now or timezone.now()).date(),
        "starts": starts,
        "status": status_text(r),
        "offered_until": (
            timezone.localtime(r.offered_until).strftime("%d.%m.%Y %H:%M")
            if r.offered_until
            else ""
        ),
        "transfer": bool(t.transfer_to) and holds_cards and not r.paid,
        "paid": r.paid and r.status in (S.REGISTERED, S.OFFERED, S.CHECKED_IN),
        "amount": t.entry_fee * r.cards,
        "link": base + reverse("registration_link", kwargs={"token": r.token}),
        "seats_link": base + reverse("public_seats", kwargs={"token": t.public_token}),
        "plays": [p.text for p in plays],
    }
    body = render_to_string("mail/registration.txt", context)
    return subject, body
