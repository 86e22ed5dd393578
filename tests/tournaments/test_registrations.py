"""An announced night (issue 28): the registration window, registering on the night's
public page, the registration's private link, the waiting list and the check-in at the
door. Web tests through the Django test client on the run's database."""

import datetime
import itertools
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Player
from tests import factories
from tests.markup import squeezed
from tournaments.models import Card, Registration
from tournaments.nights import upcoming_nights
from tournaments.services import counts, signup
from tournaments.services.cards import sell_cards
from tournaments.services.counts import waiting_position
from tournaments.services.draws import draw_round
from tournaments.services.reading import load_state
from tournaments.services.sheets import Actor
from tournaments.services.withdrawals import withdraw_card

pytestmark = pytest.mark.django_db

_address = itertools.count(1)


def post_registration(client, t, name, cards=1, contact="", key=None):
    url = reverse("register", kwargs={"token": t.public_token})
    data = {"key": key or str(uuid.uuid4()), "name": name, "cards": cards, "contact": contact}
    return client.post(url, data)


def registered(t, name) -> Registration:
    return Registration.objects.get(tournament=t, name=name)


# -- 1. the announced night --------------------------------------------------------------


def test_the_nights_public_page_shows_the_night_and_the_form_while_the_window_is_open():
    t = factories.announced_night(entry_fee=12)
    page = Client().get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    starts = timezone.localtime(t.starts_at)
    assert starts.strftime("%d.%m.%Y") in page
    assert starts.strftime("%H:%M") in page
    assert "Karten (K.-o.)" in page
    assert "Partien auf 2 Bummerl" in page
    assert "höchstens 3" in page
    assert "€ 12,00 pro Karte" in page
    assert "1. Platz: 40 %" in page and "2. Platz: Schinken" in page
    assert "8 Karten sind noch frei." in page
    assert f'action="{reverse("register", kwargs={"token": t.public_token})}"' in page


def test_a_night_not_open_to_the_public_shows_no_form_and_its_register_page_is_404():
    t = factories.tournament(factories.club())
    page = Client().get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert 'name="contact"' not in page
    assert Client().get(reverse("register", kwargs={"token": t.public_token})).status_code == 404


