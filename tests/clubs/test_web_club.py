"""Club pages: players with German sorting and search, tallies, language, opening tables."""

import uuid

import pytest
from django.conf import settings
from django.urls import reverse

from clubs.models import Player
from scoring import services
from scoring.rules import DreierDeal
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    return factories.signed_in_club(client)


def test_players_sort_the_german_way(club):
    factories.players(club, "Zoe", "Österreicher", "Oberhuber", "Ärger", "Adam", "Strauß", "Straub")
    names = list(Player.objects.filter(club=club).values_list("name", flat=True))
    # DIN 5007-1: Ä sorts as A, Ö as O, ß as ss.
    assert names == ["Adam", "Ärger", "Oberhuber", "Österreicher", "Straub", "Strauß", "Zoe"]


def test_player_search_folds_umlauts_and_case(club, client):
    factories.players(club, "Ben Müller", "Clara Weiß", "Franz Mueller", "Dora Maus")
    url = reverse("player_search", kwargs={"slug": club.slug})
    both = ["Ben Müller", "Franz Mueller"]
    # ü, ue and u are one letter to a search, either way (issue 42)
    for query in ("mül", "MUL", "mueller", "Müller"):
        assert sorted(client.get(url, {"q": query}).json()["names"]) == both, query
    assert client.get(url, {"q": "weiss"}).json()["names"] == ["Clara Weiß"]
    assert client.get(url, {"q": "Weiß"}).json()["names"] == ["Clara Weiß"]
    assert client.get(url, {"q": "Mais"}).json()["names"] == []


def test_the_player_list_finds_oe_ae_ue_and_ss_either_way(club, client):
    factories.players(club, "Goethe", "Jürgen Öhlinger", "Straßer", "Haenel", "Ida Strasser")
    url = reverse("players", kwargs={"slug": club.slug})

    def found(query):
        return sorted(p.name for p in client.get(url, {"q": query}).context["table"].data)

    assert found("Göthe") == ["Goethe"]
    assert found("oehlinger") == ["Jürgen Öhlinger"]
    assert found("JUERGEN OE") == ["Jürgen Öhlinger"]
    assert found("strasser") == ["Ida Strasser", "Straßer"]
    assert found("Straßer") == ["Ida Strasser", "Straßer"]
    assert found("Hänel") == ["Haenel"]
    assert found("xyz") == []


def test_quick_add_refuses_a_name_twice_and_says_why(club, client):
    url = reverse("players", kwargs={"slug": club.slug})
    assert client.post(url, {"name": "  Anna   Berger "}).status_code == 302
    response = client.post(url, {"name": "Anna Berger"})
    assert response.status_code == 200
    assert "Anna Berger" in response.context["form"].errors["name"][0]
    assert Player.objects.filter(club=club).count() == 1


def test_opening_a_table_needs_three_different_players_for_dreierschnapsen(club, client):
    anna, ben = factories.players(club, "Anna", "Ben")
    wiki = factories.presets()["wiki"]
    url = reverse("open_table", kwargs={"slug": club.slug})
    data = {
        "variant": "dreierschnapsen",
        "player_1": anna.pk,
        "player_2": ben.pk,
        "rule_set": wiki.pk,
        "key": str(uuid.uuid4()),
    }
    response = client.post(url, data)
    assert "player_3" in response.context["form"].errors
    response = client.post(url, {**data, "player_3": anna.pk})
    assert "player_2" in response.context["form"].errors
    response = client.post(url, {**data, "variant": "schnapsen"})
    assert response.status_code == 302
    again = client.post(url, {**data, "variant": "schnapsen"})  # a double tap
    assert again["Location"] == response["Location"]
    assert club.sheets.count() == 1
    again = client.post(url, {**data, "variant": "schnapsen"})  # a double tap
    assert again["Location"] == response["Location"]
    assert club.sheets.count() == 1


def test_the_tally_sums_bummerl_over_the_club_tables(club, client):
    sheet = factories.sheet(club)
    # Ben (the Rufer) wins a Trumpfringerl (24): Anna and Clara tie at 0; Clara wins the
    # tie-break, Anna is Schneider: 2 Bummerl.
    services.record_entry(
        sheet, DreierDeal("trumpfringerl", 1, True), uuid.uuid4(), services.Actor()
    )
    from scoring.rules import TieBreak

    services.record_entry(sheet, TieBreak(2), uuid.uuid4(), services.Actor())
    response = client.get(reverse("club", kwargs={"slug": club.slug}))
    rows = list(response.context["tally_table"].rows)
    assert [(r.get_cell("name"), r.get_cell("bummerl")) for r in rows][0][1] == 2
    anna = Player.objects.get(club=club, name="Anna")
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk}))
    tally = page.context["tally"]
    assert (tally.bummerl, tally.schneider, tally.games, tally.sheets) == (2, 1, 1, 1)


def test_the_site_speaks_german_unless_english_was_chosen(club, client):
    url = reverse("club", kwargs={"slug": club.slug})
    response = client.get(url, headers={"Accept-Language": "en"})
    assert 'lang="de-at"' in response.content.decode()
    assert "Tisch eröffnen" in response.content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": url})
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert "Open a table" in client.get(url).content.decode()
