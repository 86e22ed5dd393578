"""First impressions in Chromium: the message a page was loaded with ("Spiel 1 korrigiert")
goes once the next tap is answered in place, so messages never pile up; the members page
copies an invitation's link with a button (``static/js/share.js``)."""

import datetime as dt
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from clubs.models import Invitation
from scoring import services
from scoring.models import Deal
from scoring.rules import DreierDeal
from tests import factories
from tests.browser import pasted

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page: Page, live_server, username: str) -> None:
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill("pw-" + username)
    page.locator("main form button").click()
    page.wait_for_url(re.compile(r"/c/"))


def test_a_correction_message_goes_when_the_next_deal_is_saved(live_server, page: Page):
    club = factories.club()
    factories.user(club, role="scorer", username="sepp")
    sheet = factories.sheet(club)  # Anna, Ben (first Rufer), Clara
    services.record_entry(sheet, DreierDeal("gang", 1, True), uuid.uuid4(), services.Actor())
    deal = Deal.objects.get(sheet=sheet)
    sign_in(page, live_server, "sepp")
    page.goto(
        live_server.url + reverse("sheet:correct", kwargs={"pk": sheet.pk, "deal_id": deal.pk})
    )
    page.locator('label:has(input[name=contract][value="bettler"])').click()
    page.locator('form.deal-form button[name=won][value="1"]').click()
    page.wait_for_url(live_server.url + reverse("sheet:page", kwargs={"pk": sheet.pk}))
    said = page.locator("main > ul.messages li")
    expect(said).to_have_count(1)
    expect(said).to_have_text(re.compile(r"^Spiel 1 korrigiert: "))
    page.evaluate("window.stayed = true")  # gone if the page were loaded anew
    page.locator('label:has(input[name=contract][value="bettler"])').click()  # deal 2, htmx
    page.locator('form.deal-form button[name=won][value="1"]').click()
    expect(page.locator("#sheet .banner.saved")).to_have_count(1)
    expect(page.locator("#sheet ol.deals li.deal")).to_have_count(2)
    expect(page.locator("main > ul.messages")).to_have_count(0)
    expect(page.locator(".banner:visible")).to_have_count(1)  # the new deal's, none above
    assert page.evaluate("window.stayed === true")


def test_the_members_page_copies_each_invitation_link(live_server, page: Page):
    club = factories.club()
    olga = factories.user(club, role="owner", username="olga")
    older = Invitation.objects.create(
        club=club, role="scorer", created_by=olga, expires_at=timezone.now() + dt.timedelta(days=1)
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, live_server, "olga")
    page.goto(live_server.url + reverse("members", kwargs={"slug": club.slug}))
    page.get_by_role("button", name="Einladungslink erstellen").click()
    new = Invitation.objects.exclude(pk=older.pk).get(club=club)
    page.wait_for_url(re.compile(rf"\?new={new.pk}$"))
    page.locator(f"#invitation-{older.pk} summary").click()  # the new one is open already
    for invitation in (new, older):
        item = page.locator(f"#invitation-{invitation.pk}")
        copy = item.get_by_role("button", name="Link kopieren")
        expect(copy).to_be_visible()
        copy.click()
        expect(item.locator("[data-said]")).to_have_text("Link kopiert.")
        link = f"{live_server.url}/j/{invitation.token}/"
        assert pasted(page) == link
        assert item.locator("input.copy").input_value() == link
