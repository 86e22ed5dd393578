"""Bauernschnapsen pages on a 360 × 640 phone: the sheet of four and a club's copy of the
``bauern`` rule set do not scroll sideways (a wide list scrolls inside itself).
Playwright with the system Chromium, against the live test server."""

import pytest
from django.urls import reverse

from clubs.audit import SYSTEM
from scoring.rulesets import copy_rule_set
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Maximilian Oberhollenzer-Größwang", "Ben", "Clara", "Dora")


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 640}}


def test_the_sheet_of_four_and_the_bauern_rule_set_fit_a_360_phone(live_server, page):
    club = factories.club(name="Vierer")
    factories.user(club, role="organiser", username="vera")
    sheet = factories.sheet(club, names=NAMES, preset="bauern")
    copy = copy_rule_set(club, factories.presets()["bauern"], actor=SYSTEM)
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("vera")
    page.locator("input[name=password]").fill("pw-vera")
    page.locator("main form button").click()
    pages = {
        "sheet": reverse("sheet:page", kwargs={"pk": sheet.pk}),
        "rule set": reverse("rule_set", kwargs={"slug": club.slug, "rule_set_id": copy.pk}),
        "open": reverse("open_table", kwargs={"slug": club.slug}) + "?variant=bauernschnapsen",
    }
    widths = {}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response.status == 200, name
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
    assert widths == dict.fromkeys(pages, 360)
    # On the sheet, the four declarer buttons share one row.
    page.goto(live_server.url + pages["sheet"])
    tops = page.locator("#sheet fieldset.seats label").evaluate_all(
        "ls => ls.map(l => Math.round(l.getBoundingClientRect().top))"
    )
    assert len(tops) == 4 and len(set(tops)) == 1, tops
