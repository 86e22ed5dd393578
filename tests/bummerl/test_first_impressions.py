"""What a new club sees first, in the words it reads: a wrong password is called wrong
(also under django-axes), the minimum for the ranking counts *Runden* in its setting and
in its hint, and the open-table form of a three- or two-player game has no fourth seat."""

import datetime as dt
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from seasons.models import RankingSettings, Season
from tests import factories

pytestmark = pytest.mark.django_db

WRONG = "Benutzername oder Passwort ist falsch. Achte auf Groß- und Kleinschreibung."


def test_a_wrong_password_says_that_the_name_or_the_password_is_wrong(client):
    factories.user(username="anna")  # password "pw-anna"
    for username, password in (("anna", "wrong"), ("nobody", "pw-anna")):
        response = client.post(reverse("login"), {"username": username, "password": password})
        assert response.status_code == 200
        assert response.context["form"].non_field_errors() == [WRONG]
        html = response.content.decode()
        assert f'<div class="banner error" role="alert">{WRONG}</div>' in html
        assert "Bitte Benutzername" not in html
    # django-axes still counts the wrong tries: the right password signs in meanwhile.
    response = client.post(reverse("login"), {"username": "anna", "password": "pw-anna"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_the_minimum_for_the_ranking_is_one_word_runden(client):
    club = factories.signed_in_club(client, role="owner")
    season = Season.objects.create(
        club=club, name="2026", first_day=dt.date(2026, 1, 1), last_day=dt.date(2026, 12, 31)
    )
    RankingSettings.objects.create(club=club, min_games=10)
    factories.sheet(club)
    index = client.get(reverse("seasons:index", kwargs={"slug": club.slug})).content.decode()
    assert "Mindestens Runden für die Wertung" in index
    page = client.get(
        reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": season.pk})
    )
    assert (
        '<p class="hint">Gewertet ab 10 Runden; wer weniger hat, steht ohne Rang darunter.</p>'
        in page.content.decode()
    )
    pdf = client.get(reverse("seasons:print", kwargs={"slug": club.slug, "season_id": season.pk}))
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Gewertet ab 10 Runden." in text
    assert "Spielen" not in page.content.decode() + text
    RankingSettings.objects.filter(club=club).update(min_games=1)
    page = client.get(
        reverse("seasons:ranking", kwargs={"slug": club.slug, "season_id": season.pk})
    )
    assert "Gewertet ab 1 Runde; wer weniger hat" in page.content.decode()


@pytest.mark.parametrize(
    ("query", "seat_4"),
    [({}, False), ({"variant": "schnapsen"}, False), ({"variant": "bauernschnapsen"}, True)],
)
def test_the_open_table_form_has_a_fourth_seat_for_bauernschnapsen_only(client, query, seat_4):
    club = factories.signed_in_club(client, role="scorer")
    html = client.get(reverse("open_table", kwargs={"slug": club.slug}), query).content.decode()
    assert ('<label for="id_player_4">Platz 4</label>' in html) is seat_4
    assert ('<input type="hidden" name="player_4" id="id_player_4">' in html) is not seat_4
    assert '<label for="id_player_3">Platz 3</label>' in html


def test_a_dreierschnapsen_table_opens_without_a_fourth_seat_and_bauern_asks_for_it(client):
    factories.presets()
    club = factories.signed_in_club(client, role="scorer")
    anna, ben, clara, dora = factories.players(club, "Anna", "Ben", "Clara", "Dora")
    page = client.get(reverse("open_table", kwargs={"slug": club.slug}))
    form = page.context["form"]
    data = {
        "key": str(form.initial["key"]),
        "variant": "dreierschnapsen",
        "title": "",
        "player_1": anna.pk,
        "player_2": ben.pk,
        "player_3": clara.pk,
        "player_4": "",
        "rule_set": form.initial["rule_set"].pk,
    }
    response = client.post(reverse("open_table", kwargs={"slug": club.slug}), data)
    assert response.status_code == 302
    assert [s.player.name for s in club.sheets.get().seats.order_by("position")] == [
        "Anna",
        "Ben",
        "Clara",
    ]
    # Bauernschnapsen chosen on that form: the fourth seat is asked for, and shown.
    data.update(key=factories.key(), variant="bauernschnapsen")
    response = client.post(reverse("open_table", kwargs={"slug": club.slug}), data)
    assert response.status_code == 200
    assert response.context["form"].errors["player_4"] == ["Bauernschnapsen braucht vier Spieler."]
    assert '<label for="id_player_4">Platz 4</label>' in response.content.decode()
