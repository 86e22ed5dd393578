"""Stale pages in a real Chromium: the Back button after saving a deal, two phones at
one table, and every refusal of the sheet visible where the user tapped (360 x 640).

Seats: Anna 0 deals first, Ben 1 is the first Rufer (the declarer preset), Clara 2.
Wiki rules: a Bettler is worth 4 to its declarer, a Gang 9; a normal game needs its
points (1, 2 or 3) before *Gewonnen*.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from scoring import reading, services
from scoring.models import Deal
from tests import factories
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}

IN_VIEW_AND_UNCOVERED = """(selector) => {
  const el = document.querySelector(selector);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  if (r.height === 0 || r.top < 0 || r.left < 0) return false;
  if (r.bottom > window.innerHeight || r.right > window.innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && el.contains(hit);
}"""


def tap(page: Page, name: str, value) -> None:
    """Tap the button-styled radio ``name`` = ``value`` (its wrapping label)."""
    page.locator(f'label:has(input[name={name}][value="{value}"])').click()


def sign_in(page: Page, base: str, user, url: str) -> None:
    page.goto(f"{base}{reverse('login')}?next={url}")
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill("pw-" + user.username)
    page.locator("main form button").click()
    expect(page).to_have_url(base + url)


def expect_totals(page: Page, *totals: int) -> None:
    expect(page.locator("table.score .totals td")).to_have_text([str(t) for t in totals])


def expect_refusal_in_view(page: Page, selector: str, text: str | re.Pattern) -> None:
    """The refusal ``selector`` says ``text``, lies inside the phone's screen, and
    nothing (the sticky won/lost bar) covers its middle."""
    expect(page.locator(selector).first).to_contain_text(text)
    wait_until(page, IN_VIEW_AND_UNCOVERED, arg=selector, timeout=5000)
    box = page.locator(selector).first.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


def record_bettler_for_ben(page: Page) -> None:
    tap(page, "contract", "bettler")
    page.locator('form.deal-form button[name=won][value="1"]').click()


@pytest.fixture
def table():
    club = factories.club()
    user = factories.user(club, role="organiser")
    return factories.sheet(club), user


def test_back_after_saving_a_deal_never_drops_the_next_one(live_server, page: Page, table):
    sheet, user = table
    url = reverse("sheet:page", kwargs={"pk": sheet.pk})
    sign_in(page, live_server.url, user, url)
    record_bettler_for_ben(page)
    expect(page.locator("#sheet .banner.ok")).to_contain_text("Bettler · Ben · gewonnen")
    expect_totals(page, 0, 4, 0)

    # Leave the sheet, then Back.
    page.locator(f'header nav a[href="{reverse("club", args=[sheet.club.slug])}"]').click()
    expect(page).to_have_url(re.compile(r"/c/[\w-]+/$"))
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.go_back()
    expect(page).to_have_url(live_server.url + url)
    # The sheet as it is (the page asked again, or kept in memory as last seen): never
    # the page from before the Bettler with its used key.
    expect_totals(page, 0, 4, 0)

    # Clara's Gang, won: +9 to Clara, saved and shown.
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    page.locator('form.deal-form button[name=won][value="1"]').click()
    expect(page.locator("#sheet .banner.ok")).to_contain_text(
        "Gespeichert: Gang · Clara · gewonnen"
    )
    expect_totals(page, 0, 4, 9)
    assert reading.read_sheet(sheet).state.totals == (0, 4, 9)
    print("Back: the sheet page was", "asked again" if url in str(asked) else "kept in memory")


@pytest.mark.browser_context_args(service_workers="block")
def test_an_old_page_shown_after_back_refuses_its_used_key_in_plain_words(
    live_server, page: Page, table
):
    """As if the browser had kept the page from before the first deal (it may not:
    no-store), with the key that deal used, and had no answer to its live updates (the
    service worker is off, so that the old page can be put in its place)."""
    sheet, user = table
    url = reverse("sheet:page", kwargs={"pk": sheet.pk})
    sign_in(page, live_server.url, user, url)
    old_html = page.content()
    record_bettler_for_ben(page)
    expect_totals(page, 0, 4, 0)
    page.locator(f'header nav a[href="{reverse("club", args=[sheet.club.slug])}"]').click()
    expect(page).to_have_url(re.compile(r"/c/[\w-]+/$"))
    page.route(
        live_server.url + url, lambda route: route.fulfill(body=old_html, content_type="text/html")
    )
    page.route(re.compile(r"/version/(\?|$)"), lambda route: route.abort())
    page.go_back()
    expect_totals(page, 0, 0, 0)  # the old page
    page.unroute(live_server.url + url)
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    page.locator('form.deal-form button[name=won][value="1"]').click()
    # Refused, not "Saved: Bettler"; the sheet as it is now, and the Gang still chosen.
    expect_refusal_in_view(
        page,
        "#sheet .banner.error",
        "Dieses Formular wurde schon für einen anderen Eintrag verwendet: Nichts wurde gespeichert.",
    )
    expect(page.locator("#sheet .banner.ok")).to_have_count(0)
    expect_totals(page, 0, 4, 0)
    assert reading.read_sheet(sheet).state.totals == (0, 4, 0)
    expect(page.locator('input[name=contract][value="gang"]')).to_be_checked()
    page.locator('form.deal-form button[name=won][value="1"]').click()
    expect(page.locator("#sheet .banner.ok")).to_contain_text(
        "Gespeichert: Gang · Clara · gewonnen"
    )
    expect_totals(page, 0, 4, 9)


def test_the_second_phone_sees_what_the_first_recorded_and_records_it_anyway(
    live_server, browser: Browser, table
):
    sheet, user = table
    url = reverse("sheet:page", kwargs={"pk": sheet.pk})
    context = browser.new_context(viewport=PHONE, locale="de-AT")
    first, second = context.new_page(), context.new_page()
    sign_in(first, live_server.url, user, url)
    second.goto(live_server.url + url)
    tap(second, "contract", "bettler")  # begun at the same time: kept through live updates
    record_bettler_for_ben(first)
    expect_totals(first, 0, 4, 0)
    # The second phone, not reloaded, records the same deal: refused, with what happened.
    second.locator('form.deal-form button[name=won][value="1"]').click()
    expect_refusal_in_view(
        second,
        "#sheet .banner.error",
        "Spiel 1 wurde von einem anderen Handy eingetragen: Bettler · Ben · gewonnen",
    )
    expect_totals(second, 0, 4, 0)
    assert Deal.objects.filter(sheet=sheet).count() == 1
    # One tap records it as the next deal.
    second.locator("#sheet .banner.error button.anyway").click()
    expect(second.locator("#sheet .banner.ok")).to_contain_text("Bettler · Ben · gewonnen")
    expect_totals(second, 0, 8, 0)
    context.close()


@pytest.fixture
def phone(live_server, browser: Browser):
    context = browser.new_context(viewport=PHONE, locale="de-AT")
    yield context.new_page()
    context.close()


def test_won_without_points_shows_its_refusal_on_the_phones_screen(live_server, phone, table):
    sheet, user = table
    # Some deals first, so that the form is well below the top of the sheet.
    for _ in range(3):
        services.record_entry(sheet, services.core.Redeal(), factories.key(), services.Actor())
    sign_in(phone, live_server.url, user, reverse("sheet:page", kwargs={"pk": sheet.pk}))
    phone.locator('form.deal-form button[name=won][value="1"]').click()
    expect_refusal_in_view(
        phone, "#err-normal_points", "Spiel 4: Ein normales Spiel zählt 1, 2 oder 3."
    )
    assert Deal.objects.filter(sheet=sheet).count() == 3


def test_the_correction_page_shows_its_refusal_on_the_phones_screen(live_server, phone, table):
    sheet, user = table
    _view, deal = services.record_entry(
        sheet, services.core.DreierDeal("bettler", 1, True), factories.key(), services.Actor()
    )
    url = reverse("sheet:correct", kwargs={"pk": sheet.pk, "deal_id": deal.pk})
    sign_in(phone, live_server.url, user, url)
    tap(phone, "contract", "normal")
    phone.locator('form.deal-form button[name=won][value="1"]').click()
    expect_refusal_in_view(
        phone, "#err-normal_points", "Spiel 1: Ein normales Spiel zählt 1, 2 oder 3."
    )
    assert reading.read_sheet(sheet).state.totals == (0, 4, 0)


def test_the_two_player_form_shows_its_refusal_on_the_phones_screen(live_server, phone):
    club = factories.club()
    user = factories.user(club, role="organiser")
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    sign_in(phone, live_server.url, user, reverse("sheet:page", kwargs={"pk": sheet.pk}))
    phone.locator('button[name=winner][value="0"]').click()  # "Anna wins", no points
    expect_refusal_in_view(phone, "#err-points", "Bitte auswählen")
    assert Deal.objects.filter(sheet=sheet).count() == 0


def test_the_live_bracket_after_back_is_the_whole_page_and_keeps_refreshing(
    live_server, page: Page
):
    from tournaments.simulation import simulate

    factories.presets()
    t = simulate(factories.club(), cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    url = live_server.url + reverse("bracket", kwargs={"token": t.public_token})
    page.goto(url)
    expect(page.locator("#live")).to_have_count(1)
    # One refresh as the screen's timer sends it: the partial, from the same URL.
    with page.expect_response(url) as refreshed:
        page.evaluate("htmx.ajax('GET', location.pathname, {target: '#live', swap: 'outerHTML'})")
    assert "<html" not in refreshed.value.text()
    page.goto(live_server.url + "/healthz")
    page.go_back()
    expect(page).to_have_url(url)
    expect(page.locator("h1")).to_contain_text(t.name)
    expect(page.locator('link[rel=stylesheet][href*="site"]')).to_have_count(1)
    expect(page.locator("#live[hx-trigger]")).to_have_count(1)
    assert page.evaluate("typeof htmx") == "object"  # the script runs: it refreshes again
