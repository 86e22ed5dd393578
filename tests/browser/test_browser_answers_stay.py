"""A form's answer is never replaced by a live update, and a lost connection is a lost
connection whatever says so, in a real Chromium (live.js, the service worker).

The races a club's server brings (a version request held by the push server wakes
while the phone's own form is under way) are made here on purpose: the page's own
``fetch`` is wrapped (``HOLD``) so that a version request or a live update's page can
be kept back until the test lets it go, and a deal's answer is kept back by a route.

Seats: Anna 0 deals first, Ben 1 is the first Rufer (the declarer preset), Clara 2.
"""

import pytest
from playwright.sync_api import BrowserContext, expect

from scoring import services
from scoring.models import Deal
from tests import factories
from tests.browser.test_browser_live import (
    POLLS,
    dead_spot,
    entry_url,
    expect_totals,
    tap,
    won,
)
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# ``hold.version``: the next version requests are sent when ``release()`` is called (as
# a held request that answers then); ``hold.page``: a live update's page is sent at
# once, but its answer reaches live.js only at ``release()``.
HOLD = r"""
(() => {
  const send = window.fetch;
  window.hold = { version: false, page: false };
  window.kept = [];
  window.release = () => window.kept.splice(0).map((go) => go()).length;
  window.fetch = function () {
    const args = arguments, url = String(args[0]);
    const post = args[1] && args[1].method === "POST";
    const kind = /\/version\/(\?|$)/.test(url) ? "version" : post ? "post" : "page";
    if (kind === "version" && window.hold.version) {
      return new Promise((resolve) => window.kept.push(() => resolve(send.apply(this, args))));
    }
    if (kind === "page" && window.hold.page) {
      const answer = send.apply(this, args);
      return new Promise((resolve) => window.kept.push(() => resolve(answer)));
    }
    return send.apply(this, args);
  };
})();
"""


def another_phone_records(sheet) -> None:
    services.record_entry(
        sheet, services.core.DreierDeal("bettler", 1, True), factories.key(), services.Actor()
    )


