"""Phones on the club's server as it is deployed (``tests.serving.deployed``: gunicorn,
the push server, Redis, and Caddy with the shipped ``deploy/Caddyfile`` in front), in a
real Chromium:

- two phones saving different deals at the same moment: the refused one's refusal stays
  until its user acts on it, through the live update its held version request brings
  (20 of 20 tries);
- the writer's own "Gespeichert … Rückgängig" stays through the update that its own
  announcement wakes;
- the push server stopped: the page polls the site through the proxy, no badge;
- the site restarted while a deal is tapped: the proxy's 502 keeps it waiting on the
  phone, a reload shows the kept page, and once the site is back the deal is sent, once;
- the proxy gone: the badge within 3 s, and gone within 3 s of its return.

Seats: Anna 0 deals first, Ben 1 is the first Rufer, Clara 2 (a Bettler is worth 4 to
its declarer, a Gang 9).
"""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from scoring import services
from scoring.models import Deal
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.test_browser_live import tap
from tests.serving import deployed, why_not_deployed
from tests.waiting import wait_until

REDIS = "redis://127.0.0.1:6379/10"
pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(bool(why_not_deployed("caddy")), reason=why_not_deployed("caddy")),
]


def phone(browser: Browser, url: str) -> Page:
    page = browser.new_context(viewport=PHONE, locale="de-AT").new_page()
    page.goto(url)
    return page


def sheet_url(site, sheet) -> str:
    return site.url + reverse("entry:page", kwargs={"token": sheet.entry_token})


def deals(sheet) -> int:
    return Deal.objects.filter(sheet=sheet).count()


def settled(page: Page) -> None:
    wait_until(page, "document.querySelector('.htmx-request') === null", timeout=10000)


def test_two_phones_racing_the_refused_deal_stays_until_acted_on(browser: Browser, sheet):
    with deployed(proxy="caddy", redis_url=REDIS) as site:
        phones = [phone(browser, sheet_url(site, sheet)) for _ in range(2)]
        entries = [(1, "bettler"), (2, "gang")]
        for attempt in range(20):
            before = deals(sheet)
            for page, (declarer, contract) in zip(phones, entries, strict=True):
                tap(page, "declarer", declarer)
                tap(page, "contract", contract)
            buttons = [p.locator('form.deal-form button[name=won][value="1"]') for p in phones]
            for button in buttons:  # both at the same moment, as far as a test can
                button.dispatch_event("click")
            for page in phones:
                settled(page)
            assert deals(sheet) == before + 1, attempt
            refusals = [p.locator('#sheet [data-refusal="stale"]') for p in phones]
            refused = [i for i, r in enumerate(refusals) if r.count()]
            assert len(refused) == 1, (attempt, refused)
            page = phones[refused[0]]
            # The other phone's deal was announced: the held version request woke.
            page.wait_for_timeout(1500)
            expect(refusals[refused[0]]).to_contain_text(
                "wurde von einem anderen Handy eingetragen"
            )
            page.locator("#sheet .banner.error button.anyway").click()
            settled(page)
            assert deals(sheet) == before + 2, attempt
            for p in phones:
                expect(p.locator("#sheet")).to_have_attribute(
                    "data-version",
                    phones[refused[0]].locator("#sheet").get_attribute("data-version") or "",
                    timeout=5000,
                )


def test_the_writers_saved_banner_stays(browser: Browser, sheet):
    with deployed(proxy="caddy", redis_url=REDIS) as site:
        page = phone(browser, sheet_url(site, sheet))
        page.wait_for_timeout(1000)  # a version request is held
        for n in range(5):
            tap(page, "declarer", n % 3)
            tap(page, "contract", "bettler")
            page.locator('form.deal-form button[name=won][value="1"]').click()
            settled(page)
            assert deals(sheet) == n + 1
            saved = page.locator("#sheet .banner.saved")
            expect(saved).to_contain_text("Gespeichert")
            page.wait_for_timeout(1000)  # its own announcement wakes the held request
            expect(saved).to_contain_text("Gespeichert")
            expect(saved.locator("button.undo")).to_be_visible()


def test_with_the_push_server_stopped_the_page_polls_the_site(browser: Browser, sheet):
    with deployed(proxy="caddy", redis_url=REDIS) as site:
        assert site.push is not None
        page = phone(browser, sheet_url(site, sheet))
        page.wait_for_timeout(1000)
        site.push.stop()
        services.record_entry(
            sheet, services.core.DreierDeal("gang", 2, True), factories.key(), services.Actor()
        )
        expect(page.locator("table.score .totals td")).to_have_text(["0", "0", "9"], timeout=5000)
        page.wait_for_timeout(4000)
        expect(page.locator("#connection")).to_be_hidden()


def test_a_deal_tapped_while_the_site_restarts_waits_and_is_sent_once(browser: Browser, sheet):
    with deployed(proxy="caddy", redis_url=REDIS) as site:
        page = phone(browser, sheet_url(site, sheet))
        # The service worker keeps the page (the first one it did not control too).
        wait_until(
            page,
            "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(Boolean)",
            timeout=10000,
        )
        site.site.stop()
        tap(page, "contract", "bettler")
        page.locator('form.deal-form button[name=won][value="1"]').click()
        waiting = page.locator("#live")
        expect(waiting).to_contain_text("1 Spiel wartet auf die Verbindung")
        # Reloaded while the site is down: the kept page, the deal still waiting.
        page.reload()
        expect(page.locator("html[data-kept-copy]")).to_have_count(1)
        expect(waiting).to_contain_text("1 Spiel wartet auf die Verbindung")
        assert deals(sheet) == 0
        site.site.start()
        expect(waiting).to_be_hidden(timeout=10000)
        expect(page.locator("table.score .totals td")).to_have_text(["0", "4", "0"])
        assert deals(sheet) == 1


def test_the_badge_comes_and_goes_within_3_s_with_the_connection(browser: Browser, sheet):
    with deployed(proxy="caddy", redis_url=REDIS) as site:
        assert site.proxy is not None
        page = phone(browser, sheet_url(site, sheet))
        page.wait_for_timeout(1500)  # a version request is held
        badge = page.locator("#connection")
        expect(badge).to_be_hidden()
        site.proxy.stop()
        expect(badge).to_be_visible(timeout=3000)
        site.proxy.start()
        expect(badge).to_be_hidden(timeout=3000)
