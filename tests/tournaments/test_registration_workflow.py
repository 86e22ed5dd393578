"""The registration workflow of an announced night (issue 28): the organiser's terms
(confirmation, bank account, close of check-in), confirming and refusing, the bank
transfer's reference, the timed waiting-list offer, the release of those not checked in
and the player's notices. Web tests through the Django test client on the run's
database, beside service tests of the timed work."""

import datetime
import threading
import uuid

import pytest
from django.conf import settings
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from clubs.forms import rule_error_text
from clubs.models import AuditEntry
from scoring.rules import RuleError
from tests import factories
from tests.tournaments.test_registrations import post_registration, registered
from tournaments import notices
from tournaments.models import Card, Registration
from tournaments.services import checkin, counts, signup, waiting_list
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.layout import lower_cards
from tournaments.services.sheets import Actor

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


@pytest.fixture
def told(transactional_db, settings):
    """``told()``: the mails the players got so far, as (registration's name, event), in
    order. They are the real mails of ``tournaments.notices``, through Django's in-memory
    outbox: each write of the test commits (a transactional test), so its notices are sent
    then, by the task run at once (``TASKS_SYNC``), as the worker sends them after the
    commit. The event is read back from the subject's first words (``notices.headline``)."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://bummerl.example.org"
    settings.TASKS_SYNC = True
    events = {}
    for language in ("de", "en"):
        with translation.override(language):
            events |= {notices.headline(what, None): what for what in notices.EVENT_HOLDS}

    def run():
        sent = []
        for message in mail.outbox:
            (address,) = message.to
            name = Registration.objects.get(contact=address).name
            (what,) = [w for h, w in events.items() if message.subject.startswith(h + ":")]
            sent.append((name, what))
        return sent

    return run


def desk(t) -> Client:
    client = Client()
    client.force_login(factories.user(t.club, role="organiser"))
    return client


def desk_url(t, name="registrations") -> str:
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk})


def tap(client, r, action):
    """An organiser's tap on the desk's row of ``r``, followed to the desk."""
    url = reverse(
        "registration_action",
        kwargs={
            "slug": r.tournament.club.slug,
            "tournament_id": r.tournament_id,
            "registration_id": r.pk,
            "action": action,
        },
    )
    return client.post(url, follow=True)


def link(r) -> str:
    return reverse("registration_link", kwargs={"token": r.token})


def answer(r, action):
    """The player's tap on his private link (accept, decline, cancel)."""
    return Client().post(link(r), {"action": action})


def actions(t) -> list[tuple[str, str]]:
    """The night's registration history as (action, name), in order."""
    rows = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk).order_by("pk")
    return [(e.action, e.after.get("name")) for e in rows if "registration" in (e.after or {})]


def full_night(confirm=False):
    """A night of 8 cards: A 3, B 3 and C 2 registered (8 of 8 held), D 2 and E 1 wait;
    ``confirm``: the organiser confirms each registration."""
    t = factories.announced_night(cards=8, max_cards=3)
    signup.set_registration_terms(t, Actor(), confirm=confirm, transfer_to="", checkin_closes=None)
    for name, cards in (("A", 3), ("B", 3), ("C", 2), ("D", 2), ("E", 1)):
        signup.register(t, name=name, cards=cards, contact=f"{name.lower()}@example.org")
    return t


def past(r, minutes=1):
    """Let the offer of ``r`` run out: its deadline ``minutes`` ago."""
    until = timezone.now() - datetime.timedelta(minutes=minutes)
    Registration.objects.filter(pk=r.pk).update(offered_until=until)


def status(t, names):
    return [registered(t, n).status for n in names]


# -- 1. the organiser's terms ------------------------------------------------------------


