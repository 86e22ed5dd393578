"""The sheet live on every phone at a table, and in a dead spot, in a real Chromium:
a deal from one phone shows on the other within 3 s without touching what its user has
begun; deals typed offline wait on the phone and are sent once, in order; the sheet page
opens offline once it was loaded.

Seats: Anna 0 deals first, Ben 1 is the first Rufer (the declarer preset), Clara 2.
Wiki rules: a Bettler is worth 4 to its declarer, a Gang 9.
"""

import datetime as dt
import re

import pytest
from django.urls import reverse
from playwright.sync_api import BrowserContext, Page, expect

from scoring import services
from scoring.models import Deal
from tests import factories
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLLS = re.compile(r"/version/(\?|$)")  # live.js asks version/?seen=…


def tap(page: Page, name: str, value) -> None:
    page.locator(f'label:has(input[name={name}][value="{value}"])').click()


def won(page: Page) -> None:
    page.locator('form.deal-form button[name=won][value="1"]').click()


def expect_totals(page: Page, *totals: int, timeout: float = 5000) -> None:
    expect(page.locator("table.score .totals td")).to_have_text(
        [str(t) for t in totals], timeout=timeout
    )


def recorded(sheet) -> list[tuple[str, int]]:
    """The contract and declarer of each deal on ``sheet``, in the order of the sheet."""
    deals = Deal.objects.filter(sheet=sheet).order_by("position")
    return [(d.inputs["contract"], d.inputs["declarer"]) for d in deals]


def entry_url(live_server, sheet) -> str:
    return live_server.url + reverse("entry:page", kwargs={"token": sheet.entry_token})


def test_a_deal_from_one_phone_shows_on_the_other_which_keeps_its_half_filled_form(
    live_server, phone_context: BrowserContext, sheet
):
    url = entry_url(live_server, sheet)
    first, second = phone_context.new_page(), phone_context.new_page()
    first.goto(url)
    second.goto(url)
    # The second phone has begun Clara's Gang: declarer and contract chosen, not sent.
    tap(second, "declarer", 2)
    tap(second, "contract", "gang")
    tap(first, "contract", "bettler")
    won(first)
    expect_totals(first, 0, 4, 0)
    # Within 3 s, without a reload: the Bettler on the second phone.
    expect_totals(second, 0, 4, 0, timeout=3000)
    expect(second.locator("#sheet ol.deals li.deal")).to_have_count(1)
    expect(second.locator("#sheet ol.deals li.deal .what")).to_contain_text("Bettler · Ben")
    # Its form stays as its user left it.
    expect(second.locator('input[name=declarer][value="2"]')).to_be_checked()
    expect(second.locator('input[name=contract][value="gang"]')).to_be_checked()
    assert second.evaluate("performance.getEntriesByType('navigation').length") == 1
    # Sent, it is checked against the state it was begun from: one tap records it anyway.
    won(second)
    expect(second.locator("#sheet .banner.error")).to_contain_text(
        "Spiel 1 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen"
    )
    second.locator("#sheet .banner.error button.anyway").click()
    expect_totals(second, 0, 4, 9)
    expect_totals(first, 0, 4, 9, timeout=3000)


# Each version poll's time on the page's clock (``pollTimes``), and how many polls
# live.js has planned (``plans``: each poll that is answered plans the next, 2 to 10 s
# later, and so does the page as it comes), to wait for an answer before the clock goes on.
POLL_TIMES = r"""
(() => {
  const send = window.fetch, later = window.setTimeout;
  window.pollTimes = [];
  window.plans = 0;
  window.fetch = function (url) {
    if (/\/version\/(\?|$)/.test(String(url))) window.pollTimes.push(Date.now());
    return send.apply(this, arguments);
  };
  window.setTimeout = function (callback, ms) {
    if (ms >= 2000 && ms <= 10000) window.plans++; // not the requests' time limits
    return later.apply(this, arguments);
  };
})();
"""
STEP = 500  # ms of the page's clock at a time: every wait of live.js is a multiple


