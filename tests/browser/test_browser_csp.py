"""The site's Content-Security-Policy in a real Chromium (``base.csp``): the sheet page
records deals with taps, polls and swaps with htmx, the members page asks before it
removes, the club page's season list sends itself, the admin's widgets work, a PDF
opens in the viewer and the offline copy of a sheet keeps the policy, and the browser
reports no violation of the policy anywhere (the ``securitypolicyviolation`` event and
the console)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import Error, Page, expect

from clubs import invitations
from clubs.models import Membership
from tests import factories
from tests.waiting import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
# Runs before the page's own scripts (Playwright's init script is not subject to the policy).
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__violations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});
"""


class Watched:
    """A page whose policy violations are collected: the DOM event and the console."""

    def __init__(self, page: Page):
        self.page = page
        self.console: list[str] = []
        page.on("console", lambda message: self.console.append(message.text))
        page.add_init_script(WATCH)

    def violations(self) -> list[str]:
        reported = self.page.evaluate("window.__violations || []")
        said = [t for t in self.console if "Content Security Policy" in t or "Refused to" in t]
        return reported + said


def tap(page: Page, name: str, value) -> None:
    label = page.locator(f'label:has(input[name={name}][value="{value}"])')
    if label.evaluate("el => !!el.closest('details:not([open])')"):
        page.locator("details.more > summary").click()
    label.click()


def sign_in(page: Page, live_server, username: str, path: str) -> None:
    page.goto(live_server.url + reverse("login") + f"?next={path}")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("pw-" + username)
    page.locator("main form button").click()
    page.wait_for_url(live_server.url + path)


def test_the_sheet_records_deals_with_taps_and_violates_no_policy(live_server, page: Page):
    club = factories.club()
    factories.user(club, role="scorer", username="sepp")
    sheet = factories.sheet(club)
    watched = Watched(page)
    path = reverse("sheet:page", kwargs={"pk": sheet.pk})
    sign_in(page, live_server, "sepp", path)
    response = page.reload()
    assert response.headers["content-security-policy"] == POLICY
    # htmx runs without eval and put no <style> of its own into the page.
    assert page.evaluate("[htmx.config.allowEval, htmx.config.includeIndicatorStyles]") == [
        False,
        False,
    ]
    assert page.evaluate("document.querySelectorAll('style, [style]').length") == 0
    # Ben (the Rufer) wins a Bettler: 4 to him; Clara, the next Rufer, wins a Gang: 9.
    tap(page, "contract", "bettler")
    page.locator('form.deal-form button[name=won][value="1"]').click()
    expect(page.locator("table.score .totals td")).to_have_text(["0", "4", "0"])
    tap(page, "declarer", 2)
    tap(page, "contract", "gang")
    page.locator('form.deal-form button[name=won][value="1"]').click()
    expect(page.locator("table.score .totals td")).to_have_text(["0", "4", "9"])
    expect(page.locator("#sheet .banner.error")).to_have_count(0)
    # Undo the last deal (an htmx form too), then let the version poll run a few times.
    page.locator("#sheet button.undo").click()
    expect(page.locator("table.score .totals td")).to_have_text(["0", "4", "0"])
    page.wait_for_timeout(4500)
    assert watched.violations() == []


def test_the_members_page_asks_before_it_removes_and_the_season_list_sends_itself(
    live_server, page: Page
):
    club = factories.club()
    factories.user(club, role="owner", username="olga")
    max_ = factories.user(club, role="member", username="max")
    factories.sheet(club)
    watched = Watched(page)
    members = reverse("members", kwargs={"slug": club.slug})
    sign_in(page, live_server, "olga", members)
    row = page.locator(f"#member-{Membership.objects.get(user=max_).pk}")
    row.locator("summary").click()
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    row.locator("button.lost").click()
    page.wait_for_timeout(500)
    assert asked == ["max aus dem Verein entfernen?"]
    assert Membership.objects.filter(user=max_).exists()
    page.once("dialog", lambda dialog: answer(dialog, True))
    row.locator("button.lost").click()
    expect(page.locator(".messages")).to_contain_text("max gehört nicht mehr zum Verein.")
    assert not Membership.objects.filter(user=max_).exists()
    # The club page's season list sends its form when a season is chosen.
    page.goto(live_server.url + reverse("club", kwargs={"slug": club.slug}))
    year = page.locator("select[name=season] option").nth(1).get_attribute("value")
    page.locator("select[name=season]").select_option(year)
    page.wait_for_url(f"**season={year}")
    expect(page.locator("select[name=season]")).to_have_value(year)
    assert watched.violations() == []


