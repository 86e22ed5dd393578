"""Opening a table: a player new to the club is added from the same page, which keeps
the seats, the game and the title already chosen; an empty name is refused beside the
field. Picking a game shows its seats and its rule set at once (htmx), and without
JavaScript the form sent says what is missing. Without JavaScript (a plain POST) and
with htmx (the form swapped)."""

import re
import uuid

import pytest
from django.urls import reverse

from clubs.audit import SYSTEM
from clubs.models import Player
from scoring.rulesets import copy_rule_set
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    return factories.signed_in_club(client, role="scorer")


@pytest.fixture
def chosen(club):
    """Anna and Ben in seats 1 and 2 of a Dreierschnapsen table with a title."""
    anna, ben = factories.players(club, "Anna", "Ben")
    return {
        "key": str(uuid.uuid4()),
        "variant": "dreierschnapsen",
        "title": "Stammtisch",
        "player_1": str(anna.pk),
        "player_2": str(ben.pk),
        "player_3": "",
        "rule_set": str(factories.presets()["spielregeln"].pk),
    }


def url(club):
    return reverse("open_table", kwargs={"slug": club.slug})


def selected(html: str, field: str) -> str | None:
    """The value of the chosen option of the select ``field``."""
    select = re.search(rf'<select name="{field}".*?</select>', html, re.S).group(0)
    found = re.search(r'<option value="(\d*)" selected>', select)
    return found.group(1) if found else None


def test_adding_a_player_keeps_the_seats_and_title_and_seats_the_new_one(club, client, chosen):
    response = client.post(url(club), {**chosen, "new_player": "  Dora  ", "add": "1"})
    assert response.status_code == 200
    dora = Player.objects.get(club=club, name="Dora")
    html = response.content.decode()
    assert selected(html, "player_1") == chosen["player_1"]
    assert selected(html, "player_2") == chosen["player_2"]
    assert selected(html, "player_3") == str(dora.pk)
    assert selected(html, "rule_set") == chosen["rule_set"]
    assert 'value="Stammtisch"' in html
    assert 'value="dreierschnapsen"' in html and re.search(
        r'value="dreierschnapsen"[^>]*checked', html
    )
    assert f'name="key" value="{chosen["key"]}"' in html
    assert "Dora sitzt auf Platz 3." in html
    assert club.sheets.count() == 0
    # Then the table opens with the three of them.
    opened = client.post(url(club), {**chosen, "player_3": str(dora.pk)})
    assert opened.status_code == 302
    assert [s.player.name for s in club.sheets.get().seats.order_by("position")] == [
        "Anna",
        "Ben",
        "Dora",
    ]


def test_an_empty_name_is_refused_beside_the_field_and_nothing_is_lost(club, client, chosen):
    response = client.post(url(club), {**chosen, "new_player": "   ", "add": "1"})
    assert response.status_code == 400
    html = response.content.decode()
    error = re.search(
        r'<input id="new-player"[^>]*aria-describedby="err-new-player"[^>]*>\s*'
        r'<p class="field-error" id="err-new-player" role="alert">([^<]*)</p>',
        html,
    )
    assert error and error.group(1) == "Den Namen des neuen Spielers eingeben."
    assert selected(html, "player_1") == chosen["player_1"]
    assert selected(html, "player_2") == chosen["player_2"]
    assert 'value="Stammtisch"' in html
    assert Player.objects.filter(club=club).count() == 2


def test_with_htmx_only_the_form_comes_back_with_the_message_in_place(club, client, chosen):
    headers = {"HX-Request": "true"}
    response = client.post(url(club), {**chosen, "new_player": "", "add": "1"}, headers=headers)
    assert response.status_code == 200  # htmx swaps only successful answers
    html = response.content.decode()
    assert html.lstrip().startswith('<form method="post" class="stack" id="open-form"')
    assert "<html" not in html
    assert 'id="err-new-player" role="alert">Den Namen des neuen Spielers eingeben.<' in html
    response = client.post(url(club), {**chosen, "new_player": "Emil", "add": "1"}, headers=headers)
    emil = Player.objects.get(club=club, name="Emil")
    html = response.content.decode()
    assert selected(html, "player_3") == str(emil.pk)
    assert selected(html, "player_1") == chosen["player_1"]
    assert "Emil sitzt auf Platz 3." in html


def test_enter_in_the_name_field_adds_rather_than_opens(club, client, chosen):
    # Enter sends the form by its first button (Open the table), without "add".
    response = client.post(url(club), {**chosen, "new_player": "Fritz"})
    assert response.status_code == 200
    assert club.sheets.count() == 0
    fritz = Player.objects.get(club=club, name="Fritz")
    assert selected(response.content.decode(), "player_3") == str(fritz.pk)