def test_the_window_closes_after_it_opens_and_says_so_on_its_field():
    t = factories.announced_night()
    owner = factories.user(t.club, role="organiser")
    client = Client()
    client.force_login(owner)
    url = reverse("registration_window", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    answer = client.post(
        url, {"opens": "2026-12-10T18:00", "closes": "2026-12-09T18:00", "public": "on"}
    )
    assert answer.status_code == 200
    assert answer.context["form"].errors == {
        "closes": ["Die Anmeldung schließt nach ihrem Beginn."]
    }
    answer = client.post(url, {"opens": "2026-12-01T18:00", "closes": "2026-12-09T18:00"})
    assert answer.status_code == 302
    t.refresh_from_db()
    assert timezone.localtime(t.registration_closes).strftime("%d.%m.%Y %H:%M") == (
        "09.12.2026 18:00"
    )
    assert t.registration_public is False
    entry = (
        AuditEntry.objects.filter(scope_id=t.pk, action="registration set").order_by("pk").last()
    )
    assert entry.after == {
        "opens": "2026-12-01T18:00+01:00",
        "closes": "2026-12-09T18:00+01:00",
        "public": False,
    }
    assert entry.actor_id == owner.pk


# -- 2. registering ------------------------------------------------------------------------


def test_a_player_registers_and_his_link_shows_changes_and_cancels_it():
    t = factories.announced_night()
    answer = post_registration(factories.phone(), t, "  anna  huber ", 2, "0664 123")
    r = registered(t, "anna huber")
    assert answer.status_code == 302
    assert answer["Location"] == reverse("registration_link", kwargs={"token": r.token})
    assert (r.cards, r.status, r.contact, r.name_fold) == (
        2,
        "registered",
        "0664 123",
        "anna huber",
    )
    page = Client().get(answer["Location"]).content.decode()
    assert "Angemeldet." in page and "2 Karten" in page
    link = answer["Location"]
    assert Client().post(link, {"action": "cards", "cards": 3}).status_code == 302
    assert registered(t, "anna huber").cards == 3
    refused = Client().post(link, {"action": "cards", "cards": 4})
    assert refused.status_code == 400
    assert "Ein Spieler hat höchstens 3 Karten." in refused.content.decode()
    assert Client().post(link, {"action": "cancel"}).status_code == 302
    assert Client().post(link, {"action": "cancel"}).status_code == 302  # again: no change
    assert registered(t, "anna huber").status == "cancelled"
    actions = list(
        AuditEntry.objects.filter(scope="tournament", scope_id=t.pk)
        .exclude(action__in=["tournament created", "registration set"])
        .values_list("action", flat=True)
        .order_by("pk")
    )
    assert actions == ["registered", "registration changed", "registration cancelled"]
    assert "0664" not in str(AuditEntry.objects.filter(scope_id=t.pk).values_list("after"))


def test_the_same_person_registers_once_in_any_case_and_spacing():
    t = factories.announced_night()
    post_registration(factories.phone(), t, "Anna Huber")
    again = post_registration(factories.phone(), t, "ANNA   huber")
    assert again.status_code == 400
    assert again.context["register_form"].errors == {
        "name": [
            "Anna Huber ist für diesen Abend schon angemeldet: ändere diese Anmeldung mit "
            "ihrem persönlichen Link."
        ]
    }
    assert Registration.objects.filter(tournament=t).count() == 1


def test_a_repeated_post_with_the_same_key_registers_once():
    t = factories.announced_night()
    key = str(uuid.uuid4())
    first = post_registration(factories.phone(), t, "Ben", 1, key=key)
    second = post_registration(factories.phone(), t, "Ben", 1, key=key)
    assert first["Location"] == second["Location"]
    assert Registration.objects.filter(tournament=t).count() == 1
    other = post_registration(factories.phone(), t, "Carla", 1, key=key)
    assert other.status_code == 400
    assert Registration.objects.filter(tournament=t).count() == 1


def test_registration_outside_the_window_or_past_the_limit_is_refused_with_the_reason():
    t = factories.announced_night(max_cards=2)
    too_many = post_registration(factories.phone(), t, "Dora", 3)
    assert too_many.context["register_form"].errors == {
        "cards": ["Ein Spieler hat höchstens 2 Karten."]
    }
    empty = post_registration(factories.phone(), t, "   ", 1)
    assert empty.context["register_form"].errors == {
        "name": ["Dieses Feld ist zwingend erforderlich."]
    }
    blank = post_registration(factories.phone(), t, "\u00a0\u200b", 1)  # no name once cleaned
    assert blank.context["register_form"].errors == {"name": ["Bitte einen Namen eingeben."]}
    sell_cards(t, "Emil", 2, Actor(), uuid.uuid4(), paid=True)
    held = post_registration(factories.phone(), t, "emil", 1)
    assert held.context["register_form"].errors == {
        "cards": ["Emil hat schon 2 von höchstens 2 Karten."]
    }
    signup.set_registration(
        t,
        Actor(),
        opens=timezone.now() - datetime.timedelta(days=2),
        closes=timezone.now() - datetime.timedelta(days=1),
        public=True,
    )
    late = post_registration(factories.phone(), t, "Franz", 1)
    assert late.status_code == 400
    assert "Die Anmeldung für diesen Abend ist geschlossen." in late.content.decode()
    assert Registration.objects.filter(tournament=t).count() == 0


def test_the_form_takes_a_bounded_number_of_registrations_from_one_address(settings):
    settings.REGISTRATION_POSTS = 2
    t = factories.announced_night()
    same = Client(REMOTE_ADDR="2001:db8:1:2::7")
    neighbour = Client(REMOTE_ADDR="2001:db8:1:2:ffff::1")  # the same /64
    assert post_registration(same, t, "G1").status_code == 302
    assert post_registration(neighbour, t, "G2").status_code == 302
    refused = post_registration(same, t, "G3")
    assert refused.status_code == 429
    assert "Zu viele Anmeldungen von dieser Adresse" in refused.content.decode()
    assert post_registration(factories.phone(), t, "G4").status_code == 302
    assert sorted(Registration.objects.values_list("name", flat=True).filter(tournament=t)) == [
        "G1",
        "G2",
        "G4",
    ]


def test_the_contact_and_the_private_link_never_appear_on_public_pages():
    t = factories.announced_night()
    post_registration(factories.phone(), t, "Hanna", 1, "hanna@example.org")
    r = registered(t, "Hanna")
    for name in ("bracket", "public_seats", "public_export", "register"):
        page = Client().get(reverse(name, kwargs={"token": t.public_token})).content.decode()
        assert "hanna@example.org" not in page and r.token not in page, name


# -- 3. the waiting list ---------------------------------------------------------------


def test_past_the_cards_laid_out_registrations_wait_and_a_cancellation_moves_the_first_up():
    t = factories.announced_night(cards=8)
    for name, cards in (("A", 3), ("B", 3), ("C", 1)):
        post_registration(factories.phone(), t, name, cards)
    sell_cards(t, "Door", 1, Actor(), uuid.uuid4(), paid=True)  # 8 of 8 taken
    post_registration(factories.phone(), t, "D", 2)
    post_registration(factories.phone(), t, "E", 1)
    assert [registered(t, n).status for n in "ABCDE"] == ["registered"] * 3 + ["waiting"] * 2
    d_page = Client().get(reverse("registration_link", kwargs={"token": registered(t, "D").token}))
    assert "Du stehst auf der Warteliste: Platz 1." in d_page.content.decode()
    e_page = Client().get(reverse("registration_link", kwargs={"token": registered(t, "E").token}))
    assert "Du stehst auf der Warteliste: Platz 2." in e_page.content.decode()
    # One card freed: D waits for two, and E does not jump him.
    change = reverse("registration_link", kwargs={"token": registered(t, "A").token})
    Client().post(change, {"action": "cards", "cards": 2})
    assert [registered(t, n).status for n in "DE"] == ["waiting", "waiting"]
    cancel = reverse("registration_link", kwargs={"token": registered(t, "C").token})
    Client().post(cancel, {"action": "cancel"})
    # Registration is open: the freed cards are offered to D, held for him (timed offer).
    assert [registered(t, n).status for n in "DE"] == ["offered", "waiting"]
    assert waiting_position(registered(t, "E")) == 1
    more = Client().post(change, {"action": "cards", "cards": 3})  # E waits: not before him
    assert "Andere warten auf Karten: jetzt können keine weiteren dazukommen." in (
        more.content.decode()
    )
    assert registered(t, "A").cards == 2
    offered = AuditEntry.objects.get(scope_id=t.pk, action="registration offered")
    until = timezone.localtime(registered(t, "D").offered_until).isoformat(timespec="minutes")
    assert offered.after == {
        "registration": registered(t, "D").pk,
        "name": "D",
        "cards": 2,
        "until": until,
    }
    door = Client()
    door.force_login(factories.user(t.club, role="organiser"))
    sold = door.post(
        reverse("sell", kwargs={"slug": t.club.slug, "tournament_id": t.pk}),
        {"key": str(uuid.uuid4()), "name": "Late", "count": 1, "paid": "on"},
    )
    assert (
        "Nur noch 0 von 8 Karten frei: 7 sind für angemeldete Spieler reserviert, die "
        "noch nicht eingecheckt sind."
    ) in sold.content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_card_at_once_one_gets_it_the_other_waits_first():
    t = factories.announced_night(cards=8, max_cards=1)
    for i in range(7):
        signup.register(t, name=f"P{i}", cards=1)
    barrier = threading.Barrier(2)
    errors = []

    def take(name):
        try:
            barrier.wait()
            signup.register(t, name=name, cards=1, key=uuid.uuid4())
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=take, args=(n,)) for n in ("Xaver", "Yvonne")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    statuses = sorted(registered(t, n).status for n in ("Xaver", "Yvonne"))
    assert statuses == ["registered", "waiting"]
    waiting = Registration.objects.get(tournament=t, status="waiting")
    assert waiting_position(waiting) == 1
    assert counts.count_reserved(t) == 8