def test_the_organiser_sets_confirmation_bank_account_and_checkin_close_logged_once():
    t = factories.announced_night()
    client = desk(t)
    url = desk_url(t, "registration_terms")
    data = {"confirm": "on", "transfer_to": " SV Kreuz  AT61 1904 ", "checkin_closes": ""}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302  # the same again: nothing logged
    t.refresh_from_db()
    assert (t.confirm_registrations, t.transfer_to, t.checkin_closes) == (
        True,
        "SV Kreuz AT61 1904",
        None,
    )
    entries = AuditEntry.objects.filter(scope_id=t.pk, action="registration terms set")
    assert [(e.before, e.after) for e in entries] == [
        (
            {"confirm": False, "transfer_to": "", "checkin_closes": None},
            {"confirm": True, "transfer_to": "SV Kreuz AT61 1904", "checkin_closes": None},
        )
    ]
    closes = timezone.localtime(t.registration_opens + 30 * HOUR).strftime("%Y-%m-%dT%H:%M")
    client.post(url, {"transfer_to": "", "checkin_closes": closes})
    t.refresh_from_db()
    assert timezone.localtime(t.checkin_closes).strftime("%Y-%m-%dT%H:%M") == closes
    assert AuditEntry.objects.filter(scope_id=t.pk, action="registration terms set").count() == 2
    page = client.get(desk_url(t)).content.decode()
    assert "Bestätigung, Überweisung und Check-in" in page
    assert f'action="{url}"' in page


def test_the_terms_say_what_is_wrong_on_their_fields():
    t = factories.announced_night()
    client = desk(t)
    url = desk_url(t, "registration_terms")
    early = timezone.localtime(t.registration_opens - HOUR).strftime("%Y-%m-%dT%H:%M")
    refused = client.post(url, {"transfer_to": "x", "checkin_closes": early})
    assert refused.status_code == 200
    assert refused.context["terms_form"].errors == {
        "checkin_closes": ["Der Check-in schließt nach dem Beginn der Anmeldung."]
    }
    long = client.post(url, {"transfer_to": "x" * 201, "checkin_closes": ""})
    assert list(long.context["terms_form"].errors) == ["transfer_to"]
    t.refresh_from_db()
    assert (t.transfer_to, t.checkin_closes) == ("", None)
    assert not AuditEntry.objects.filter(scope_id=t.pk, action="registration terms set").exists()


def test_the_window_cannot_open_after_check_in_closes():
    t = factories.announced_night()
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="", checkin_closes=timezone.now() + HOUR
    )
    with pytest.raises(RuleError) as refused:
        signup.set_registration(
            t,
            Actor(),
            opens=timezone.now() + 2 * HOUR,
            closes=timezone.now() + 3 * HOUR,
            public=True,
        )
    assert refused.value.field == "opens"


# -- 2. confirming and refusing ----------------------------------------------------------


def test_a_night_that_confirms_shows_the_registration_waiting_and_the_desk_confirms_it_once(told):
    t = factories.announced_night()
    signup.set_registration_terms(t, Actor(), confirm=True, transfer_to="", checkin_closes=None)
    post_registration(factories.phone(), t, "Anna", 2, contact="anna@example.org")
    r = registered(t, "Anna")
    assert (r.status, r.confirmed_at) == ("registered", None)
    assert counts.count_reserved(t) == 2  # held as any registration
    page = Client().get(link(r)).content.decode()
    assert "Angemeldet · wartet auf Bestätigung." in page
    client = desk(t)
    listing = client.get(desk_url(t)).content.decode()
    assert "wartet auf Bestätigung" in listing and ">Bestätigen</button>" in listing
    tap(client, r, "confirm")
    tap(client, r, "confirm")  # a double tap confirms once
    r.refresh_from_db()
    assert r.confirmed_at is not None
    assert "wartet auf Bestätigung" not in Client().get(link(r)).content.decode()
    assert ">Bestätigen</button>" not in client.get(desk_url(t)).content.decode()
    assert actions(t) == [("registered", "Anna"), ("registration confirmed", "Anna")]
    assert told() == [("Anna", "registered"), ("Anna", "confirmed")]


def test_without_the_setting_a_registration_is_confirmed_when_it_is_made_and_not_refused():
    t = factories.announced_night()
    post_registration(factories.phone(), t, "Ben", 1)
    r = registered(t, "Ben")
    assert r.confirmed_at is not None
    assert "wartet auf Bestätigung" not in Client().get(link(r)).content.decode()
    page = tap(desk(t), r, "refuse").content.decode()
    assert "Dieser Abend nimmt Anmeldungen ohne Bestätigung an." in page
    assert registered(t, "Ben").status == "registered"


