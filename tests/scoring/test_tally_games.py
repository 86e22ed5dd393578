"""The Bummerl tally keeps the games apart: a Schnapsen Bummerl (two players) and a
Dreierschnapsen Bummerl are never summed, on the club's page nor on a player's."""

import uuid

import pytest
from django.urls import reverse

from clubs.models import Player
from scoring import services, upkeep
from scoring.rules import DreierDeal, QuickDeal, TieBreak
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(client):
    """Anna is Schneider at Dreierschnapsen (2 Bummerl) and gets 1 Bummerl at Schnapsen."""
    club = factories.signed_in_club(client, role="member")
    dreier = factories.sheet(club)  # Anna, Ben (first Rufer), Clara
    actor = services.Actor()
    services.record_entry(dreier, DreierDeal("trumpfringerl", 1, True), uuid.uuid4(), actor)
    services.record_entry(dreier, TieBreak(2), uuid.uuid4(), actor)
    anna, ben = Player.objects.filter(club=club, name__in=("Anna", "Ben")).order_by("name")
    two = upkeep.open_sheet(club, "schnapsen", [anna, ben], factories.presets()["wiki"])
    for winner, points in ((1, 3), (1, 3), (0, 1), (1, 1)):  # Ben 7 → 0, Anna at 6
        services.record_entry(two, QuickDeal(winner, points), uuid.uuid4(), actor)
    return club


def tally_rows(client, club, **query):
    response = client.get(reverse("club", kwargs={"slug": club.slug}), query)
    assert response.status_code == 200
    rows = response.context["tally_table"].rows
    figures = {
        r.record["name"]: (r.record["bummerl"], r.record["schneider"], r.record["games"])
        for r in rows
    }
    return response, figures


def test_the_club_tally_shows_one_game_at_a_time(club, client):
    factories.sheet(club, names=("Dora", "Emil", "Fritz"))  # Dreierschnapsen: 2 tables to 1
    response, dreier = tally_rows(client, club)
    # The game the club played most first, with a tab for each game played.
    assert response.context["game"] == "dreierschnapsen"
    assert dreier == {
        "Anna": (2, 1, 1),
        "Clara": (0, 0, 1),
        "Ben": (0, 0, 1),
        **dict.fromkeys(("Dora", "Emil", "Fritz"), (0, 0, 0)),  # an evening without a game
    }
    html = squeezed(response.content.decode())
    assert '<a href="?game=schnapsen">Schnapsen (zu zweit)</a>' in html
    assert '<a href="?game=dreierschnapsen" aria-current="page">Dreierschnapsen</a>' in html
    response, two = tally_rows(client, club, game="schnapsen")
    assert two == {"Anna": (1, 0, 1), "Ben": (0, 0, 1)}
    assert '<a href="?game=schnapsen" aria-current="page">' in squeezed(response.content.decode())
    _, unknown = tally_rows(client, club, game="poker")
    assert unknown == dreier


def test_the_player_page_sums_each_game_apart(club, client):
    anna = Player.objects.get(club=club, name="Anna")
    page = client.get(reverse("player", kwargs={"slug": club.slug, "player_id": anna.pk}))
    parts = {
        p["variant"]: (
            p["tally"].bummerl,
            p["tally"].schneider,
            p["tally"].games,
            p["tally"].sheets,
        )
        for p in page.context["tallies"]
    }
    assert parts == {"dreierschnapsen": (2, 1, 1, 1), "schnapsen": (1, 0, 1, 1)}
    html = page.content.decode()
    assert html.index(">Schnapsen (zu zweit)</h2>") < html.index(">Dreierschnapsen</h2>")
