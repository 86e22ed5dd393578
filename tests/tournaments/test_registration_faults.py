"""Registrations of an announced night used carelessly or against the rules (issue 28):
a paid registration asking for more cards, a door sale to a registered player, offered
cards counted as free on the club's page, a namesake's calendar, registering once
check-in has closed, more cards after the close, changes after the draw, a decline or a
cancel posted where the page offers none, control characters in a contact, the waiting
list at the close of check-in. Web and service tests on the run's database."""

import datetime
import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club
from scoring.rules import RuleError
from tests import factories
from tests.tournaments.test_registrations import post_registration, registered
from tournaments.models import Card, Registration, Tournament
from tournaments.services import checkin, signup
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.sheets import Actor

pytestmark = pytest.mark.django_db

HOUR = datetime.timedelta(hours=1)


def tight():
    """A night of 8 cards, 6 sold at the door: 2 free."""
    t = factories.announced_night(cards=8, max_cards=3)
    sell_cards(t, "Door One", 3, Actor(), uuid.uuid4(), paid=True)
    sell_cards(t, "Door Two", 3, Actor(), uuid.uuid4(), paid=True)
    return t


def link(r) -> str:
    return reverse("registration_link", kwargs={"token": r.token})


def test_more_cards_after_the_transfer_was_marked_paid_are_not_sold_as_paid():
    t = factories.announced_night(cards=8, max_cards=3, entry_fee=10)
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="AT12 3456", checkin_closes=None
    )
    r = signup.register(t, name="Anna", cards=1)
    checkin.set_paid(r, Actor(), paid=True)  # 10 euros came in for one card
    signup.change_cards(registered(t, "Anna"), 3)  # then she asks for three
    r = registered(t, "Anna")
    assert (r.cards, r.paid) == (3, False)
    changed = AuditEntry.objects.get(scope_id=t.pk, action="registration changed")
    assert changed.before == {"cards": 1, "paid": True}
    assert (changed.after["cards"], changed.after["paid"]) == (3, False)
    cards = checkin.check_in(r, Actor())
    assert [c.paid for c in cards] == [False, False, False]


def test_fewer_cards_keep_the_payment():
    t = factories.announced_night(cards=8, max_cards=3)
    r = signup.register(t, name="Anna", cards=3)
    checkin.set_paid(r, Actor(), paid=True)
    assert signup.change_cards(registered(t, "Anna"), 2).paid is True


def test_a_door_sale_to_a_registered_player_is_refused_and_points_to_her_check_in():
    t = factories.announced_night(cards=8, max_cards=2)
    signup.register(t, name="Anna", cards=2)
    with pytest.raises(RuleError) as refused:
        sell_cards(t, "anna", 1, Actor(), uuid.uuid4(), paid=True)
    assert (refused.value.field, refused.value.params) == ("name", {"name": "Anna"})
    assert not Card.objects.filter(tournament=t).exists()
    cards = checkin.check_in(registered(t, "Anna"), Actor())
    assert [c.number for c in cards] == [1, 2]


def test_the_desk_says_why_a_door_sale_to_a_registered_player_is_refused():
    t = factories.announced_night(cards=8, max_cards=2)
    signup.register(t, name="Anna Huber", cards=1)
    client = Client()
    client.force_login(factories.user(t.club, role="organiser"))
    url = reverse("sell", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    page = client.post(url, {"name": "anna huber", "count": 1, "key": str(uuid.uuid4())})
    assert page.status_code == 200  # the desk again, with the refusal on the name field
    assert (
        "Anna Huber ist für diesen Abend angemeldet: checke die Anmeldung unter Anmeldungen "
        "ein oder storniere sie zuerst." in page.content.decode()
    )
    assert not Card.objects.filter(tournament=t).exists()


def test_the_club_json_counts_offered_cards_as_held_not_free():
    t = tight()
    Club.objects.filter(pk=t.club_id).update(public_page=True)
    signup.register(t, name="Anna", cards=2)
    signup.register(t, name="Ben", cards=2)  # waits
    checkin.cancel(registered(t, "Anna"))
    assert registered(t, "Ben").status == "offered"
    doc = json.loads(Client().get(reverse("club_json", kwargs={"slug": t.club.slug})).content)
    assert [row["free"] for row in doc["upcoming"]] == [0]


def test_a_players_calendar_lists_his_own_registrations_not_a_namesakes():
    first = factories.announced_night(cards=8)
    now = timezone.now()
    second = factories.tournament(
        first.club, cards=8, name="Zweiter", starts_at=now + datetime.timedelta(days=5)
    )
    signup.set_registration(second, Actor(), opens=now - HOUR, closes=now + 24 * HOUR, public=True)
    signup.register(first, name="Anna Huber", cards=3, contact="anna@example.org")
    stranger = signup.register(second, name="anna  huber", cards=1)
    again = signup.register(
        factories.announced_night(cards=8), name="Anna Huber", cards=1, contact="ANNA@example.org"
    )  # another club: never in this club's feed

    def nights_in(r):
        body = Client().get(reverse("registration_calendar", kwargs={"token": r.feed_token}))
        return body.content.decode().count("BEGIN:VEVENT")

    assert nights_in(stranger) == 1  # his own only: a name alone is anybody's
    anna = signup.register(second, name="Hugo", cards=1, contact="anna@example.org")
    assert nights_in(anna) == 1  # the same contact, another name: his own only
    assert nights_in(registered(first, "Anna Huber")) == 1
    second_anna = Registration.objects.filter(pk=stranger.pk)
    second_anna.update(contact="Anna@Example.org")
    assert nights_in(registered(first, "Anna Huber")) == 2  # same name, same contact
    assert nights_in(again) == 1


def test_no_registration_is_taken_once_check_in_has_closed():
    t = factories.announced_night(cards=8, max_cards=3)
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="", checkin_closes=timezone.now() - HOUR / 2
    )
    with pytest.raises(RuleError) as refused:
        signup.register(t, name="Anna", cards=1)
    assert refused.value.template == "Check-in has closed: registration is over."
    assert not Registration.objects.filter(tournament=t).exists()