def test_a_known_name_in_another_case_seats_that_player(club, client, chosen):
    Player.objects.filter(club=club, name="Ben").delete()
    factories.players(club, "Clara")
    response = client.post(url(club), {**chosen, "player_2": "", "new_player": "clara", "add": "1"})
    clara = Player.objects.get(club=club, name="Clara")
    html = response.content.decode()
    assert selected(html, "player_2") == str(clara.pk)
    assert "Clara spielt schon in diesem Verein. Clara sitzt auf Platz 2." in html
    assert Player.objects.filter(club=club).count() == 2


def test_two_player_schnapsen_fills_only_two_seats(club, client, chosen):
    data = {**chosen, "variant": "schnapsen", "new_player": "Gerda", "add": "1"}
    html = client.post(url(club), data).content.decode()
    assert selected(html, "player_3") in (None, "")
    assert "Gerda ist zum Auswählen bereit: alle Plätze sind besetzt." in html


# -- picking the game ------------------------------------------------------------------


@pytest.fixture
def three(club):
    """Anna, Ben and Clara in seats 1 to 3, the form as first shown (wiki rule set)."""
    anna, ben, clara, dora = factories.players(club, "Anna", "Ben", "Clara", "Dora")
    return {
        "key": str(uuid.uuid4()),
        "variant": "dreierschnapsen",
        "title": "",
        "player_1": str(anna.pk),
        "player_2": str(ben.pk),
        "player_3": str(clara.pk),
        "player_4": "",
        "rule_set": str(factories.presets()["wiki"].pk),
        "dora": str(dora.pk),
    }


def seat_4_shown(html: str) -> bool:
    return '<select name="player_4"' in html


def test_picking_bauernschnapsen_shows_seat_4_and_its_rule_set_at_once(club, client, three):
    # What the radio's change sends (htmx): the form comes back for that game.
    headers = {"HX-Request": "true"}
    data = {**three, "variant": "bauernschnapsen", "switch": "1"}
    response = client.post(url(club), data, headers=headers)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<form method="post" class="stack" id="open-form"')
    assert seat_4_shown(html)
    assert selected(html, "rule_set") == str(factories.presets()["bauern"].pk)
    assert [selected(html, f"player_{i}") for i in (1, 2, 3)] == [
        three["player_1"],
        three["player_2"],
        three["player_3"],
    ]
    assert re.search(r'value="bauernschnapsen"[^>]*checked', html)
    assert 'class="field-error"' not in html
    assert f'name="key" value="{three["key"]}"' in html
    assert club.sheets.count() == 0
    # Back to Dreierschnapsen: no seat 4 (and no player kept in it), the wiki rules.
    data = {**three, "player_4": three["dora"], "rule_set": str(factories.presets()["bauern"].pk)}
    html = client.post(url(club), {**data, "switch": "1"}, headers=headers).content.decode()
    assert not seat_4_shown(html) and 'name="player_4" value' not in html
    assert selected(html, "rule_set") == str(factories.presets()["wiki"].pk)


def test_picking_a_game_keeps_a_rule_set_of_the_club_that_fits_it(club, client, three):
    ours = copy_rule_set(club, factories.presets()["bauern"], actor=SYSTEM)
    data = {**three, "variant": "bauernschnapsen", "rule_set": str(ours.pk), "switch": "1"}
    html = client.post(url(club), data).content.decode()
    assert selected(html, "rule_set") == str(ours.pk)
    # The other way round, a club's Bauernschnapsen rules give way to wiki.
    data = {**three, "rule_set": str(ours.pk), "switch": "1"}
    html = client.post(url(club), data).content.decode()
    assert selected(html, "rule_set") == str(factories.presets()["wiki"].pk)


def test_without_javascript_the_form_says_what_is_missing_and_opens_once_complete(
    club, client, three
):
    # The radio picked, the form sent as it was: seat 4 is missing, the rule set wrong.
    data = {**three, "variant": "bauernschnapsen"}
    response = client.post(url(club), data)
    assert response.status_code == 200
    html = response.content.decode()
    errors = re.findall(r'<p class="field-error">([^<]*)</p>', html)
    assert errors == [
        "Bauernschnapsen braucht vier Spieler.",
        "Bauernschnapsen wird mit dem Regelwerk Bauernschnapsen oder einer Kopie davon "
        "gespielt: es ist jetzt gewählt.",
    ]
    assert seat_4_shown(html)
    bauern = str(factories.presets()["bauern"].pk)
    assert selected(html, "rule_set") == bauern
    assert club.sheets.count() == 0
    # Seat 4 chosen, the form sent as it now shows: the table opens.
    response = client.post(url(club), {**data, "player_4": three["dora"], "rule_set": bauern})
    assert response.status_code == 302
    sheet = club.sheets.get()
    assert sheet.variant == "bauernschnapsen" and sheet.seats.count() == 4


def test_a_fourth_player_in_a_three_player_game_is_refused_where_it_shows(club, client, three):
    response = client.post(url(club), {**three, "player_4": three["dora"]})
    html = response.content.decode()
    assert seat_4_shown(html)
    assert '<p class="field-error">Nur Bauernschnapsen hat einen vierten Platz.</p>' in html
    assert club.sheets.count() == 0
