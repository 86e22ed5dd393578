"""Owners rename a table and put it in the club's archive: an archived table leaves the
club's lists, its page and private link keep working, the rankings keep counting it;
the archive lists it with *Wiederherstellen*."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clubs.models import Archived, AuditEntry
from scoring import services
from scoring.rules import DreierDeal
from tests import factories
from tests.markup import squeezed

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    factories.presets()
    club = factories.club()
    sheet = factories.sheet(club)
    services.record_entry(sheet, DreierDeal("gang", 0, True), factories.key(), services.Actor())
    owner = Client()
    owner.force_login(factories.user(club, role="owner", username="obmann"))
    owner.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return club, sheet, owner


def listed(client, club) -> list[int]:
    page = client.get(reverse("club", kwargs={"slug": club.slug}))
    return [row.record.pk for row in page.context["sheet_table"].page.object_list]


def tally(client, club) -> list[tuple[str, int]]:
    page = client.get(reverse("club", kwargs={"slug": club.slug}))
    return [(row["name"], row["bummerl"]) for row in page.context["tally_table"].data]


def test_an_archived_table_leaves_the_list_keeps_its_links_and_its_tally(world):
    club, sheet, owner = world
    ids = {"slug": club.slug, "pk": sheet.pk}
    before = tally(owner, club)
    assert listed(owner, club) == [sheet.pk]

    assert owner.post(reverse("archive_table", kwargs=ids)).status_code == 302
    assert owner.post(reverse("archive_table", kwargs=ids)).status_code == 302  # double tap
    assert Archived.objects.filter(scope="sheet", scope_id=sheet.pk).count() == 1
    assert listed(owner, club) == []
    assert tally(owner, club) == before
    assert owner.get(reverse("sheet:page", kwargs={"pk": sheet.pk})).status_code == 200
    assert (
        Client().get(reverse("entry:page", kwargs={"token": sheet.entry_token})).status_code == 200
    )

    page = owner.get(reverse("manage_tables", kwargs={"slug": club.slug}))
    assert [item["sheet"].pk for item in page.context["archived"]] == [sheet.pk]
    assert page.context["listed"] == []
    assert reverse("restore_table", kwargs=ids) in page.content.decode()

    assert owner.post(reverse("restore_table", kwargs=ids)).status_code == 302
    assert owner.post(reverse("restore_table", kwargs=ids)).status_code == 302  # double tap
    assert listed(owner, club) == [sheet.pk]
    history = AuditEntry.objects.filter(club=club, scope="club").order_by("id")
    assert [(e.action, e.before, e.after) for e in history] == [
        ("table archived", None, {"table": sheet.pk, "title": ""}),
        ("table restored", {"table": sheet.pk, "title": ""}, None),
    ]


def test_the_owner_renames_a_table(world):
    club, sheet, owner = world
    url = reverse("rename_table", kwargs={"slug": club.slug, "pk": sheet.pk})
    assert owner.post(url, {"title": "  Stammtisch   Freitag "}).status_code == 302
    assert owner.post(url, {"title": "Stammtisch Freitag"}).status_code == 302  # double tap
    sheet.refresh_from_db()
    assert sheet.title == "Stammtisch Freitag"
    body = owner.get(reverse("sheet:page", kwargs={"pk": sheet.pk})).content.decode()
    assert "Stammtisch Freitag" in body
    assert owner.post(url, {"title": ""}).status_code == 302  # back to the players' names
    entries = AuditEntry.objects.filter(club=club, action="table renamed").order_by("id")
    assert [(e.before, e.after) for e in entries] == [
        ({"table": sheet.pk, "title": ""}, {"table": sheet.pk, "title": "Stammtisch Freitag"}),
        ({"table": sheet.pk, "title": "Stammtisch Freitag"}, {"table": sheet.pk, "title": ""}),
    ]


def test_a_too_long_title_is_shown_on_the_tables_field(world):
    club, sheet, owner = world
    url = reverse("rename_table", kwargs={"slug": club.slug, "pk": sheet.pk})
    response = owner.post(url, {"title": "x" * 101})
    assert response.status_code == 400
    body = response.content.decode()
    assert f'id="title-{sheet.pk}" value="{"x" * 101}"' in squeezed(body)
    assert "Ensure this value has at most 100 characters (it has 101)." in body
    sheet.refresh_from_db()
    assert sheet.title == ""


@pytest.mark.parametrize("role", ["member", "scorer", "organiser"])
def test_only_owners_rename_archive_and_restore(world, role):
    club, sheet, _owner = world
    client = Client()
    client.force_login(factories.user(club, role=role))
    ids = {"slug": club.slug, "pk": sheet.pk}
    assert client.get(reverse("manage_tables", kwargs={"slug": club.slug})).status_code == 403
    assert client.post(reverse("rename_table", kwargs=ids), {"title": "X"}).status_code == 403
    assert client.post(reverse("archive_table", kwargs=ids)).status_code == 403
    assert client.post(reverse("restore_table", kwargs=ids)).status_code == 403
    sheet.refresh_from_db()
    assert sheet.title == ""
    assert not Archived.objects.exists()


def test_a_table_of_another_club_is_not_found(world):
    club, _sheet, owner = world
    other = factories.sheet(factories.club())
    ids = {"slug": club.slug, "pk": other.pk}
    assert owner.post(reverse("archive_table", kwargs=ids)).status_code == 404
    assert not Archived.objects.exists()


def test_the_page_speaks_german_first(world):
    club, sheet, owner = world
    owner.cookies[settings.LANGUAGE_COOKIE_NAME] = "de-at"
    owner.post(reverse("archive_table", kwargs={"slug": club.slug, "pk": sheet.pk}))
    body = owner.get(reverse("manage_tables", kwargs={"slug": club.slug})).content.decode()
    for text in ("Tische und Archiv", "Noch keine Tische.", "Wiederherstellen"):
        assert text in body