def test_a_refused_registration_frees_its_cards_for_the_waiting_list(told):
    t = full_night(confirm=True)
    client = desk(t)
    tap(client, registered(t, "C"), "refuse")
    tap(client, registered(t, "C"), "refuse")  # a retried post refuses once
    assert status(t, "CDE") == ["refused", "offered", "waiting"]
    tap(client, registered(t, "E"), "refuse")  # a waiting registration can be refused too
    assert registered(t, "E").status == "refused"
    assert counts.count_reserved(t) == 8
    assert [a for a in actions(t) if a[0] != "registered"] == [
        ("registration refused", "C"),
        ("registration offered", "D"),
        ("registration refused", "E"),
    ]
    assert told()[-3:] == [("C", "refused"), ("D", "offered"), ("E", "refused")]


def test_check_in_confirms_an_unconfirmed_registration():
    t = factories.announced_night()
    signup.set_registration_terms(t, Actor(), confirm=True, transfer_to="", checkin_closes=None)
    r = signup.register(t, name="Cilli", cards=1)
    page = tap(desk(t), r, "check-in").content.decode()
    assert "Cilli eingecheckt: Karte 1" in page
    r.refresh_from_db()
    assert r.status == "checked_in" and r.confirmed_at is not None
    assert [a for a, _ in actions(t)] == [
        "registered",
        "registration confirmed",
        "registration checked in",
    ]


def test_a_checked_in_players_link_shows_his_cards_and_where_he_plays():
    t = factories.announced_night()
    sell_cards(t, "Anna", 2, Actor(), paid=True)  # cards 1 and 2
    r = signup.register(t, name="Cilli Öhler", cards=2)
    assert "Deine Karte" not in Client().get(link(r)).content.decode()
    checkin.check_in(r, Actor())
    page = Client().get(link(r)).content.decode()
    seats = reverse("public_seats", kwargs={"token": t.public_token})
    assert "Deine Karten: 3, 4." in page
    assert f'<a href="{seats}?q=Cilli%20%C3%96hler">Wo spiele ich?</a>' in page


def test_the_desk_finds_a_registration_by_its_name_with_oe_for_oe_umlaut_and_ss_for_sz():
    t = factories.announced_night()
    for name in ("Cilli Öhler", "Franz Strauß", "Goethe"):
        signup.register(t, name=name, cards=1)
    client = desk(t)
    for query, names in (
        ("oehler", ["Cilli Öhler"]),
        ("CILLI OE", ["Cilli Öhler"]),
        ("strauss", ["Franz Strauß"]),
        ("Göthe", ["Goethe"]),
        ("Ohler", ["Cilli Öhler"]),
    ):
        found = client.get(desk_url(t), {"q": query})
        assert [r.name for r in found.context["registrations"]] == names, query


# -- 3. the bank transfer ------------------------------------------------------------------


def test_the_private_page_shows_the_account_amount_and_reference_and_the_desk_finds_it():
    t = factories.announced_night(entry_fee=12)
    signup.set_registration_terms(
        t,
        Actor(),
        confirm=False,
        transfer_to="SV Kreuz, AT61 1904 3002 3457 3201",
        checkin_closes=None,
    )
    post_registration(factories.phone(), t, "Dora", 2)
    r = registered(t, "Dora")
    assert len(r.reference) == 12 and r.reference.startswith("BU-")
    page = Client().get(link(r)).content.decode()
    assert "SV Kreuz, AT61 1904 3002 3457 3201" in page
    assert "€ 24,00" in page
    assert f'<strong id="reference">{r.reference}</strong>' in page
    client = desk(t)
    listing = client.get(desk_url(t)).content.decode()
    assert f'<td class="reference">{r.reference}</td>' in listing
    signup.register(t, name="Emil", cards=1)
    typed = r.reference.lower().replace("-", "")  # as read off a bank statement
    for query in (typed, r.reference[3:].replace("-", " ").lower(), r.reference):
        found = client.get(desk_url(t), {"q": query})
        assert [x.name for x in found.context["registrations"]] == ["Dora"], query
    client.post(
        reverse(
            "registration_action",
            kwargs={
                "slug": t.club.slug,
                "tournament_id": t.pk,
                "registration_id": r.pk,
                "action": "paid",
            },
        ),
        {"paid": "1"},
    )
    r.refresh_from_db()
    assert r.paid is True


def test_a_night_without_a_bank_account_shows_no_transfer():
    t = factories.announced_night()
    post_registration(factories.phone(), t, "Franz", 1)
    page = Client().get(link(registered(t, "Franz"))).content.decode()
    assert 'id="transfer"' not in page


