"""A sheet kept up to date on every phone: the version the pages poll, the web app's
manifest and its service worker.

Seats: Anna 0 deals first, Ben 1 is the first Rufer, Clara 2 (wiki rules: a Bettler is
worth 4 and anyone may play it)."""

import datetime as dt
import json

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import reading, services, upkeep
from scoring.changes import version_of
from scoring.models import Sheet
from scoring.rules import DreierDeal
from tests import factories

pytestmark = pytest.mark.django_db
ACTOR = services.Actor()


@pytest.fixture
def sheet():
    return factories.sheet(factories.club())


def record(sheet):
    return services.record_entry(sheet, DreierDeal("bettler", 1, True), factories.key(), ACTOR)[1]


def version_url(sheet):
    return reverse("entry:version", kwargs={"token": sheet.entry_token})


def test_the_version_of_a_new_sheet_is_that_of_no_rows(client, sheet):
    response = client.get(version_url(sheet))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"0-0"
    assert "no-store" in response["Cache-Control"]


def test_the_version_is_that_of_the_rows_after_deals_and_a_strike_out(client, sheet):
    record(sheet)
    second = record(sheet)
    services.void_deal(sheet, second.pk, ACTOR)
    record(sheet)
    expected = version_of(reading.read_sheet(sheet).deals)
    assert client.get(version_url(sheet)).content.decode() == expected
    assert expected.endswith("-1")


def test_the_version_is_read_with_the_link_in_one_query(client, sheet):
    for _ in range(30):
        services.record_entry(sheet, services.core.Redeal(), factories.key(), ACTOR)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(version_url(sheet))
    assert response.status_code == 200
    assert response.content.decode() == version_of(reading.read_sheet(sheet).deals)
    assert len(captured.captured_queries) == 1  # the link and the version together


def test_the_version_is_read_with_the_membership_in_one_query(client, sheet):
    record(sheet)
    client.force_login(factories.user(sheet.club, role="member", username="zuschauer"))
    url = reverse("sheet:version", kwargs={"pk": sheet.pk})
    client.get(url)  # the session read once
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.content.decode() == version_of(reading.read_sheet(sheet).deals)
    # The session, its account, then the sheet with the membership and the version.
    assert len(captured.captured_queries) == 3


def test_a_revoked_or_expired_link_gets_no_version(client, sheet, settings):
    url = version_url(sheet)
    upkeep.revoke_link(sheet, ACTOR)
    assert client.get(url).status_code == 404
    upkeep.renew_link(sheet, ACTOR)
    sheet.refresh_from_db()
    assert client.get(url).status_code == 404  # the old link stays dead
    assert client.get(version_url(sheet)).content == b"0-0"
    Sheet.objects.filter(pk=sheet.pk).update(
        created_at=timezone.now() - dt.timedelta(days=settings.LINK_DAYS, seconds=1)
    )
    assert client.get(version_url(sheet)).status_code == 404


def test_the_version_answers_only_to_who_may_see_the_sheet(client, sheet):
    url = reverse("sheet:version", kwargs={"pk": sheet.pk})
    assert client.get(url).status_code == 302  # sign in first
    stranger = factories.user(factories.club(name="Anderer Klub"), role="organiser")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    member = factories.user(sheet.club, role="member", username="zuschauer")
    client.force_login(member)
    assert client.get(url).content == b"0-0"


def test_the_sheet_page_carries_its_version_and_where_to_poll(client, sheet):
    record(sheet)
    page = reverse("entry:page", kwargs={"token": sheet.entry_token})
    html = client.get(page).content.decode()
    version = version_of(reading.read_sheet(sheet).deals)
    assert f'data-live="{page}" data-version="{version}"' in html


def test_the_manifest_describes_an_installable_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Bummerl"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["theme_color"] == "#0b5d3b"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert sizes["192x192"]["type"] == sizes["512x512"]["type"] == "image/png"
    assert sizes["any"]["type"] == "image/svg+xml"
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix(settings.STATIC_URL)) is not None


def test_the_pages_name_the_manifest(client, sheet):
    html = client.get(reverse("entry:page", kwargs={"token": sheet.entry_token})).content
    assert b'<link rel="manifest" href="/manifest.webmanifest">' in html


def test_the_service_worker_is_served_from_the_root_as_javascript(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    assert '"/static/css/site.css"' in text and '"/static/js/live.js"' in text
    assert "&quot;" not in text
