"""The public cup page on a phone (390 × 844): the standings, with long names, several
nights and a struck result, are readable without scrolling sideways, the page itself
and the table alike. Playwright with the system Chromium, against the live server."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import audit
from cups import services
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LONG = "Maximilian Oberhollenzer-Größwang"


def test_the_public_cup_page_fits_a_phone(live_server, page):
    club = factories.club(name="Schnapsrunde zum Goldenen Hirschen")
    body = factories.body(clubs=(club,))
    cup = factories.cup(body, name="Bezirkscup Unterkärnten", best_of=3)
    names = [LONG, "Anna Österreicher", "Ben", "Clara", "Dora Mittermayr-Huber"]
    for day in range(6):
        order = names[day % 5 :] + names[: day % 5]
        when = timezone.now() - dt.timedelta(days=10 - day)
        t = factories.played_night(club, order, starts_at=when, name=f"Abend {day + 1}")
        services.count_night(cup, t, actor=audit.SYSTEM)
    url = reverse("cups:cup", kwargs={"slug": body.slug, "cup_slug": cup.slug})
    response = page.goto(live_server.url + url)
    assert response.status == 200
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    table = page.locator("#table-all")
    assert table.evaluate("t => t.scrollWidth <= t.clientWidth")
    assert table.locator("tbody tr").count() == 5
    assert table.locator("del").count() >= 5  # 6 nights, best 3: struck results shown
    first = table.locator("tbody tr").first
    assert first.is_visible() and first.locator("td").last.inner_text().isdigit()
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.goto(live_server.url + url + "?after=2")
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    assert page.locator("nav.tabs a[aria-current=page]").inner_text() == "nach 2"