# -- 4. the timed waiting-list offer ----------------------------------------------------------


def test_freed_cards_are_offered_to_the_first_in_line_with_a_deadline_and_held_for_it(settings):
    settings.REGISTRATION_OFFER_HOURS = 2
    t = full_night()
    before = timezone.now()
    answer(registered(t, "C"), "cancel")
    d = registered(t, "D")
    assert status(t, "DE") == ["offered", "waiting"]
    assert before + 2 * HOUR <= d.offered_until <= timezone.now() + 2 * HOUR
    assert counts.count_reserved(t) == 8  # A 3, B 3, D's 2 offered
    page = Client().get(link(d)).content.decode()
    until = timezone.localtime(d.offered_until).strftime("%d.%m.%Y %H:%M")
    assert f"2 Karten sind für dich frei geworden: sie sind bis {until} für dich reserviert." in (
        page
    )
    assert ">Annehmen</button>" in page and ">Ablehnen</button>" in page
    sold = desk(t).post(
        desk_url(t, "sell"), {"key": str(uuid.uuid4()), "name": "Door", "count": 1, "paid": "on"}
    )
    assert "Nur noch 0 von 8 Karten frei" in sold.content.decode()
    listing = desk(t).get(desk_url(t)).content.decode()
    assert f"Karten angeboten bis {timezone.localtime(d.offered_until):%d.%m. %H:%M}" in listing


def test_an_offer_ends_no_later_than_the_close_of_registration(settings):
    settings.REGISTRATION_OFFER_HOURS = 24
    t = full_night()
    closes = timezone.now() + HOUR
    signup.set_registration(t, Actor(), opens=t.registration_opens, closes=closes, public=True)
    checkin.cancel(registered(t, "C"))
    assert registered(t, "D").offered_until == closes


def test_accepting_an_offer_registers_once_unconfirmed_when_the_night_confirms(told):
    t = full_night(confirm=True)
    checkin.cancel(registered(t, "C"))
    d = registered(t, "D")
    first = answer(d, "accept")
    second = answer(d, "accept")  # a double tap acts once
    assert first.status_code == second.status_code == 302
    d.refresh_from_db()
    assert (d.status, d.confirmed_at) == ("registered", None)
    page = Client().get(link(d)).content.decode()
    assert "Angemeldet · wartet auf Bestätigung." in page
    assert [a for a in actions(t) if a[0] == "offer accepted"] == [("offer accepted", "D")]
    assert told().count(("D", "moved_up")) == 1
    # E is now first in line, and 0 cards are free: he waits on.
    assert registered(t, "E").status == "waiting"


def test_only_the_first_in_line_is_offered_and_nobody_jumps_it():
    t = full_night()
    checkin.cancel(registered(t, "A"))  # 3 free: D (2) is offered, E (1) would fit too
    assert status(t, "DE") == ["offered", "waiting"]
    waiting_list.accept_offer(registered(t, "D"))
    assert status(t, "DE") == ["registered", "offered"]  # then the next in line


def test_declining_cancels_and_offers_to_the_next(told):
    t = full_night()
    checkin.cancel(registered(t, "C"))
    answer(registered(t, "D"), "decline")
    answer(registered(t, "D"), "decline")  # again: nothing more
    assert status(t, "DE") == ["cancelled", "offered"]
    assert [a for a, _ in actions(t)][-3:] == [
        "registration offered",
        "offer declined",
        "registration offered",
    ]
    assert told()[-3:] == [("D", "offered"), ("D", "cancelled"), ("E", "offered")]


def test_an_offer_that_lapses_goes_to_the_next_in_line(told):
    t = full_night()
    checkin.cancel(registered(t, "C"))
    past(registered(t, "D"))
    assert checkin.expire_due() == 2  # D lapsed, E offered
    assert checkin.expire_due() == 0
    assert status(t, "DE") == ["cancelled", "offered"]
    lapsed = AuditEntry.objects.get(scope_id=t.pk, action="offer lapsed")
    assert (lapsed.actor_id, lapsed.via_link, lapsed.after["name"]) == (None, False, "D")
    assert told()[-2:] == [("D", "cancelled"), ("E", "offered")]
    history = desk(t).get(desk_url(t, "tournament_history")).content.decode()
    assert "Angebot abgelaufen" in history and "Karten von der Warteliste angeboten" in history


