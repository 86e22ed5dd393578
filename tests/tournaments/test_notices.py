"""Mails to registered players (issue 28, ``tournaments.notices``): one per event of a
registration, the reminder the day before, where the cards play once round 1 is drawn;
in the player's language, only with a mail server and to an e-mail address, sent by
the task (run at once in the test run, ``TASKS_SYNC``) into Django's in-memory outbox."""

import datetime
import re
import threading
import zoneinfo

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.db.models import Q
from django.utils import timezone
from django_q.models import Schedule

from base import links
from base.text import name_fold
from tests import factories
from tournaments import notices
from tournaments.models import Card, Pairing, Registration
from tournaments.rows import pairing_name
from tournaments.services import checkin, signup
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state, physical_session
from tournaments.services.sheets import Actor

pytestmark = pytest.mark.django_db

VIENNA = zoneinfo.ZoneInfo("Europe/Vienna")
SITE = "https://bummerl.example.org"
ACCOUNT = "Schnapsclub Ottakring, AT61 1904 3002 3457 3201"
WEEKDAYS_DE = ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"]
WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


@pytest.fixture(autouse=True)
def mail_on(settings):
    """Mail through the in-memory backend, links on the site's address, tasks at once."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.EMAIL_HOST = ""
    settings.SITE_URL = SITE
    settings.TASKS_SYNC = True


def night(starts_at=None, **fields):
    """A night of a new club at the Gasthaus Zur Post, 8 cards at € 12 each, prepaid to
    the club's account; by default it starts in three days at 19:00 Vienna time."""
    if starts_at is None:
        day = timezone.localdate() + datetime.timedelta(days=3)
        starts_at = datetime.datetime.combine(day, datetime.time(19, 0), VIENNA)
    values = {"venue": "Gasthaus Zur Post", "entry_fee": 12, "transfer_to": ACCOUNT} | fields
    return factories.tournament(factories.club(), cards=8, starts_at=starts_at, **values)


def registration(t, name, status="registered", contact=None, cards=2, **fields):
    """A registration as the writers leave it (made here directly, in any status)."""
    return Registration.objects.create(
        tournament=t,
        name=name,
        name_fold=name_fold(name),
        contact=f"{name.lower()}@example.org" if contact is None else contact,
        cards=cards,
        status=status,
        **fields,
    )


def when_de(t) -> str:
    starts = timezone.localtime(t.starts_at)
    return f"{WEEKDAYS_DE[starts.weekday()]}, {starts:%d.%m.%Y}, {starts:%H:%M}"


def when_en(t) -> str:
    starts = timezone.localtime(t.starts_at)
    return f"{WEEKDAYS_EN[starts.weekday()]}, {starts:%d.%m.%Y}, {starts:%H:%M}"


def date_of(t) -> str:
    return timezone.localtime(t.starts_at).strftime("%d.%m.%Y")


def link_of(r) -> str:
    return f"{SITE}/p/r/{r.token}/"


def only_mail():
    assert len(mail.outbox) == 1, [m.subject for m in mail.outbox]
    return mail.outbox[0]


# -- 1. a registration's events ------------------------------------------------------


def test_a_new_registration_gets_its_mail_in_german_with_the_night_the_transfer_and_its_link():
    t = night()
    r = registration(t, "Anna")
    notices.notify(r.pk, "registered")
    sent = only_mail()
    assert sent.to == ["anna@example.org"]
    assert sent.subject == f"Anmeldung erhalten: Test, {date_of(t)}"
    body = sent.body
    assert body.startswith("Servus Anna,\n\nDanke für deine Anmeldung zu diesem Abend.\n")
    assert "\nStatus: angemeldet\n" in body
    assert f"\nVerein: {t.club.name}\n" in body
    assert "\nAbend: Test\n" in body
    assert f"\nWann: {when_de(t)}\n" in body
    assert "\nWo: Gasthaus Zur Post\n" in body
    assert "\nKarten: 2\n" in body
    assert (
        f"Bitte überweise € 24,00 an {ACCOUNT}, mit der Zahlungsreferenz {r.reference}."
    ) in body
    assert f"ansehen, ändern, absagen):\n{link_of(r)}\n" in body
    # The site's signature, sender and Message-ID (base.mail.send), on the site's host.
    assert f"\n-- \nBummerl · {t.club.name}\nDu bekommst diese Mail," in body
    host = SITE.split("//")[1]
    assert sent.from_email == f"Bummerl <bummerl@{host}>"
    assert sent.message()["Message-ID"].endswith(f"@{host}>")