# -- 4. check-in at the door -------------------------------------------------------------


def test_check_in_sells_the_registrations_cards_and_a_no_show_releases_them():
    t = factories.announced_night(cards=8, max_cards=3)
    post_registration(factories.phone(), t, "Ida", 2)
    post_registration(factories.phone(), t, "Jakob", 3)
    post_registration(factories.phone(), t, "Kurt", 3)
    post_registration(factories.phone(), t, "Lea", 1)  # waits: 8 of 8 registered
    desk = Client()
    organiser = factories.user(t.club, role="organiser")
    desk.force_login(organiser)
    slug = t.club.slug
    listing = desk.get(reverse("registrations", kwargs={"slug": slug, "tournament_id": t.pk}))
    text = listing.content.decode()
    assert text.count(">Eingecheckt</button>") == 3  # Lea waits: no check-in yet
    assert text.count(">Nicht erschienen</button>") == 4
    assert "Warteliste, Platz 1" in text
    found = desk.get(
        reverse("registrations", kwargs={"slug": slug, "tournament_id": t.pk}) + "?q=JAK"
    )
    assert [r.name for r in found.context["registrations"]] == ["Jakob"]

    def tap(name, action, **data):
        url = reverse(
            "registration_action",
            kwargs={
                "slug": slug,
                "tournament_id": t.pk,
                "registration_id": registered(t, name).pk,
                "action": action,
            },
        )
        return desk.post(url, data, follow=True)

    tap("Ida", "paid", paid="1")
    page = tap("Ida", "check-in").content.decode()
    assert "Ida eingecheckt: Karten 1, 2" in page
    tap("Ida", "check-in")  # a double tap sells nothing more
    cards = list(Card.objects.filter(tournament=t).values_list("number", "player__name", "paid"))
    assert cards == [(1, "Ida", True), (2, "Ida", True)]
    tap("Jakob", "check-in")
    assert list(
        Card.objects.filter(tournament=t, player__name="Jakob").values_list("number", "paid")
    ) == [(3, False), (4, False), (5, False)]
    tap("Kurt", "no-show")
    assert registered(t, "Kurt").status == "no_show"
    assert registered(t, "Lea").status == "offered"  # registration is open: offered
    refused = tap("Kurt", "check-in").content.decode()
    assert (
        "Diese Anmeldung steht auf „nicht erschienen“: sie kann nicht mehr geändert werden."
        in refused
    )
    assert Player.objects.filter(club=t.club, name="Kurt").exists() is False
    tap("Lea", "check-in")
    listing = desk.get(reverse("registrations", kwargs={"slug": slug, "tournament_id": t.pk}))
    text = listing.content.decode()
    text = squeezed(text)
    assert "<td>eingecheckt</td>" in text and "<td>nicht erschienen</td>" in text
    # The draw takes the sold cards only: 6 of them, Kurt's three released.
    draw_round(t, Actor(organiser))
    state = load_state(t)
    assert sorted(c.player.name for c in state.cards.values()) == [
        "Ida",
        "Ida",
        "Jakob",
        "Jakob",
        "Jakob",
        "Lea",
    ]
    gone = post_registration(factories.phone(), t, "Max", 1)
    assert gone.status_code == 404  # round 1 drawn: the night takes no registrations


def test_the_free_cards_are_counted_in_one_place_for_the_desk_the_form_and_the_club_page():
    """Cards laid out 8, three sold and one of them withdrawn, registrations holding
    3 (Anna 2, Ben 1) and then one waiting: in play 2, held 3, free 3."""
    t = factories.announced_night(cards=8, max_cards=3)
    first, *_ = sell_cards(t, "Xaver", 2, Actor(), uuid.uuid4(), paid=True)
    sell_cards(t, "Yvonne", 1, Actor(), uuid.uuid4(), paid=True)
    withdraw_card(t, first.pk, Actor())
    signup.register(t, name="Anna", cards=2)
    signup.register(t, name="Ben", cards=1)
    assert counts.card_counts(t) == counts.CardCounts(in_play=2, held=3, free=3)
    assert counts.count_in_play(t) == 2 and counts.count_reserved(t) == 3
    (upcoming,) = upcoming_nights(t.club)
    assert upcoming.free == 3
    signup.register(t, name="Clara", cards=3)  # 3 of 3 free: registered, none left
    assert counts.card_counts(t).free == 0
    assert signup.register(t, name="Dora", cards=1).status == "waiting"
    assert counts.card_counts(t) == counts.CardCounts(in_play=2, held=6, free=0)