def test_an_accept_after_the_deadline_is_refused_and_the_offer_goes_on():
    t = full_night()
    checkin.cancel(registered(t, "C"))
    d = registered(t, "D")
    past(d)
    refused = answer(d, "accept")
    assert refused.status_code == 400
    assert "Das Angebot ist abgelaufen." in refused.content.decode()
    assert status(t, "DE") == ["cancelled", "offered"]
    assert "offer accepted" not in [a for a, _ in actions(t)]
    again = answer(d, "accept")
    assert "Das Angebot ist abgelaufen." in again.content.decode()
    page = Client().get(link(registered(t, "E"))).content.decode()
    assert ">Annehmen</button>" in page


def test_a_page_past_the_deadline_shows_the_offer_expired_without_buttons():
    t = full_night()
    checkin.cancel(registered(t, "C"))
    past(registered(t, "D"))
    page = Client().get(link(registered(t, "D"))).content.decode()
    assert "Das Angebot ist abgelaufen." in page and ">Annehmen</button>" not in page


def test_once_registration_has_closed_freed_cards_move_the_first_in_line_up_at_once(told):
    t = full_night()
    now = timezone.now()
    signup.set_registration(t, Actor(), opens=now - 3 * HOUR, closes=now - HOUR, public=True)
    checkin.no_show(registered(t, "A"), Actor())  # 3 free: D (2) and E (1) move up
    assert status(t, "DE") == ["registered", "registered"]
    assert [a for a, _ in actions(t)][-2:] == ["registration moved up", "registration moved up"]
    assert told()[-2:] == [("D", "moved_up"), ("E", "moved_up")]


def test_a_due_offer_lapses_before_any_writer_of_the_night():
    t = full_night()
    checkin.cancel(registered(t, "C"))
    past(registered(t, "D"))
    signup.register(t, name="Gerti", cards=1)  # the night's next write lapses it first
    assert status(t, "DE") == ["cancelled", "offered"]
    # E's card is held for him: Gerti takes the one still free, jumping nobody.
    assert registered(t, "Gerti").status == "registered"


@pytest.mark.django_db(transaction=True)
def test_two_registrations_racing_for_freed_cards_the_first_in_line_gets_them():
    t = full_night()
    barrier = threading.Barrier(2)
    errors = []

    def run(work):
        try:
            barrier.wait()
            work()
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()

    works = (
        lambda: checkin.cancel(registered(t, "C")),
        lambda: signup.register(t, name="Xaver", cards=2, key=uuid.uuid4()),
    )
    threads = [threading.Thread(target=run, args=(w,)) for w in works]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert status(t, ["D", "E", "Xaver"]) == ["offered", "waiting", "waiting"]
    assert counts.count_reserved(t) == 8


# -- the close of check-in and the desk's release --------------------------------------------


def test_at_the_close_of_check_in_those_not_checked_in_are_released_and_sold_at_the_door(told):
    t = full_night()
    checkin.cancel(registered(t, "C"))  # D offered
    checkin.check_in(registered(t, "A"), Actor())
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="", checkin_closes=timezone.now() + HOUR
    )
    assert checkin.expire_due() == 0  # not yet
    assert checkin.expire_due(now=timezone.now() + 2 * HOUR) == 3
    assert checkin.expire_due(now=timezone.now() + 2 * HOUR) == 0
    # E waited: the waiting list is no longer served, so he is told he is released too.
    assert status(t, "ABDE") == ["checked_in", "no_show", "no_show", "no_show"]
    released = AuditEntry.objects.filter(scope_id=t.pk, action="registration released")
    assert sorted(e.after["name"] for e in released) == ["B", "D", "E"]
    assert told()[-3:] == [("B", "released"), ("D", "released"), ("E", "released")]
    # Check-in has closed: their cards are free for the door, not for the waiting list.
    sold = desk(t).post(
        desk_url(t, "sell"),
        {"key": str(uuid.uuid4()), "name": "Door", "count": 3, "paid": "on"},
        follow=True,
    )
    assert sold.status_code == 200
    assert Card.objects.filter(tournament=t, player__name="Door").count() == 3