def test_a_phone_left_lying_asks_less_often_and_a_tap_asks_at_once(
    live_server, phone_context: BrowserContext, sheet
):
    """live.js: every 2 s for 30 s after the page came or the sheet changed, then each
    quiet poll waits 2 s longer up to 10 s; a tap asks at once and it is 2 s again."""
    page = phone_context.new_page()
    # A fixed start, so that pausing never lies in the page clock's past.
    page.clock.install(time=dt.datetime(2026, 12, 5, 19, 0))
    page.clock.pause_at(dt.datetime(2026, 12, 5, 19, 1))
    page.add_init_script(POLL_TIMES)
    page.goto(entry_url(live_server, sheet))
    start = page.evaluate("Date.now()")

    def let_pass(ms: int) -> None:
        for _ in range(ms // STEP):
            page.clock.run_for(STEP)
            # A poll sent: its answer comes in real time, the clock waits for it.
            wait_until(page, "pollTimes.length + 1 === plans", timeout=5000)

    def gaps() -> list[int]:
        times = [start, *page.evaluate("pollTimes")]
        return [b - a for a, b in zip(times, times[1:], strict=False)]

    let_pass(68_000)
    found = gaps()
    busy, slow = found[:15], found[15:]
    assert all(2000 <= gap <= 2000 + STEP for gap in busy), found
    assert len(slow) == 5, found
    for gap, wait in zip(slow, [4000, 6000, 8000, 10000, 10000], strict=True):
        assert wait <= gap <= wait + STEP, found
    # A tap on the phone: one poll at once, then every 2 s again.
    polls = len(found)
    page.locator("table.score").click()
    wait_until(page, "n => pollTimes.length === n && plans === n + 1", polls + 1, timeout=5000)
    let_pass(4000)
    assert [2000 <= gap <= 2000 + STEP for gap in gaps()[polls + 1 :]] == [True, True], gaps()
    # Left lying again, the phone still sees a deal from another phone within 10 s.
    let_pass(40_000)
    assert gaps()[-1] >= 4000, gaps()
    services.record_entry(
        sheet, services.core.DreierDeal("bettler", 1, True), factories.key(), services.Actor()
    )
    let_pass(10_000)
    expect_totals(page, 0, 4, 0, timeout=3000)


def test_an_untouched_form_is_renewed_with_the_sheet(
    live_server, phone_context: BrowserContext, sheet
):
    url = entry_url(live_server, sheet)
    first, second = phone_context.new_page(), phone_context.new_page()
    first.goto(url)
    second.goto(url)
    tap(first, "contract", "bettler")
    won(first)
    expect_totals(second, 0, 4, 0, timeout=3000)
    # Clara is the next Rufer: the fresh form presets her, and records from the new state.
    expect(second.locator('input[name=declarer][value="2"]')).to_be_checked()
    tap(second, "contract", "gang")
    won(second)
    expect(second.locator("#sheet .banner.ok")).to_contain_text("Gang · Clara · gewonnen")
    expect_totals(second, 0, 4, 9)


def dead_spot(context: BrowserContext, page: Page, offline: bool) -> None:
    """Switch the phone's connection off or on, and wait until its page knows: a page
    that knows it is offline sends nothing (Chromium's offline emulation now and then
    lets a request begun in the first moments through)."""
    context.set_offline(offline)
    wait_until(page, f"navigator.onLine === {'false' if offline else 'true'}")


def controlled(page: Page) -> None:
    """Wait until the service worker controls the page, then load it once more so that
    the worker keeps a copy of it."""
    wait_until(
        page, "navigator.serviceWorker && !!navigator.serviceWorker.controller", timeout=10000
    )
    page.reload()
    wait_until(page, "navigator.serviceWorker.controller !== null")


def test_the_sheet_page_opens_offline_once_it_was_loaded(
    live_server, phone_context: BrowserContext, sheet
):
    services.record_entry(
        sheet, services.core.DreierDeal("bettler", 1, True), factories.key(), services.Actor()
    )
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    controlled(page)
    dead_spot(phone_context, page, True)
    page.reload()
    expect(page.locator("#sheet h1")).to_contain_text("Anna · Ben · Clara")
    expect_totals(page, 0, 4, 0)
    # Styles and scripts came from the worker's cache as well.
    assert (
        page.evaluate("getComputedStyle(document.querySelector('table.score')).borderCollapse")
        == "collapse"
    )
    assert page.evaluate("typeof htmx") == "object"


def test_deals_typed_offline_wait_on_the_phone_and_are_recorded_once_in_order(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    controlled(page)
    waiting = page.locator("#live")

    dead_spot(phone_context, page, True)
    sent = []  # what the phone tries to send while it knows it is offline
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" or "/version/" in r.url else None,
    )
    tap(page, "contract", "bettler")  # Ben, the Rufer
    won(page)
    expect(waiting).to_have_text(
        "1 Spiel wartet auf die Verbindung; es wird gesendet, sobald die Seite wieder antwortet."
    )
    # The form is ready for the next deal, with a new one-time key.
    expect(page.locator('input[name=contract][value="bettler"]')).not_to_be_checked()
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    won(page)
    expect(waiting).to_contain_text("2 Spiele warten auf die Verbindung")

    # Reloaded in the dead spot: the kept page, the deals still waiting.
    page.reload()
    expect(waiting).to_contain_text("2 Spiele warten auf die Verbindung")
    tap(page, "declarer", 1)
    tap(page, "contract", "bettler")
    won(page)
    expect(waiting).to_contain_text("3 Spiele warten auf die Verbindung")
    page.wait_for_timeout(2500)  # a poll is due every 2 s
    assert sent == []
    assert Deal.objects.filter(sheet=sheet).count() == 0

    dead_spot(phone_context, page, False)
    expect(waiting).to_be_hidden(timeout=10000)
    expect_totals(page, 0, 8, 9)
    kept = Deal.objects.filter(sheet=sheet).order_by("position")
    assert recorded(sheet) == [("bettler", 1), ("gang", 2), ("bettler", 1)]
    assert len({d.key for d in kept}) == 3
    # Nothing is sent twice: a reload online finds nothing waiting.
    page.reload()
    expect(waiting).to_be_hidden()
    assert Deal.objects.filter(sheet=sheet).count() == 3


def test_a_deal_whose_request_fails_while_the_phone_thinks_it_is_online_waits_too(
    live_server, phone_context: BrowserContext, sheet
):
    """Weak Wi-Fi: the phone has a connection, but the request does not come through."""
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    page.route("**/record/", lambda route: route.abort())
    tap(page, "contract", "bettler")
    won(page)
    expect(page.locator("#live")).to_contain_text("1 Spiel wartet auf die Verbindung")
    expect(page.locator("#offline")).to_be_hidden()
    assert Deal.objects.filter(sheet=sheet).count() == 0
    page.unroute("**/record/")
    expect(page.locator("#live")).to_be_hidden(timeout=10000)
    expect_totals(page, 0, 4, 0)
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_a_deal_whose_answer_is_lost_is_recorded_once_and_the_next_follow_it(
    live_server, phone_context: BrowserContext, sheet
):
    """The request reaches the site, the site records the deal, its answer never reaches
    the phone: the phone keeps the deal and sends it again with its key, which the site
    answers as the deal it has; the deals typed behind it follow in order."""
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))

    def answer_lost(route):
        route.fetch()  # the site gets it and records it
        route.abort("connectionreset")

    page.route("**/record/", answer_lost)
    tap(page, "contract", "bettler")  # Ben, the Rufer
    won(page)
    expect(page.locator("#live")).to_contain_text("1 Spiel wartet auf die Verbindung")
    assert Deal.objects.filter(sheet=sheet).count() == 1
    # Behind it, still with no answers: Clara's Gang waits on the phone.
    page.unroute("**/record/", answer_lost)
    page.route("**/record/", lambda route: route.abort())
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    won(page)
    expect(page.locator("#live")).to_contain_text("2 Spiele warten auf die Verbindung")
    page.unroute("**/record/")
    expect(page.locator("#live")).to_be_hidden(timeout=10000)
    expect_totals(page, 0, 4, 9)
    kept = Deal.objects.filter(sheet=sheet).order_by("position")
    assert [(d.inputs["contract"], d.inputs["declarer"]) for d in kept] == [
        ("bettler", 1),
        ("gang", 2),
    ]


