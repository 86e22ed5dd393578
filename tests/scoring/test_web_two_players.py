"""The two-player sheet through Django's test client, against a real database
(RULES.md 2): the points a deal gave, the count-down reading, how a deal ended as
buttons, and a series of Partien on the same seats.

Seats: Anna 0 deals first, Ben 1. The wiki rule set: a Partie is won by hanging
2 Bummerl on the other, a Schneider counts 2 Bummerl, so three deals of 3 points to
one player win a whole Partie (7 - 9 < 0, the other still at 7: Schneider, 2 Bummerl).
"""

import threading
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse

from scoring import services, upkeep
from scoring.models import Deal, Seat, Sheet
from scoring.rules import QuickDeal
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db

ANNA, BEN = 0, 1


@pytest.fixture
def table(client):
    """A two-player table of Anna and Ben; an organiser of the club is signed in."""
    club = factories.signed_in_club(client)
    return factories.sheet(club, names=("Anna", "Ben"))


def url(name, sheet):
    return reverse(f"sheet:{name}", kwargs={"pk": sheet.pk})


def quick(client, sheet, winner, points, htmx=True):
    data = {"key": factories.key(), "kind": "quick", "winner": winner, "points": points}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url("record", sheet), data, headers=headers)


def win_partie(client, sheet, winner):
    """Three deals of 3 points to ``winner``: a Schneider, 2 Bummerl, the Partie."""
    for _ in range(3):
        assert quick(client, sheet, winner, 3).status_code == 200


def next_partie(client, sheet, key=None):
    return client.post(url("next_partie", sheet), {"key": key or factories.key()})


# -- the banner shows what the deal gave --------------------------------------------


def test_the_banner_names_who_got_how_many_points(client, table):
    response = quick(client, table, ANNA, 2)
    assert response.context["saved_points"] == "Anna 2 Punkte"
    assert 'class="gains">Anna 2 Punkte</strong>' in response.content.decode()


def test_one_point_is_singular(client, table):
    response = quick(client, table, BEN, 1)
    assert response.context["saved_points"] == "Ben 1 Punkt"


def test_a_deal_counted_from_the_augen_shows_the_points_it_gave(client, table):
    # Ben melds out; Anna has 20 Augen and a trick: fewer than 33, so Ben scores 2.
    data = {
        "key": factories.key(),
        "kind": "ended",
        "end": "ausmelden",
        "by": BEN,
        "other_augen": 20,
        "other_had_trick": 1,
    }
    response = client.post(url("record", table), data, headers={"HX-Request": "true"})
    assert response.context["saved_points"] == "Ben 2 Punkte"


def test_the_banner_after_a_plain_post_shows_the_points_too(client, table):
    response = quick(client, table, ANNA, 3, htmx=False)
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert page.context["saved_points"] == "Anna 3 Punkte"


def test_in_english_the_banner_says_points(client, table):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = quick(client, table, BEN, 2)
    assert response.context["saved_points"] == "Ben 2 points"
    response = quick(client, table, BEN, 1)
    assert response.context["saved_points"] == "Ben 1 point"


# -- one reading: points left -------------------------------------------------------


def test_a_finished_bummerl_shows_the_points_left_like_the_big_numbers(client, table):
    # Anna 3, Ben 1, Anna 3, Anna 1: Anna has won 7 (0 left), Ben 1 (6 left).
    for winner, points in ((ANNA, 3), (BEN, 1), (ANNA, 3)):
        quick(client, table, winner, points)
    response = quick(client, table, ANNA, 1)
    html = response.content.decode()
    assert html.count('<li class="game-end">') == 1
    assert "Bummerl 1, fehlende Punkte:</strong> 0 · 6" in html
    # The new Bummerl starts from 7 for both, in the same reading.
    assert '<tr class="totals"><td>7</td><td>7</td></tr>' in squeezed(html)


# -- how the deal ended: a row of buttons -------------------------------------------


def test_how_the_deal_ended_is_a_row_of_radio_buttons(client, table):
    html = client.get(url("page", table)).content.decode()
    assert '<select name="end"' not in html
    for value in ("ausmelden", "last_trick", "closed_won", "closed_failed", "false_claim"):
        assert f'<input type="radio" name="end" value="{value}"' in html
    assert '<input type="radio" name="end" value="ausmelden" checked>' in html


def test_an_end_chosen_by_button_is_recorded_and_kept_on_an_error(client, table):
    # Anna closed and failed; Ben had a trick when she closed: Ben scores 2.
    data = {"key": factories.key(), "kind": "ended", "end": "closed_failed", "by": ANNA}
    data |= {"other_had_trick": 1}
    client.post(url("record", table), data, headers={"HX-Request": "true"})
    assert [d.points for d in Deal.objects.filter(sheet=table)] == [[0, 2]]
    # Without "by" the form comes back with the chosen end still pressed.
    data = {"key": factories.key(), "kind": "ended", "end": "renonce"}
    html = client.post(url("record", table), data, headers={"HX-Request": "true"})
    assert '<input type="radio" name="end" value="renonce" checked>' in html.content.decode()


def test_correcting_an_ended_deal_shows_its_end_pressed(client, table):
    data = {"key": factories.key(), "kind": "ended", "end": "last_trick", "by": BEN}
    data |= {"other_augen": 40, "other_had_trick": 1}
    client.post(url("record", table), data, headers={"HX-Request": "true"})
    deal = Deal.objects.get(sheet=table)
    page = client.get(reverse("sheet:correct", kwargs={"pk": table.pk, "deal_id": deal.pk}))
    html = page.content.decode()
    assert '<input type="radio" name="end" value="last_trick" checked>' in html
    assert '<input type="radio" name="end" value="ausmelden" checked>' not in html


