"""A large printout in a real Chromium: the page says the PDF is being made, with its
step, and turns into the PDF by itself once the task worker made it (base.tasks)."""

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests import factories
from tests.base.test_tasks import running_worker, sheets_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_match_sheets_of_a_large_round_show_their_progress_then_the_pdf(
    live_server, page: Page, settings
):
    settings.TASKS_SYNC = False
    club = factories.club()
    factories.user(club, role="organiser", username="olga")
    t = factories.big_round(club)
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("olga")
    page.locator("input[name=password]").fill("pw-olga")
    page.locator("main form button").click()
    page.wait_for_url(f"**/c/{club.slug}/**")
    page.goto(live_server.url + sheets_url(t))
    expect(page.locator("#print-progress")).to_have_text("Die PDF wird erstellt …")
    expect(page.locator("#print-step")).to_contain_text("Schritt 1 von 3: warte auf den")
    expect(page.locator("progress")).to_have_attribute("value", "1")
    with running_worker("database"):
        # The page asks again every 2 s by itself; the answer that ends it is the PDF.
        with page.expect_response(
            lambda r: (
                r.url.endswith(sheets_url(t))
                and r.header_value("content-type") == "application/pdf"
            ),
            timeout=120_000,
        ) as done:
            pass
        assert done.value.status == 200
        assert page.request.get(done.value.url).body()[:5] == b"%PDF-"
