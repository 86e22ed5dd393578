"""A two-player Partie and the next one on a 360 x 640 phone, in a real Chromium
(RULES.md 2).

Seats: Anna 0 deals first, Ben 1. Wiki rules: 2 Bummerl win the Partie, a Schneider
counts 2 Bummerl. Every number below is worked out by hand in the comments.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import Sheet
from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}
ANNA, BEN = 0, 1


def tap(page: Page, name: str, value) -> None:
    """Tap the button-styled radio ``name`` = ``value`` (its wrapping label)."""
    page.locator(f'label:has(input[name={name}][value="{value}"])').click()


def expect_totals(page: Page, *totals: int) -> None:
    expect(page.locator("table.score .totals td")).to_have_text([str(t) for t in totals])


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_a_partie_ends_and_the_next_one_starts_on_the_same_seats(live_server, page: Page):
    page.set_viewport_size(PHONE)
    club = factories.club()
    user = factories.user(club, role="organiser")
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    url = reverse("sheet:page", kwargs={"pk": sheet.pk})
    page.goto(f"{live_server.url}{reverse('login')}?next={url}")
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill("pw-" + user.username)
    page.locator("main form button").click()
    expect(page).to_have_url(live_server.url + url)
    expect_totals(page, 7, 7)

    # Deal 1: Anna wins 3: 7 - 3 = 4 left for her. The banner names the points.
    tap(page, "points", 3)
    page.locator('button[name=winner][value="0"]').click()
    expect(page.locator("#sheet .banner.ok .gains")).to_have_text("Anna 3 Punkte")
    expect_totals(page, 4, 7)

    # Deal 2, counted from the Augen: Ben closed and failed while Anna had a trick:
    # Anna scores 2 (RULES.md 2), 4 - 2 = 2 left. How it ended is a row of buttons.
    page.locator("details.computed summary").click()
    expect(page.locator("details.computed select")).to_have_count(0)
    ends = page.locator("details.computed fieldset:has(input[name=end]) label")
    expect(ends).to_have_count(6)
    tap(page, "end", "closed_failed")
    expect(page.locator('input[name=end][value="closed_failed"]')).to_be_checked()
    tap(page, "by", BEN)
    tap(page, "other_had_trick", 1)
    assert no_sideways_scroll(page)
    page.locator("details.computed button.won").click()
    expect(page.locator("#sheet .banner.ok .gains")).to_have_text("Anna 2 Punkte")
    expect_totals(page, 2, 7)

    # Deal 3: Anna wins 3: she has won 8 >= 7, Ben none: Schneider, 2 Bummerl, and
    # with 2 Bummerl on Ben Anna wins the Partie. The finished Bummerl reads like the
    # big numbers: points left, 0 and 7.
    tap(page, "points", 3)
    page.locator('button[name=winner][value="0"]').click()
    expect(page.locator("li.game-end")).to_contain_text("0 · 7")
    expect(page.locator("#series-score")).to_contain_text(re.compile(r"Anna\s*1\s*:\s*Ben\s*0"))
    new_partie = page.locator("form.next-partie button")
    expect(new_partie).to_be_visible()
    assert no_sideways_scroll(page)

    # Neue Partie: a new sheet on the same seats, both at 7 again; Ben deals (three
    # deals on the first sheet: Anna, Ben, Anna dealt), the series stands 1 : 0.
    new_partie.scroll_into_view_if_needed()
    new_partie.click()
    following = Sheet.objects.get(previous=sheet)
    expect(page).to_have_url(live_server.url + reverse("sheet:page", kwargs={"pk": following.pk}))
    expect_totals(page, 7, 7)
    expect(page.locator("table.score thead th").nth(BEN).locator(".badge")).to_have_count(1)
    expect(page.locator("#series-score")).to_contain_text("2")
    expect(page.locator("#series-score")).to_contain_text(re.compile(r"Anna\s*1\s*:\s*Ben\s*0"))

    # Back on the finished sheet, its button now leads to the same next Partie.
    page.go_back()
    page.reload()
    page.locator("a.next-partie").click()
    expect(page).to_have_url(live_server.url + reverse("sheet:page", kwargs={"pk": following.pk}))
    assert Sheet.objects.filter(previous=sheet).count() == 1