def test_more_cards_are_refused_after_registration_closed_fewer_are_not():
    t = factories.announced_night(cards=8, max_cards=3)
    r = signup.register(t, name="Anna", cards=2)
    Tournament.objects.filter(pk=t.pk).update(registration_closes=timezone.now() - HOUR / 60)
    with pytest.raises(RuleError) as refused:
        signup.change_cards(r, 3)
    assert refused.value.template == "Registration has closed: no more cards can be added."
    assert signup.change_cards(registered(t, "Anna"), 1).cards == 1


def drawn_night():
    """Round 1 drawn while Cilli's registration was never checked in."""
    t = factories.announced_night(cards=8, max_cards=3)
    for name in ("Anna", "Ben", "Cilli"):
        signup.register(t, name=name, cards=2)
    checkin.check_in(registered(t, "Anna"), Actor())
    checkin.check_in(registered(t, "Ben"), Actor())
    sell_cards(t, "Door", 2, Actor(), uuid.uuid4(), paid=True)
    draw_round(t, Actor())
    return t


@pytest.mark.parametrize(
    "write",
    [
        lambda r: checkin.cancel(r),
        lambda r: checkin.set_paid(r, Actor(), paid=True),
        lambda r: checkin.no_show(r, Actor()),
    ],
    ids=["cancel", "paid", "no-show"],
)
def test_a_registration_does_not_change_once_round_1_is_drawn(write):
    t = drawn_night()
    with pytest.raises(RuleError) as refused:
        write(registered(t, "Cilli"))
    assert refused.value.template == "The draw has started."
    r = registered(t, "Cilli")
    assert (r.status, r.paid) == ("registered", False)


def test_a_confirmation_or_refusal_after_the_draw_is_refused():
    t = factories.announced_night(cards=8, max_cards=3)
    signup.set_registration_terms(t, Actor(), confirm=True, transfer_to="", checkin_closes=None)
    signup.register(t, name="Cilli", cards=2)
    for name in ("Anna", "Ben", "Door"):
        sell_cards(t, name, 2, Actor(), uuid.uuid4(), paid=True)
    draw_round(t, Actor())
    for write in (checkin.confirm, checkin.refuse):
        with pytest.raises(RuleError):
            write(registered(t, "Cilli"), Actor())
    r = registered(t, "Cilli")
    assert (r.status, r.confirmed_at) == ("registered", None)


def test_declining_a_registration_that_had_no_offer_is_refused():
    t = factories.announced_night(cards=8)
    r = signup.register(t, name="Anna", cards=1)
    checkin.cancel(r)
    answer = factories.phone().post(link(r), {"action": "decline"})
    assert answer.status_code == 400
    assert "Abgelehnt" not in answer.content.decode()


def test_cancel_posted_on_an_offered_registration_declines_the_offer():
    t = tight()
    signup.register(t, name="Anna", cards=2)
    ben = signup.register(t, name="Ben", cards=2)
    checkin.cancel(registered(t, "Anna"))
    assert registered(t, "Ben").status == "offered"
    factories.phone().post(link(ben), {"action": "cancel"})
    assert registered(t, "Ben").status == "cancelled"
    last = AuditEntry.objects.filter(scope_id=t.pk).order_by("pk").last()
    assert (last.action, last.after["name"]) == ("offer declined", "Ben")


def test_control_and_format_characters_are_taken_out_of_a_contact():
    t = factories.announced_night()
    post_registration(factories.phone(), t, "Anna", contact="0664\x1b[2J\u202e123 \u200b 45")
    assert registered(t, "Anna").contact == "0664[2J123 45"


def test_at_the_close_of_check_in_the_waiting_are_released_too_and_may_buy_at_the_door():
    t = tight()
    signup.register(t, name="Anna", cards=2)
    signup.register(t, name="Ben", cards=2)  # waits
    signup.set_registration_terms(
        t, Actor(), confirm=False, transfer_to="", checkin_closes=timezone.now() + HOUR
    )
    assert checkin.expire_due(now=timezone.now() + 2 * HOUR) == 2
    assert [registered(t, n).status for n in ("Anna", "Ben")] == ["no_show", "no_show"]
    cards = sell_cards(t, "Ben", 2, Actor(), uuid.uuid4(), paid=True)
    assert [c.number for c in cards] == [7, 8]
