"""A club's blank score sheet, to lay on the pub's tables before any table is opened: a
PDF per game from the club's page, its columns without names, and a QR code that opens
a new table of the club for that game (for those allowed; others sign in first or are
told their role does not allow it)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from base.printing import qr_svg
from tests import factories
from tests.base.test_printing import pdf_of, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    factories.presets()
    return factories.club(name="Kartenrunde Ottakring")


def blank(club, variant):
    return reverse("print_club_blank", kwargs={"slug": club.slug, "variant": variant})


def test_the_clubs_page_offers_a_blank_sheet_of_each_game(club):
    member = factories.signed_in(factories.user(club, role="member"))
    html = member.get(reverse("club", kwargs={"slug": club.slug})).content.decode()
    offered = re.findall(r'<a class="print" href="([^"]*)">([^<]*)</a>', html)
    assert offered == [
        (blank(club, "schnapsen"), "Blatt für Schnapsen (zu zweit)"),
        (blank(club, "dreierschnapsen"), "Blatt für Dreierschnapsen"),
        (blank(club, "bauernschnapsen"), "Blatt für Bauernschnapsen"),
    ]


def test_the_blank_sheet_has_the_games_rules_and_a_code_that_opens_a_table(club):
    member = factories.signed_in(factories.user(club, role="member"))
    response = member.get(blank(club, "bauernschnapsen"), HTTP_HOST="192.168.1.20:8000")
    text = text_of(pdf_of(response))
    assert f"{club.name} · Bauernschnapsen" in text
    assert "Platz 1 & 3 gegen Platz 2 & 4" in text
    assert "Regelwerk: Bauernschnapsen (vier Spieler)" in text
    assert "Scannen: ein neuer Tisch des Vereins" in text
    url = "http://192.168.1.20:8000" + reverse("open_table", kwargs={"slug": club.slug})
    url += "?variant=bauernschnapsen"
    assert response.context["qr_url"] == url
    assert response.context["qr"] == qr_svg(url)
    assert response.context["players"] == ["", "", "", ""]
    two = member.get(blank(club, "schnapsen"))
    assert two.context["players"] == ["", ""]
    assert "Regelwerk: Standard (Wiki)" in text_of(pdf_of(two))


def test_the_code_opens_a_table_for_scorers_and_refuses_the_others_clearly(club):
    opening = reverse("open_table", kwargs={"slug": club.slug}) + "?variant=bauernschnapsen"
    scorer = factories.signed_in(factories.user(club, role="scorer"))
    page = scorer.get(opening).content.decode()
    assert re.search(r'value="bauernschnapsen"[^>]*checked', page)
    assert '<select name="player_4"' in page
    reader = factories.signed_in(factories.user(club, role="member"))
    refused = reader.get(opening)
    assert refused.status_code == 403
    assert "Deine Rolle im Verein erlaubt das nicht." in refused.content.decode()
    anonymous = Client().get(opening)
    assert anonymous.status_code == 302
    assert anonymous["Location"].startswith(reverse("login") + "?next=")


def test_only_the_clubs_members_print_it_and_only_its_games(club):
    assert Client().get(blank(club, "schnapsen")).status_code == 302
    stranger = factories.signed_in(factories.user(factories.club(), role="owner"))
    assert stranger.get(blank(club, "schnapsen")).status_code == 404
    member = factories.signed_in(factories.user(club, role="member"))
    assert member.get(blank(club, "tarock")).status_code == 404