def test_a_double_tap_offline_keeps_one_deal(live_server, phone_context: BrowserContext, sheet):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    dead_spot(phone_context, page, True)
    tap(page, "contract", "bettler")
    page.locator('form.deal-form button[name=won][value="1"]').dblclick()
    expect(page.locator("#live")).to_contain_text("1 Spiel wartet auf die Verbindung")
    page.wait_for_timeout(500)  # a second deal would be counted by now
    expect(page.locator("#live")).to_contain_text("1 Spiel wartet auf die Verbindung")
    dead_spot(phone_context, page, False)
    expect(page.locator("#live")).to_be_hidden(timeout=10000)
    expect_totals(page, 0, 4, 0)
    assert Deal.objects.filter(sheet=sheet).count() == 1


def sign_in_on(page: Page, user) -> None:
    """Fill in the sign-in page the browser is on."""
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill("pw-" + user.username)
    page.locator("main form button").click()


def test_deals_sent_after_the_session_ended_wait_for_the_sign_in_then_go_in_order(
    live_server, phone_context: BrowserContext, sheet
):
    """The session ends while the phone is in a dead spot (or online): the site saves
    nothing and says so; the deals stay on the phone, the page asks to sign in, and
    once signed in they are recorded in the order they were typed."""
    from django.contrib.sessions.models import Session

    user = factories.user(sheet.club, role="scorer")
    path = reverse("sheet:page", kwargs={"pk": sheet.pk})
    page = phone_context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}?next={path}")
    sign_in_on(page, user)
    expect(page).to_have_url(live_server.url + path)
    waiting, offline = page.locator("#live"), page.locator("#offline")

    dead_spot(phone_context, page, True)
    tap(page, "contract", "bettler")  # Ben, the Rufer
    won(page)
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    won(page)
    expect(waiting).to_contain_text("2 Spiele warten auf die Verbindung")
    Session.objects.all().delete()  # the session ends meanwhile
    dead_spot(phone_context, page, False)
    expect(offline).to_contain_text("Nicht gespeichert: du bist nicht mehr eingeloggt. Einloggen")
    expect(waiting).to_have_text(
        "2 Spiele warten auf diesem Handy; sie werden der Reihe nach gesendet, sobald du "
        "wieder angemeldet bist."
    )
    assert Deal.objects.filter(sheet=sheet).count() == 0
    # Online and signed out, the next deal goes behind them.
    tap(page, "declarer", 1)
    tap(page, "contract", "bettler")
    won(page)
    expect(waiting).to_contain_text("3 Spiele warten auf diesem Handy")
    page.wait_for_timeout(2500)  # a poll is due every 2 s: it sends nothing of them
    assert Deal.objects.filter(sheet=sheet).count() == 0

    offline.locator("a").click()
    sign_in_on(page, user)
    expect(page).to_have_url(live_server.url + path)  # the sheet, not a POST-only URL
    expect(waiting).to_be_hidden(timeout=10000)
    expect_totals(page, 0, 8, 9)
    assert recorded(sheet) == [("bettler", 1), ("gang", 2), ("bettler", 1)]