def test_the_admin_works_under_the_same_policy(live_server, page: Page):
    club = factories.club()
    chief = get_user_model().objects.create_superuser("chef", password="pw-chef")
    Membership.objects.create(user=chief, club=club, role="owner")
    invitation = invitations.create_invitation(club, "member", chief)
    watched = Watched(page)
    sign_in(page, live_server, "chef", "/admin/")
    membership = Membership.objects.get(user=chief)
    for path in (
        "/admin/clubs/membership/",
        f"/admin/clubs/membership/{membership.pk}/change/",
        "/admin/auth/group/add/",
        f"/admin/clubs/invitation/{invitation.pk}/change/",
        f"/admin/auth/user/{chief.pk}/password/",
    ):
        response = page.goto(live_server.url + path)
        assert response.status == 200 and response.headers["content-security-policy"] == POLICY
        if "membership" in path and "change" in path:
            # The autocomplete (select2): open it and search.
            page.locator(".select2-selection").first.click()
            page.keyboard.type("ch")
            expect(page.locator(".select2-results__option").first).to_contain_text("chef")
            page.keyboard.press("Escape")
        if "group" in path:
            # The two-list selector of permissions: choose all.
            page.locator("#id_permissions_add_all").click()
            expect(page.locator("#id_permissions_to option").first).to_be_attached()
        if "invitation" in path:
            # The calendar and the clock of "revoked at".
            page.locator("#calendarlink0").click()
            expect(page.locator("#calendarbox0")).to_be_visible()
            page.locator("#calendarbox0 .calendar-shortcuts a").first.click()
            expect(page.locator("#id_revoked_at_0")).not_to_have_value("")
            page.locator("#clocklink0").click()
            expect(page.locator("#clockbox0")).to_be_visible()
    assert watched.violations() == []


def test_a_pdf_opens_in_the_viewer_under_the_policy(live_server, page: Page):
    sheet = factories.sheet(factories.club())
    watched = Watched(page)
    url = live_server.url + reverse("entry:print_blank", kwargs={"token": sheet.entry_token})
    try:
        response = page.goto(url)
    except Error as error:  # a Chromium without its PDF viewer downloads the file
        pytest.skip(f"this Chromium shows no PDF: {error}")
    assert response.status == 200
    for _ in range(100):  # the viewer is a frame of Chromium's own
        if any(frame.url.startswith("chrome-extension://") for frame in page.frames):
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"no PDF viewer: {[frame.url for frame in page.frames]}")
    page.wait_for_timeout(500)
    assert watched.violations() == []


def test_the_offline_copy_of_a_sheet_keeps_the_policy(live_server, browser):
    sheet = factories.sheet(factories.club())
    context = browser.new_context(viewport={"width": 360, "height": 640}, locale="de-AT")
    try:
        page = context.new_page()
        watched = Watched(page)
        page.goto(live_server.url + reverse("entry:page", kwargs={"token": sheet.entry_token}))
        wait_until(page, "navigator.serviceWorker && !!navigator.serviceWorker.controller")
        page.reload()  # the worker keeps a copy of this one
        wait_until(page, "!!navigator.serviceWorker.controller")
        context.set_offline(True)
        wait_until(page, "navigator.onLine === false")
        page.reload()
        assert page.evaluate("document.documentElement.hasAttribute('data-kept-copy')")
        assert watched.violations() == []
        # An inline script in the kept copy is refused, as on the page from the network.
        page.evaluate(
            "() => { const s = document.createElement('script');"
            " s.textContent = 'window.__ran = true'; document.head.appendChild(s); }"
        )
        page.wait_for_timeout(200)
        assert page.evaluate("window.__ran === undefined")
        assert any("script-src" in v for v in watched.violations())
    finally:
        context.close()


def test_the_expired_page_goes_back_without_a_javascript_link(live_server, page: Page):
    """A form sent with a CSRF token no longer valid: the page's Back button (``data-back``,
    ``site.js``) goes back to the form's page."""
    watched = Watched(page)
    login = live_server.url + reverse("login")
    page.goto(login)
    page.context.clear_cookies()  # the form's token no longer matches any cookie
    page.locator("input[name=username]").fill("nobody")
    page.locator("input[name=password]").fill("wrong")
    page.locator("main form button").click()
    back = page.locator("main a[data-back]")
    expect(back).to_be_visible()
    back.click()
    page.wait_for_url(login)
    assert watched.violations() == []