def test_the_close_of_check_in_releases_nothing_once_round_1_is_drawn():
    t = factories.announced_night(cards=8, max_cards=3)
    for name, cards in (("Anna", 3), ("Ben", 2), ("Cilli", 1)):
        signup.register(t, name=name, cards=cards)
    checkin.check_in(registered(t, "Anna"), Actor())
    checkin.check_in(registered(t, "Ben"), Actor())
    draw_round(t, Actor())
    t.checkin_closes = timezone.now() - HOUR
    t.save(update_fields=["checkin_closes"])
    assert checkin.expire_due() == 0
    assert registered(t, "Cilli").status == "registered"


@pytest.mark.django_db(transaction=True)
def test_expire_due_run_twice_at_once_releases_each_registration_once():
    t = full_night()
    checkin.cancel(registered(t, "C"))
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="", checkin_closes=timezone.now() - HOUR / 2
    )
    past(registered(t, "D"))
    barrier = threading.Barrier(2)
    changed, errors = [], []

    def run():
        try:
            barrier.wait()
            changed.append(checkin.expire_due())
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(changed) == 4  # D lapsed, A and B released, and E who waited
    assert status(t, "ABDE") == ["no_show", "no_show", "cancelled", "no_show"]
    assert AuditEntry.objects.filter(scope_id=t.pk, action="offer lapsed").count() == 1
    assert AuditEntry.objects.filter(scope_id=t.pk, action="registration released").count() == 3


def test_the_desk_releases_everyone_not_checked_in_after_asking():
    t = full_night()
    client = desk(t)
    checkin.check_in(registered(t, "A"), Actor())
    listing = client.get(desk_url(t)).content.decode()
    assert 'data-confirm="4 nicht eingecheckte Anmeldungen freigeben?' in listing
    done = client.post(desk_url(t, "registrations_release"), follow=True).content.decode()
    assert "4 Anmeldungen freigegeben." in done
    assert status(t, "ABCDE") == ["checked_in"] + ["no_show"] * 4
    again = client.post(desk_url(t, "registrations_release"), follow=True).content.decode()
    assert "0 Anmeldungen freigegeben." in again
    assert 'id="release"' not in again
    assert AuditEntry.objects.filter(scope_id=t.pk, action="registration released").count() == 4
    assert counts.free_cards(t) == 5


# -- lowering the cards laid out, notices, the player's language ----------------------------


def test_lowering_below_the_cards_in_play_and_held_is_refused_naming_the_held_cards():
    t = factories.announced_night(cards=32, max_cards=3)
    for i in range(5):
        sell_cards(t, f"P{i}", 1, Actor(), uuid.uuid4(), paid=True)
    signup.register(t, name="Anna", cards=3)
    signup.register(t, name="Ben", cards=1)
    with pytest.raises(RuleError) as refused:
        lower_cards(t, Actor())
    assert rule_error_text(refused.value) == (
        "4 Karten sind für Anmeldungen reserviert, die noch nicht eingecheckt sind: mit 5 "
        "Karten im Spiel können die aufgelegten Karten nicht auf 8 sinken. Checke sie "
        "zuerst ein oder gib sie frei."
    )
    checkin.cancel(registered(t, "Ben"))
    checkin.cancel(registered(t, "Anna"))
    assert lower_cards(t, Actor()) == 8


def test_the_player_is_told_after_each_event_in_his_language(told):
    t = full_night()
    assert told() == [
        ("A", "registered"),
        ("B", "registered"),
        ("C", "registered"),
        ("D", "waiting"),
        ("E", "waiting"),
    ]
    english = factories.phone()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the site's language switch
    post_registration(english, t, "Hugo")
    assert registered(t, "Hugo").language == "en"
    post_registration(factories.phone(), t, "Ida")
    assert registered(t, "Ida").language == "de-at"


def test_the_task_workers_tick_lapses_due_offers():
    from tournaments import jobs

    t = full_night()
    checkin.cancel(registered(t, "C"))
    past(registered(t, "D"))
    jobs.tick()
    assert status(t, "DE") == ["cancelled", "offered"]


def test_the_desks_release_lets_a_due_offer_lapse_rather_than_release_it():
    t = full_night()
    checkin.cancel(registered(t, "C"))
    past(registered(t, "D"))
    assert checkin.release_not_checked_in(t, Actor()) == 3  # A, B and E; D lapsed first
    assert status(t, "ABDE") == ["no_show", "no_show", "cancelled", "no_show"]
    assert AuditEntry.objects.filter(scope_id=t.pk, action="offer lapsed").count() == 1