def test_a_new_registration_in_english_gets_its_mail_in_english():
    t = night()
    r = registration(t, "Anna", language="en")
    notices.notify(r.pk, "registered")
    sent = only_mail()
    assert sent.subject == f"Registration received: Test, {date_of(t)}"
    body = sent.body
    assert body.startswith("Hello Anna,\n\nThank you for registering for this night.\n")
    assert "\nStatus: registered\n" in body
    assert f"\nClub: {t.club.name}\n" in body
    assert "\nNight: Test\n" in body
    assert f"\nWhen: {when_en(t)}\n" in body
    assert "\nWhere: Gasthaus Zur Post\n" in body
    assert "\nCards: 2\n" in body
    assert f"Please transfer €24.00 to {ACCOUNT}, with the payment reference {r.reference}." in (
        body
    )
    assert f"(see it, change it, cancel it):\n{link_of(r)}\n" in body


EVENTS = [
    # event, status, fields, German (subject, first line, status), English (the same)
    (
        "waiting",
        "waiting",
        {},
        (
            "Auf der Warteliste",
            "Alle Karten sind vergeben: deine Anmeldung steht auf der Warteliste.",
            "auf der Warteliste, Platz 2",
        ),
        (
            "On the waiting list",
            "All cards are taken: your registration is on the waiting list.",
            "on the waiting list, place 2",
        ),
    ),
    (
        "confirmed",
        "registered",
        {"confirmed_at": timezone.now()},
        (
            "Anmeldung bestätigt",
            "Der Organisator hat deine Anmeldung bestätigt.",
            "bestätigt",
        ),
        ("Registration confirmed", "The organiser confirmed your registration.", "confirmed"),
    ),
    (
        "refused",
        "refused",
        {},
        (
            "Anmeldung abgelehnt",
            "Der Organisator hat deine Anmeldung abgelehnt.",
            "vom Organisator abgelehnt",
        ),
        (
            "Registration not accepted",
            "The organiser did not accept your registration.",
            "not accepted by the organiser",
        ),
    ),
    (
        "offered",
        "offered",
        {"offered_until": datetime.datetime(2099, 12, 11, 18, 0, tzinfo=VIENNA)},
        (
            "Karten für dich frei",
            "Es sind Karten frei geworden: sie sind bis 11.12.2099 18:00 für dich reserviert.",
            "Karten angeboten, für dich reserviert bis 11.12.2099 18:00",
        ),
        (
            "Cards free for you",
            "Cards were freed: they are held for you until 11.12.2099 18:00.",
            "cards offered, held for you until 11.12.2099 18:00",
        ),
    ),
    (
        "moved_up",
        "registered",
        {},
        (
            "Du bist nachgerückt",
            "Es sind Karten frei geworden: du bist von der Warteliste nachgerückt und jetzt "
            "angemeldet.",
            "angemeldet",
        ),
        (
            "You moved up",
            "Cards were freed: you moved up from the waiting list and are registered now.",
            "registered",
        ),
    ),
    (
        "cancelled",
        "cancelled",
        {},
        ("Anmeldung abgesagt", "Deine Anmeldung ist abgesagt.", "abgesagt"),
        ("Registration cancelled", "Your registration is cancelled.", "cancelled"),
    ),
    (
        "released",
        "no_show",
        {},
        (
            "Deine Karten wurden freigegeben",
            "Deine Karten für diesen Abend wurden freigegeben: sie können jetzt an andere gehen.",
            "nicht erschienen: die Karten wurden freigegeben",
        ),
        (
            "Your cards were released",
            "Your cards for this night were released: they may go to others now.",
            "did not come: the cards were released",
        ),
    ),
]


@pytest.mark.parametrize("language", ["de-at", "en"])
@pytest.mark.parametrize(("what", "status", "fields", "german", "english"), EVENTS)
def test_each_event_has_its_subject_first_line_and_status_in_german_and_english(
    language, what, status, fields, german, english
):
    t = night(confirm_registrations=what == "confirmed")
    registration(t, "Ben", status)  # first in line where Anna waits
    r = registration(t, "Anna", status, language=language, **fields)
    notices.notify(r.pk, what)
    subject, first, standing = german if language == "de-at" else english
    sent = only_mail()
    assert sent.subject == f"{subject}: Test, {date_of(t)}"
    assert sent.body.split("\n")[2].startswith(first)
    assert f"\nStatus: {standing}\n" in sent.body
    assert link_of(r) in sent.body


