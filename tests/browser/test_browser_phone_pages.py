"""The club's pages on a 320 × 640 phone: no page scrolls sideways (a wide list scrolls
inside itself); the link page copies the link; opening a table adds a player in place.
Playwright with the system Chromium, against the live test server."""

import uuid

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clubs.models import Player
from scoring import services, upkeep
from scoring.rules import DreierDeal, QuickDeal
from tests import factories
from tests.browser import pasted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximilian Oberhollenzer-Größwang"


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 320, "height": 640}}


@pytest.fixture
def club(live_server, page):
    """A club with long names, both games played, a tournament; carl signed in."""
    club = factories.club(name="Schnapsrunde zum Goldenen Hirschen")
    factories.user(club, role="organiser", username="carl")
    sheet = factories.sheet(club, names=(LONG, "Ben", "Clara"))
    actor = services.Actor()
    services.record_entry(sheet, DreierDeal("trumpfringerl", 0, False, 3), uuid.uuid4(), actor)
    long, ben = Player.objects.filter(club=club, name__in=(LONG, "Ben")).order_by("name")
    two = upkeep.open_sheet(club, "schnapsen", [ben, long], factories.presets()["wiki"])
    services.record_entry(two, QuickDeal(0, 3), uuid.uuid4(), actor)
    factories.tournament(club, sold=4)
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("carl")
    page.locator("input[name=password]").fill("pw-carl")
    page.locator("main form button").click()
    return club


def test_no_club_page_scrolls_sideways_on_a_320_phone(live_server, page, club):
    long = Player.objects.get(club=club, name=LONG)
    pages = {
        "club": reverse("club", kwargs={"slug": club.slug}),
        "tally": reverse("club", kwargs={"slug": club.slug}) + "?game=schnapsen",
        "players": reverse("players", kwargs={"slug": club.slug}),
        "player": reverse("player", kwargs={"slug": club.slug, "player_id": long.pk}),
        "tournaments": reverse("tournaments", kwargs={"slug": club.slug}),
    }
    widths = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response.status == 200, name
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == dict.fromkeys(pages, 320)
    # A list wider than the screen scrolls inside itself.
    page.goto(live_server.url + pages["player"])
    overflow = page.locator("table.list").first.evaluate("t => getComputedStyle(t).overflowX")
    assert overflow == "auto"


def test_the_link_page_copies_the_link(live_server, page, club):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sheet = club.sheets.filter(variant="dreierschnapsen").get()
    page.goto(live_server.url + reverse("sheet:link", kwargs={"pk": sheet.pk}))
    copy = page.get_by_role("button", name="Link kopieren")
    copy.click()
    expect(page.locator("[data-said]")).to_have_text("Link kopiert.")
    copied = pasted(page)
    assert copied == f"{live_server.url}/e/{sheet.entry_token}/"
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # Chromium on a desktop has no share sheet: the button stays hidden there.
    has_share = page.evaluate("typeof navigator.share === 'function'")
    assert page.locator("[data-share-sheet]").is_visible() == has_share


def test_opening_a_table_adds_a_player_in_place_with_htmx(live_server, page, club):
    page.goto(live_server.url + reverse("open_table", kwargs={"slug": club.slug}))
    page.locator("input[name=title]").fill("Freitag")
    page.locator("select[name=player_1]").select_option(label="Ben")
    page.locator("select[name=player_2]").select_option(label="Clara")
    page.evaluate("window.stayed = true")  # gone if the page were loaded anew
    add = page.get_by_role("button", name="Anlegen")
    add.click()
    expect(page.locator("#err-new-player")).to_have_text("Den Namen des neuen Spielers eingeben.")
    assert page.locator("input[name=title]").input_value() == "Freitag"
    page.locator("#new-player").fill("Dora")
    add.click()
    expect(page.locator(".banner.ok")).to_have_text("Dora sitzt auf Platz 3.")
    assert page.locator("select[name=player_3] option:checked").inner_text() == "Dora"
    assert page.locator("select[name=player_1] option:checked").inner_text() == "Ben"
    assert page.locator("input[name=title]").input_value() == "Freitag"
    assert page.evaluate("window.stayed === true")  # swapped by htmx, not reloaded
    page.get_by_role("button", name="Tisch eröffnen").click()
    page.wait_for_url("**/tables/*/")
    assert page.locator("h1").inner_text().startswith("Freitag")