def test_a_deal_tapped_online_after_the_session_ended_is_kept_not_lost(
    live_server, phone_context: BrowserContext, sheet
):
    from django.contrib.sessions.models import Session

    user = factories.user(sheet.club, role="scorer")
    path = reverse("sheet:page", kwargs={"pk": sheet.pk})
    page = phone_context.new_page()
    page.goto(f"{live_server.url}{reverse('login')}?next={path}")
    sign_in_on(page, user)
    Session.objects.all().delete()
    tap(page, "contract", "bettler")
    won(page)
    expect(page.locator("#live")).to_contain_text("1 Spiel wartet auf diesem Handy")
    expect(page.locator("#offline")).to_contain_text("du bist nicht mehr eingeloggt")
    assert page.url == live_server.url + path  # no sign-in page inside the sheet
    assert Deal.objects.filter(sheet=sheet).count() == 0
    # Signed in again in another tab: the next poll that comes through sends it.
    other = phone_context.new_page()
    other.goto(f"{live_server.url}{reverse('login')}?next={path}")
    sign_in_on(other, user)
    other.close()
    page.bring_to_front()  # back to the sheet's tab
    expect(page.locator("#live")).to_be_hidden(timeout=10000)
    expect(page.locator("#offline")).to_be_hidden()
    expect_totals(page, 0, 4, 0)
    assert Deal.objects.filter(sheet=sheet).count() == 1


def test_the_sheet_says_when_its_polls_do_not_come_through(
    live_server, phone_context: BrowserContext, sheet
):
    page = phone_context.new_page()
    page.goto(entry_url(live_server, sheet))
    badge = page.locator("#connection")
    page.wait_for_timeout(2500)
    expect(badge).to_be_hidden()
    page.route(POLLS, lambda route: route.abort())
    expect(badge).to_have_text("Keine Verbindung", timeout=7000)
    page.unroute(POLLS)
    expect(badge).to_be_hidden(timeout=5000)
    # A phone that knows it is offline says so at once.
    dead_spot(phone_context, page, True)
    expect(badge).to_be_visible(timeout=3000)
    dead_spot(phone_context, page, False)
    expect(badge).to_be_hidden(timeout=5000)