def test_cards_offered_say_until_when_and_ask_for_an_answer_on_the_link():
    t = night()
    until = datetime.datetime(2099, 12, 11, 18, 0, tzinfo=VIENNA)
    r = registration(t, "Anna", "offered", offered_until=until)
    notices.notify(r.pk, "offered")
    assert only_mail().body.split("\n")[2] == (
        "Es sind Karten frei geworden: sie sind bis 11.12.2099 18:00 für dich reserviert. "
        "Sag bis dahin über deinen persönlichen Link zu; danach gehen sie an den Nächsten "
        "auf der Warteliste."
    )


def test_awaiting_confirmation_is_said_and_asks_for_no_transfer_yet():
    t = night(confirm_registrations=True)
    r = registration(t, "Anna")
    notices.notify(r.pk, "registered")
    body = only_mail().body
    assert "\nStatus: angemeldet, wartet auf die Bestätigung des Organisators\n" in body
    assert "überweise" not in body


def test_a_paid_registration_is_thanked_and_a_night_without_prepayment_asks_for_none():
    paid = registration(night(), "Anna", paid=True)
    notices.notify(paid.pk, "registered")
    body = only_mail().body
    assert "\nBezahlt: danke.\n" in body and "überweise" not in body
    mail.outbox.clear()
    unpaid = registration(night(transfer_to="", venue=""), "Ben")
    notices.notify(unpaid.pk, "registered")
    body = only_mail().body
    assert "überweise" not in body and "Bezahlt" not in body
    assert "\nWo:" not in body


def test_a_registration_changed_since_gets_what_is_true_now():
    t = night()
    registration(t, "Ben", "waiting")
    r = registration(t, "Anna", "waiting")  # made registered, waiting when the task runs
    notices.notify(r.pk, "registered")
    body = only_mail().body
    assert "\nStatus: auf der Warteliste, Platz 2\n" in body


@pytest.mark.parametrize(
    ("what", "status", "fields"),
    [
        ("offered", "registered", {}),  # taken meanwhile
        ("offered", "offered", {"offered_until": timezone.now() - datetime.timedelta(hours=1)}),
        ("waiting", "registered", {}),  # moved up meanwhile
        ("confirmed", "registered", {}),  # not confirmed (any more)
        ("moved_up", "cancelled", {}),
        ("registered", "cancelled", {}),
        ("refused", "registered", {}),
        ("released", "registered", {}),
    ],
)
def test_no_mail_for_an_event_that_no_longer_holds(what, status, fields):
    r = registration(night(confirm_registrations=True), "Anna", status, **fields)
    notices.notify(r.pk, what)
    assert mail.outbox == []
    assert notices.send(r.pk, what) is False


def test_no_mail_for_a_registration_that_is_gone():
    r = registration(night(), "Anna")
    pk = r.pk
    r.delete()
    notices.notify(pk, "registered")
    assert notices.send(pk, "registered") is False
    assert mail.outbox == []


def test_an_unknown_event_is_refused():
    r = registration(night(), "Anna")
    with pytest.raises(ValueError, match="no such registration event: 'paid'"):
        notices.notify(r.pk, "paid")


# -- 2. when no mail goes out --------------------------------------------------------


def queued(monkeypatch) -> list:
    calls = []
    monkeypatch.setattr(notices, "enqueue", lambda *args, **kwargs: calls.append(args))
    return calls


@pytest.mark.parametrize("contact", ["+43 660 1234567", "", "anna@", "anna at example.org"])
def test_no_mail_and_no_task_for_a_contact_that_is_no_mail_address(monkeypatch, contact):
    r = registration(night(), "Anna", contact=contact)
    calls = queued(monkeypatch)
    notices.notify(r.pk, "registered")
    assert calls == []
    assert notices.send(r.pk, "registered") is False
    assert mail.outbox == []


def test_an_e_mail_contact_queues_one_task_named_for_the_event(monkeypatch):
    r = registration(night(), "Anna")
    calls = queued(monkeypatch)
    notices.notify(r.pk, "waiting")
    assert calls == [("tournaments.notices.send", r.pk, "waiting")]


