"""The box that says how many deals wait on the phone never covers what the page says
(360 x 640): a waiting deal refused because another phone recorded meanwhile shows its
refusal whole, below the box, while the deals behind it still wait."""

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scoring import services
from scoring.rules import DreierDeal
from tests import factories
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap(page: Page, name: str, value) -> None:
    page.locator(f'label:has(input[name={name}][value="{value}"])').click()


def won(page: Page) -> None:
    page.locator('form.deal-form button[name=won][value="1"]').click()


def dead_spot(context: BrowserContext, page: Page, offline: bool) -> None:
    context.set_offline(offline)
    wait_until(page, f"navigator.onLine === {'false' if offline else 'true'}")


def box(page: Page, selector: str) -> dict:
    return page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }"
    )


def test_the_waiting_box_stands_clear_of_the_refusal_of_a_waiting_deal(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.goto(live_server.url + reverse("entry:page", kwargs={"token": sheet.entry_token}))
    dead_spot(phone_context, page, True)
    tap(page, "contract", "bettler")  # Ben, the Rufer
    won(page)
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    won(page)
    waiting = page.locator("#live")
    expect(waiting).to_contain_text("2 Spiele warten auf die Verbindung")
    # Meanwhile another phone records the first deal of the sheet.
    services.record_entry(sheet, DreierDeal("gang", 1, False), factories.key(), services.Actor())
    dead_spot(phone_context, page, False)
    refusal = page.locator("#sheet [data-refusal]").first
    expect(refusal).to_be_visible(timeout=10000)
    expect(waiting).to_contain_text("1 Spiel wartet auf die Verbindung")
    covered = box(page, "#live")
    shown = box(page, "#sheet [data-refusal]")
    assert shown["top"] >= covered["bottom"], (covered, shown)
    assert shown["top"] >= 0 and shown["bottom"] <= 640
