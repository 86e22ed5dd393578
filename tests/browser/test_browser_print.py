"""Every print button of the demo data gives a PDF, in a real Chromium."""

import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tournaments.models import Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fetch_pdfs(page, count: int) -> None:
    """Click every print button on the page; each must answer with a PDF."""
    back = page.url
    for i in range(count):
        buttons = page.locator("a.print")
        expect(buttons).to_have_count(count)
        href = buttons.nth(i).get_attribute("href")
        with page.expect_response(lambda r, href=href: r.url.endswith(href)) as info:
            buttons.nth(i).click()
        response = info.value
        assert response.status == 200, href
        assert response.header_value("content-type") == "application/pdf", href
        assert page.request.get(response.url).body()[:5] == b"%PDF-", href  # the same, as bytes
        page.goto(back)


def test_every_print_button_gives_a_pdf(live_server, page):
    call_command("seed")
    page.goto(live_server.url + "/accounts/login/")
    page.locator("input[name=username]").fill("demo")
    page.locator("input[name=password]").fill("schnapsen-demo")
    page.locator("main form button").click()
    expect(page).to_have_url(re.compile(r"/c/gruener-baum/$"))

    page.locator("table a[href^='/tables/']").first.click()
    expect(page.locator("#sheet")).to_be_visible()
    fetch_pdfs(page, 2)  # the evening and the blank sheet

    running = Tournament.objects.get(name__startswith="Weihnachts")
    page.goto(f"{live_server.url}/c/gruener-baum/tournaments/{running.pk}/")
    fetch_pdfs(page, 4)  # bracket, prizes, where do I play, cash report
    page.goto(f"{live_server.url}/c/gruener-baum/tournaments/{running.pk}/rounds/2/")
    fetch_pdfs(page, 2)  # draw list and match score sheets