def test_without_a_mail_server_nothing_is_sent_nor_queued(monkeypatch, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = ""
    r = registration(night(), "Anna")
    calls = queued(monkeypatch)
    notices.notify(r.pk, "registered")
    assert calls == [] and notices.mail_on() is False
    assert notices.send(r.pk, "registered") is False
    assert mail.outbox == []
    settings.EMAIL_HOST = "mail.example.org"
    assert notices.mail_on() is True


def test_without_an_address_for_the_link_nothing_is_sent(settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    r = registration(night(), "Anna")
    notices.notify(r.pk, "registered")
    assert notices.mail_on() is False and mail.outbox == []


def test_without_a_site_address_the_link_is_on_the_first_host_named(settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = [".example.org", "bummerl.example.org", "www.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    assert links.site_base() == "https://bummerl.example.org"
    r = registration(night(), "Anna")
    notices.notify(r.pk, "registered")
    assert f"\nhttps://bummerl.example.org/p/r/{r.token}/\n" in only_mail().body
    settings.SECURE_SSL_REDIRECT = False
    assert links.site_base() == "http://bummerl.example.org"
    settings.ALLOWED_HOSTS = [".example.org"]
    assert links.site_base() is None


# -- 3. the reminder the day before --------------------------------------------------


def reminder_night():
    """A night on 11 December 2099 at 19:00 (Vienna) with Anna registered, Ben offered
    cards, Clara cancelled, Dora registered with a phone number and Emil waiting."""
    t = night(starts_at=datetime.datetime(2099, 12, 11, 19, 0, tzinfo=VIENNA))
    until = datetime.datetime(2099, 12, 11, 12, 0, tzinfo=VIENNA)
    registration(t, "Anna")
    registration(t, "Ben", "offered", offered_until=until, language="en")
    registration(t, "Clara", "cancelled")
    registration(t, "Dora", contact="+43 660 1234567")
    registration(t, "Emil", "waiting")
    return t


def test_the_day_before_each_registered_or_offered_player_gets_one_reminder():
    t = reminder_night()
    now = datetime.datetime(2099, 12, 10, 20, 0, tzinfo=VIENNA)
    assert notices.send_reminders(now) == 2
    by_address = {m.to[0]: m for m in mail.outbox}
    assert sorted(by_address) == ["anna@example.org", "ben@example.org"]
    anna = by_address["anna@example.org"]
    assert anna.subject == "Morgen um 19:00: Test, 11.12.2099"
    assert anna.body.split("\n")[2] == "Zur Erinnerung: der Abend beginnt morgen um 19:00."
    assert "\nStatus: angemeldet\n" in anna.body
    ben = by_address["ben@example.org"]
    assert ben.subject == "Tomorrow at 19:00: Test, 11.12.2099"
    assert ben.body.split("\n")[2] == "A reminder: the night starts tomorrow at 19:00."
    assert "\nStatus: cards offered, held for you until 11.12.2099 12:00\n" in ben.body
    reminded = Registration.objects.filter(tournament=t).exclude(reminded_at=None)
    assert sorted(reminded.values_list("name", flat=True)) == ["Anna", "Ben"]
    assert notices.send_reminders(now) == 0  # called again: nobody twice
    assert notices.send_reminders(now + datetime.timedelta(hours=13)) == 0
    assert len(mail.outbox) == 2


def test_on_the_day_itself_the_reminder_says_today():
    reminder_night()
    now = datetime.datetime(2099, 12, 11, 9, 0, tzinfo=VIENNA)
    assert notices.send_reminders(now) == 2
    anna = next(m for m in mail.outbox if m.to == ["anna@example.org"])
    assert anna.subject == "Heute um 19:00: Test, 11.12.2099"
    assert anna.body.split("\n")[2] == "Zur Erinnerung: der Abend beginnt heute um 19:00."


def test_no_reminder_for_a_night_more_than_a_day_away_or_started_or_without_mail(settings):
    reminder_night()
    assert notices.send_reminders(datetime.datetime(2099, 12, 10, 18, 59, tzinfo=VIENNA)) == 0
    assert notices.send_reminders(datetime.datetime(2099, 12, 11, 19, 0, tzinfo=VIENNA)) == 0
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert notices.send_reminders(datetime.datetime(2099, 12, 10, 20, 0, tzinfo=VIENNA)) == 0
    assert mail.outbox == []
    assert not Registration.objects.exclude(reminded_at=None).exists()


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_each_reminder_once():
    t = night(starts_at=datetime.datetime(2099, 12, 11, 19, 0, tzinfo=VIENNA))
    for i in range(6):
        registration(t, f"Spieler{i}", cards=1)
    now = datetime.datetime(2099, 12, 10, 20, 0, tzinfo=VIENNA)
    barrier = threading.Barrier(2)
    counts, errors = [], []

    def worker():
        try:
            barrier.wait()
            counts.append(notices.send_reminders(now))
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(counts) == 6
    assert sorted(m.to[0] for m in mail.outbox) == [f"spieler{i}@example.org" for i in range(6)]


# -- 4. the night starts: where the cards play ---------------------------------------


def checked_in_night():
    """A night of 8 cards at 4 tables, registration open: Anna (3 cards, e-mail, English
    for Ben below) and Ben (1 card, phone) register and are checked in, Clara (e-mail)
    is registered but not checked in, and three cards are sold at the door."""
    now = timezone.now()
    t = night(starts_at=now + datetime.timedelta(hours=1), tables=4)
    signup.set_registration(
        t,
        Actor(),
        opens=now - datetime.timedelta(hours=1),
        closes=now + datetime.timedelta(minutes=30),
        public=True,
    )
    anna = signup.register(t, name="Anna", cards=3, contact="anna@example.org")
    ben = signup.register(t, name="Ben", cards=1, contact="+43 660 1234567")
    signup.register(t, name="Clara", cards=1, contact="clara@example.org")
    for r in (anna, ben):
        checkin.check_in(r, Actor())
    for name in ("Dora", "Emil"):
        sell_cards(t, name, 1, Actor(), paid=True)
    return t, Registration.objects.get(pk=anna.pk)


def expected_lines(t, r) -> list[str]:
    """What the mail says of each of ``r``'s cards, read from round 1's pairings."""
    state = load_state(t)
    tables = state.tables()
    lines = []
    round_1 = Pairing.objects.live().filter(round__number=1, tournament=t)
    for card in Card.objects.filter(sale_key=r.sale_key).order_by("number"):
        pairing = round_1.get(Q(left=card) | Q(right=card))
        if pairing.kind == "bye":
            lines.append(f"Deine Karte {card.number} hat in dieser Runde ein Freilos.")
            continue
        other = pairing.right if pairing.left_id == card.pk else pairing.left
        lines.append(
            f"Deine Karte {card.number} spielt an Tisch {tables[pairing.pk]} gegen Karte "
            f"{other.number} ({other.player.name})."
        )
    return lines


def test_when_round_1_is_drawn_each_checked_in_player_with_a_mail_learns_table_and_opponent(
    django_capture_on_commit_callbacks,
):
    t, anna = checked_in_night()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        draw_round(t, Actor(), seed=5)
    assert len(callbacks) == 1
    sent = only_mail()
    assert sent.to == ["anna@example.org"]
    assert sent.subject == f"Der Abend beginnt: Test, {date_of(t)}"
    lines = expected_lines(t, anna)
    assert len(lines) == 3
    assert any("Freilos" in line for line in lines)  # 6 cards of 8: two byes
    assert any("spielt an Tisch" in line for line in lines)
    body = sent.body
    assert body.split("\n")[2] == "Der Abend beginnt: die erste Runde ist ausgelost."
    shown = [line[2:] for line in body.split("\n") if line.startswith("- ")]
    assert [strip_order(line) for line in shown] == lines
    assert f"\nWo spiele ich? {SITE}/p/{t.public_token}/seats/\n" in body
    assert "\nStatus: eingecheckt\n" in body
    assert link_of(anna) in body
    assert notices.tell_tables(t.pk) == 1  # told again: the same mail


def strip_order(line: str) -> str:
    """A card's line without the order of a player's several matches, which follows it
    in brackets ("… (Ben). (1. von 2 Partien)")."""
    if not line.endswith(")"):
        return line
    line, order = line.rsplit(". (", 1)
    assert re.fullmatch(r"\d\. von \d Partien(, nach Tisch \d)?\)", order), order
    return line + "."


def test_the_table_mail_is_in_the_players_language():
    t, anna = checked_in_night()
    Registration.objects.filter(pk=anna.pk).update(language="en")
    draw_round(t, Actor(), seed=5)  # the test's transaction: the callback is not run
    assert mail.outbox == []
    assert notices.tell_tables(t.pk) == 1
    sent = only_mail()
    assert sent.subject == f"The night starts: Test, {date_of(t)}"
    shown = [line[2:] for line in sent.body.split("\n") if line.startswith("- ")]
    assert len(shown) == 3
    assert all(line.startswith("Your card ") for line in shown)
    assert any(line.endswith("has a bye (Freilos) this round.") for line in shown)


def test_no_table_mail_once_round_1_is_undone_or_before_it_is_drawn():
    t, _anna = checked_in_night()
    assert notices.tell_tables(t.pk) == 0
    round_1 = draw_round(t, Actor(), seed=5)
    undo_draw(t, round_1.pk, Actor())
    assert notices.tell_tables(t.pk) == 0
    assert mail.outbox == []


def test_without_mail_no_table_mail_is_queued(settings, django_capture_on_commit_callbacks):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    t, _anna = checked_in_night()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        draw_round(t, Actor(), seed=5)
    assert callbacks == []
    assert notices.tell_tables(t.pk) == 0


# -- 5. the schedule of the timed work -----------------------------------------------


def test_seed_sets_up_one_schedule_of_the_timed_work_every_five_minutes():
    call_command("seed", "--no-demo", verbosity=0)
    call_command("seed", "--no-demo", verbosity=0)
    schedules = Schedule.objects.filter(func="tournaments.jobs.tick")
    assert schedules.count() == 1
    tick = schedules.get()
    assert (tick.schedule_type, tick.minutes, tick.repeats) == (Schedule.MINUTES, 5, -1)
    Schedule.objects.filter(pk=tick.pk).update(minutes=60)
    Schedule.objects.create(func="tournaments.jobs.tick", schedule_type=Schedule.HOURLY)
    call_command("seed", "--no-demo", verbosity=0)
    assert list(schedules.values_list("pk", "minutes")) == [(tick.pk, 5)]


def one_card_night(**fields):
    """A night of 8 cards where Anna (e-mail) and five others hold one card each, all
    checked in or sold at the door, and registration has closed."""
    now = timezone.now()
    t = night(starts_at=now + datetime.timedelta(hours=1), **fields)
    signup.set_registration(
        t,
        Actor(),
        opens=now - datetime.timedelta(hours=1),
        closes=now + datetime.timedelta(minutes=30),
        public=True,
    )
    anna = signup.register(t, name="Anna", cards=1, contact="anna@example.org")
    checkin.check_in(anna, Actor())
    for name in ("Ben", "Clara", "Dora", "Emil", "Franz"):
        sell_cards(t, name, 1, Actor(), paid=True)
    return t, Registration.objects.get(pk=anna.pk)


def test_a_draw_at_the_venue_tells_the_tables_once_its_last_pull_is_typed(
    django_capture_on_commit_callbacks,
):
    t, anna = one_card_night(tables=2)
    round_1 = start_physical_draw(t, Actor())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        while True:
            state = load_state(t)
            session = physical_session(state, state.in_progress or round_1)
            if session.done:
                break
            add_pull(t, round_1.pk, session.allowed()[0], Actor())
    assert len(callbacks) == 1
    sent = only_mail()
    shown = [line[2:] for line in sent.body.split("\n") if line.startswith("- ")]
    assert shown == expected_lines(t, anna)


def test_without_tables_the_line_names_the_match():
    t, anna = one_card_night()
    draw_round(t, Actor(), seed=2)
    assert notices.tell_tables(t.pk) == 1
    card = Card.objects.get(sale_key=anna.sale_key)
    pairing = Pairing.objects.live().get(Q(left=card) | Q(right=card), round__number=1)
    shown = [line[2:] for line in only_mail().body.split("\n") if line.startswith("- ")]
    assert pairing.kind == "match"  # with this seed Anna plays in round 1
    other = pairing.right if pairing.left_id == card.pk else pairing.left
    assert pairing_name(pairing) == f"Viertelfinale, Partie {pairing.number}"
    assert shown == [
        f"Deine Karte {card.number} spielt gegen Karte {other.number} "
        f"({other.player.name}): Viertelfinale, Partie {pairing.number}."
    ]


def test_a_consolations_round_1_tells_no_tables(django_capture_on_commit_callbacks):
    t, _anna = one_card_night()
    consolation = factories.tournament(t.club, cards=8, sold=5, parent=t)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        draw_round(consolation, Actor(), seed=1)
    assert callbacks == []


def test_a_walkover_of_two_cards_of_one_player_says_which_goes_on():
    """Only a draw at the venue can pair two cards of one player (the digital draw keeps
    them apart); the lines of both cards, as ``tell_tables`` writes them."""
    anna = factories.players(factories.club(), "Anna")[0]
    first, second = (Card(pk=pk, number=pk, player=anna) for pk in (4, 9))
    assert notices._Play(first, goes_on=first).text == ("Deine Karte 4 kommt kampflos weiter.")
    assert notices._Play(second, goes_on=first).text == (
        "Deine Karte 9 trifft auf deine eigene Karte 4: Karte 4 kommt kampflos weiter."
    )