def test_a_refusal_stays_when_a_live_update_fetched_before_it_arrives_after_it(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.add_init_script(HOLD)
    page.goto(entry_url(live_server, sheet))
    page.evaluate("window.hold.page = true")
    another_phone_records(sheet)
    # The page saw the new version and fetched the sheet: its answer is on the way.
    wait_until(page, "window.kept.length === 1", timeout=5000)
    # Meanwhile its user records Clara's Gang on the sheet as the page showed it.
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    won(page)
    refusal = page.locator('#sheet [data-refusal="stale"]')
    expect(refusal).to_contain_text("Spiel 1 wurde von einem anderen Handy eingetragen")
    page.evaluate("window.hold.page = false; window.release()")
    page.wait_for_timeout(2500)  # the late update, and the next poll
    expect(refusal).to_be_visible()
    # Acted on, the refusal goes: the deal is recorded anyway.
    page.locator("#sheet .banner.error button.anyway").click()
    expect_totals(page, 0, 4, 9)
    assert Deal.objects.filter(sheet=sheet).count() == 2


def test_a_refusal_stays_when_another_phone_records_and_the_change_is_announced(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    tap(page, "contract", "bettler")
    page.locator("form.deal-form button[name=won][value]").first.evaluate(
        "b => b.form.querySelector('input[name=after]').value = 'nonsense'"
    )
    won(page)
    refusal = page.locator("#sheet [data-refusal]")
    expect(refusal.first).to_be_visible()
    another_phone_records(sheet)
    changed = page.locator("#live button")
    expect(changed).to_have_text(
        "Das Blatt wurde auf einem anderen Handy geändert: hier tippen, um es zu sehen.",
        timeout=5000,
    )
    expect(refusal.first).to_be_visible()
    changed.click()
    expect_totals(page, 0, 4, 0)


def test_the_writers_saved_banner_stays_when_a_poll_held_across_the_save_comes_back(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.add_init_script(HOLD)
    page.goto(entry_url(live_server, sheet))
    page.evaluate("window.hold.version = true")
    wait_until(page, "window.kept.length === 1", timeout=5000)  # a version request held
    answers = []

    def answer_later(route):
        answers.append((route, route.fetch()))  # recorded now, answered when the test says

    page.route("**/record/", answer_later)
    tap(page, "contract", "bettler")
    won(page)
    wait_until(page, "document.querySelector('.htmx-request') !== null")
    page.wait_for_timeout(200)  # the handler ran: the deal is recorded
    assert Deal.objects.filter(sheet=sheet).count() == 1
    # The held request wakes with the new version before the deal's answer is in: the
    # page fetches the sheet, whose answer is kept back until after the deal's.
    page.evaluate("window.hold = {version: false, page: true}; window.release()")
    wait_until(page, "window.kept.length === 1", timeout=5000)
    route, answer = answers[0]
    route.fulfill(response=answer)
    saved = page.locator("#sheet .banner.saved")
    expect(saved).to_contain_text("Gespeichert")
    page.evaluate("window.hold.page = false; window.release()")
    page.wait_for_timeout(2500)
    expect(saved).to_contain_text("Gespeichert")
    expect(saved.locator("button.undo")).to_be_visible()


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_deal_answered_by_the_proxy_while_the_site_restarts_waits_and_is_sent_once(
    live_server, phone_context: BrowserContext, sheet, status
):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    sent = []

    def proxy(route):
        sent.append(route.request.post_data)
        route.fulfill(status=status, body="Bad Gateway", content_type="text/plain")

    page.route("**/record/", proxy)
    tap(page, "contract", "bettler")
    won(page)
    waiting = page.locator("#live")
    expect(waiting).to_contain_text("1 Spiel wartet auf die Verbindung")
    expect(page.locator("#offline")).to_be_hidden()
    # Sent again while the site still restarts: it keeps waiting, nothing else is said.
    page.wait_for_timeout(4500)
    assert len(sent) >= 2
    expect(waiting).to_contain_text("1 Spiel wartet auf die Verbindung")
    expect(page.locator("#offline")).to_be_hidden()
    assert Deal.objects.filter(sheet=sheet).count() == 0
    page.unroute("**/record/")
    expect(waiting).to_be_hidden(timeout=5000)
    expect_totals(page, 0, 4, 0)
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_the_first_page_a_phone_opens_is_kept_for_a_dead_spot(
    live_server, phone_context: BrowserContext, sheet
):
    another_phone_records(sheet)
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    # Not reloaded: the worker was installed by this very page.
    wait_until(
        page,
        "navigator.serviceWorker.ready.then(() => caches.match(location.href)).then(Boolean)",
        timeout=10000,
    )
    dead_spot(phone_context, page, True)
    page.reload()
    expect(page.locator("html[data-kept-copy]")).to_have_count(1)
    expect_totals(page, 0, 4, 0)


def test_a_held_version_request_does_not_delay_the_badge(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    held = []

    def hold_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)  # never answered: a request the push server holds

    page.route(POLLS, hold_first)
    page.goto(entry_url(live_server, sheet))
    page.wait_for_timeout(2500)  # the first poll went, and is held
    assert len(held) == 1
    badge = page.locator("#connection")
    expect(badge).to_be_hidden()
    dead_spot(phone_context, page, True)
    expect(badge).to_be_visible(timeout=3000)
    dead_spot(phone_context, page, False)
    expect(badge).to_be_hidden(timeout=3000)
    # Back online, a deal from another phone shows on the busy schedule again.
    another_phone_records(sheet)
    expect_totals(page, 0, 4, 0, timeout=3000)


def test_a_failed_send_counts_towards_the_badge(live_server, phone_context: BrowserContext, sheet):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    page.wait_for_timeout(500)
    page.route("**/record/", lambda route: route.abort())
    page.route(POLLS, lambda route: route.abort())
    tap(page, "contract", "bettler")
    won(page)
    # The send, then the next poll (due 2 s later): two requests that did not come through.
    expect(page.locator("#connection")).to_be_visible(timeout=3000)
    page.unroute(POLLS)
    page.unroute("**/record/")
    expect(page.locator("#connection")).to_be_hidden(timeout=3000)
    expect(page.locator("#live")).to_be_hidden(timeout=5000)
    assert Deal.objects.filter(sheet=sheet).count() == 1