# -- a series of Partien on the same seats ------------------------------------------


def test_a_won_partie_offers_a_new_partie_and_opens_it_on_the_same_seats(client, table):
    win_partie(client, table, ANNA)
    page = client.get(url("page", table))
    assert page.context["series"].won == (1, 0)
    assert url("next_partie", table) in page.content.decode()

    response = next_partie(client, table)
    following = Sheet.objects.get(previous=table)
    assert response.status_code == 302
    assert response["Location"] == url("page", following)
    seats = Seat.objects.filter(sheet=following).order_by("position")
    assert [(s.position, s.player.name) for s in seats] == [(0, "Anna"), (1, "Ben")]
    assert following.series_id == table.pk
    assert following.rules == table.rules
    # Three deals on the first sheet: Anna, Ben, Anna dealt; Ben deals next.
    assert following.first_dealer == BEN

    page = client.get(url("page", following))
    assert page.context["series"].number == 2
    assert page.context["series"].won == (1, 0)
    assert [seat["total"] for seat in page.context["seats"]] == [7, 7]


def test_the_series_score_goes_1_0_then_1_1(client, table):
    win_partie(client, table, ANNA)
    next_partie(client, table)
    second = Sheet.objects.get(previous=table)
    assert client.get(url("page", second)).context["series"].won == (1, 0)
    win_partie(client, second, BEN)
    page = client.get(url("page", second))
    assert page.context["series"].won == (1, 1)
    assert squeezed("Gewonnene Partien: Anna <b>1</b> : Ben <b>1</b>") in squeezed(
        page.content.decode()
    )
    next_partie(client, second)
    third = Sheet.objects.get(previous=second)
    assert (third.series_id, third.first_dealer) == (table.pk, ANNA)
    page = client.get(url("page", third))
    assert (page.context["series"].number, page.context["series"].won) == (3, (1, 1))


def test_a_double_post_opens_one_new_partie(client, table):
    win_partie(client, table, ANNA)
    key = factories.key()
    first = next_partie(client, table, key)
    again = next_partie(client, table, key)
    assert first["Location"] == again["Location"]
    assert Sheet.objects.filter(previous=table).count() == 1


def test_the_other_phone_with_its_own_key_lands_on_the_same_new_partie(client, table):
    win_partie(client, table, ANNA)
    first = next_partie(client, table)
    other = next_partie(client, table)
    assert first["Location"] == other["Location"]
    assert Sheet.objects.filter(previous=table).count() == 1
    # The finished sheet now leads to it.
    page = client.get(url("page", table))
    assert page.context["next_partie_url"] == first["Location"]


def test_a_key_that_opened_another_partie_is_refused(client, table):
    win_partie(client, table, ANNA)
    key = factories.key()
    next_partie(client, table, key)
    other = factories.sheet(table.club, names=("Clara", "Dora"))
    win_partie(client, other, ANNA)
    next_partie(client, other, key)
    assert not Sheet.objects.filter(previous=other).exists()


def test_no_new_partie_before_the_partie_is_decided(client, table):
    quick(client, table, ANNA, 3)
    page = client.get(url("page", table))
    assert "next_partie_key" not in page.context
    response = next_partie(client, table)
    assert response["Location"] == url("page", table)
    assert not Sheet.objects.filter(previous=table).exists()
    assert "noch nicht entschieden" in client.get(url("page", table)).content.decode()


def test_a_tournament_match_offers_no_new_partie(client, table):
    Sheet.objects.filter(pk=table.pk).update(reports_result=True)
    table.refresh_from_db()
    win_partie(client, table, ANNA)
    assert "next_partie_key" not in client.get(url("page", table)).context
    next_partie(client, table)
    assert not Sheet.objects.filter(previous=table).exists()


def test_the_private_link_opens_the_new_partie_under_its_own_link(client, table):
    win_partie(client, table, ANNA)
    client.logout()
    link = reverse("entry:next_partie", kwargs={"token": table.entry_token})
    response = client.post(link, {"key": factories.key()})
    following = Sheet.objects.get(previous=table)
    assert response["Location"] == reverse("entry:page", kwargs={"token": following.entry_token})
    page = client.get(response["Location"])
    assert page.context["series"].won == (1, 0)


def test_a_reading_member_may_not_open_a_new_partie(client, table):
    win_partie(client, table, ANNA)
    client.force_login(factories.user(table.club, role="member"))
    assert next_partie(client, table).status_code == 403
    assert not Sheet.objects.filter(previous=table).exists()


def test_the_page_of_a_later_partie_reads_the_series_in_few_queries(
    client, table, django_assert_max_num_queries
):
    sheet = table
    for winner in (ANNA, BEN, ANNA):
        win_partie(client, sheet, winner)
        next_partie(client, sheet)
        sheet = Sheet.objects.get(previous=sheet)
    with django_assert_max_num_queries(12):
        page = client.get(url("page", sheet))
    assert page.context["series"].won == (2, 1)


@pytest.mark.django_db(transaction=True)
def test_four_taps_at_once_on_two_phones_open_one_new_partie():
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    for _ in range(3):
        services.record_entry(sheet, QuickDeal(ANNA, 3), uuid.uuid4(), services.Actor())
    keys = [uuid.uuid4(), uuid.uuid4()] * 2  # each phone taps twice
    opened, errors = [], []

    def send(key):
        try:
            opened.append(upkeep.open_next_partie(sheet, key, services.Actor()).pk)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(key,)) for key in keys]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(set(opened)) == 1
    assert Sheet.objects.filter(previous=sheet).count() == 1
