"""What a new user met on the pages: words in German, and nothing offered that the page
would then refuse (found by trying the README as a new user)."""

import uuid

import pytest
from django.urls import reverse

from clubs.models import Membership
from scoring import services as scoring
from scoring.rules import QuickDeal
from scoring.services import Actor
from tests import factories
from tests.tournaments.test_link_lanes import LINK, RIGHT_WINS
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.layout import lower_cards
from tournaments.services.sheets import open_match_sheet

pytestmark = pytest.mark.django_db


def unsold(club):
    """An 8-card tournament with no card sold yet."""
    return factories.tournament(club, name="Zu zweit")


def test_the_start_page_names_each_clubs_role_in_german(client):
    first, second = factories.club(), factories.club()
    person = factories.user(first, role="owner")
    Membership.objects.create(user=person, club=second, role="scorer")
    client.force_login(person)
    page = client.get("/").content.decode()
    assert "<small>Obmann</small>" in page
    assert "<small>Schreiber</small>" in page
    assert "<small>owner</small>" not in page


@pytest.mark.parametrize(("role", "offered"), [("scorer", False), ("organiser", True)])
def test_the_new_tournament_form_is_offered_only_to_who_may_use_it(client, role, offered):
    club = factories.club()
    client.force_login(factories.user(club, role=role))
    page = client.get(reverse("tournaments", kwargs={"slug": club.slug})).content.decode()
    assert ("Neues Turnier" in page) is offered


def test_the_deal_that_decides_a_match_offers_no_undo_to_the_link(client):
    factories.presets()
    t = factories.night(factories.club())
    draw_round(t, Actor(), seed=1)
    sheet = open_match_sheet(factories.first_match(t), Actor())
    for entry in RIGHT_WINS[:-1]:
        scoring.record_entry(sheet, entry, uuid.uuid4(), LINK)
    url = reverse("entry:record", kwargs={"token": sheet.entry_token})
    last = RIGHT_WINS[-1]
    assert last == QuickDeal(1, 1)
    response = client.post(
        url,
        {"key": str(uuid.uuid4()), "kind": "quick", "winner": "1", "points": "1"},
        headers={"HX-Request": "true"},
    )
    page = response.content.decode()
    assert "Gespeichert:" in page
    assert "Rückgängig" not in page


def test_a_round_of_one_pairing_says_pairing_and_of_four_pairings(client):
    club = factories.signed_in_club(client)
    final_only = unsold(club)
    for name in ("Anna", "Ben"):  # two of eight cards sold: lowered to 2, the final
        sell_cards(final_only, name, 1, Actor(), uuid.uuid4(), paid=True)
    assert lower_cards(final_only) == 2
    full = factories.night(club, cards=8)
    for t in (final_only, full):
        draw_round(t, Actor(), seed=1)

    def heading(t):
        url = reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
        page = client.get(url).content.decode()
        return page[page.index("<h1>") : page.index("</h1>")]

    assert "<small>1 Paarung</small>" in heading(final_only)
    assert "<small>4 Paarungen</small>" in heading(full)


def test_a_new_club_says_it_has_no_tables_and_no_bummerl_yet(client):
    club = factories.signed_in_club(client, role="owner")
    page = client.get(reverse("club", kwargs={"slug": club.slug})).content.decode()
    assert "Noch keine Tische: oben den ersten eröffnen." in page
    assert "Noch keine Bummerl." in page


def test_one_card_sold_is_one_card_in_the_message(client):
    club = factories.signed_in_club(client)
    t = unsold(club)
    url = reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk})
    one = client.post(url, {"key": str(uuid.uuid4()), "name": "Xaver", "count": 1}, follow=True)
    two = client.post(url, {"key": str(uuid.uuid4()), "name": "Yvonne", "count": 2}, follow=True)
    assert "Xaver: Karte 1" in one.content.decode()
    assert "Yvonne: Karten 2, 3" in two.content.decode()


def test_the_admin_names_every_model_in_german(client):
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser("admin", password="pw-admin-1")
    client.force_login(admin)
    page = client.get("/admin/").content.decode()
    for name in ("Sitzplätze", "Spiele", "Teilnahmekarten", "Runden", "Ziehungen", "Paarungen"):
        assert f">{name}<" in page
    for name in ("Seats", "Deals", "Cards", "Rounds", "Pulls", "Pairings", "Results"):
        assert f">{name}<" not in page
