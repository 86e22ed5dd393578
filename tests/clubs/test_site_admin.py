"""The site administrator's page: a backup of the whole server as a download (made by
the backup command's code, in memory), and a password reset link for any account (an
owner who forgot his password). Superusers only."""

import gzip
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from base.backups import FORMAT
from clubs.models import AuditEntry
from tests import factories

NEW = "Kreuz-Bube-42"


def admin():
    return get_user_model().objects.create_superuser("root", password="root-pw-123")


@pytest.mark.django_db
def test_only_the_site_administrator_reaches_the_page():
    club = factories.club()
    owner = factories.signed_in(factories.user(club, role="owner"), language="en")
    staff = factories.user(club, role="member")
    staff.is_staff = True
    staff.save()
    for client in (owner, factories.signed_in(staff, language="en")):
        assert client.get(reverse("site_admin")).status_code == 403
        assert client.post(reverse("site_backup")).status_code == 403
        assert client.post(reverse("site_reset"), {"username": "x"}).status_code == 403
    anonymous = Client()
    assert anonymous.get(reverse("site_admin")).status_code == 302
    assert anonymous.post(reverse("site_backup")).status_code == 302
    assert factories.signed_in(admin(), language="en").get(reverse("site_admin")).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_backup_download_is_the_whole_database_made_in_memory(tmp_path, settings):
    settings.BACKUP_DIR = tmp_path / "backups"
    club = factories.club(name="Schnapsrunde")
    factories.user(club, role="owner", username="olga")
    response = factories.signed_in(admin(), language="en").post(reverse("site_backup"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/gzip"
    assert re.fullmatch(
        r'attachment; filename="bummerl-\d{8}-\d{6}\.json\.gz"', response["Content-Disposition"]
    )
    document = json.loads(gzip.decompress(response.content))
    assert document["format"] == FORMAT
    clubs = [o["fields"]["name"] for o in document["objects"] if o["model"] == "clubs.club"]
    assert clubs == [club.name]
    users = sorted(
        o["fields"]["username"] for o in document["objects"] if o["model"] == "auth.user"
    )
    assert users == ["olga", "root"]
    assert not settings.BACKUP_DIR.exists()  # nothing written to the server's disk


@pytest.mark.django_db
def test_the_administrator_makes_a_reset_link_for_an_owner_who_sets_his_password():
    club = factories.club()
    olga = factories.user(club, role="owner", username="olga")
    page = factories.signed_in(admin(), language="en").post(
        reverse("site_reset"), {"username": " olga "}
    )
    assert page.status_code == 200
    link = re.search(r'value="http://testserver(/accounts/reset/[^"]+)"', page.content.decode())
    phone = Client()
    first = phone.get(link.group(1))
    assert first.status_code == 302
    form_url = first["Location"]
    assert phone.post(form_url, {"new_password1": NEW, "new_password2": NEW}).status_code == 302
    olga.refresh_from_db()
    assert olga.check_password(NEW)
    # it works once
    assert "new_password1" not in Client().get(link.group(1), follow=True).content.decode()
    entries = AuditEntry.objects.filter(club=club, action="reset link issued")
    assert [(e.actor.username, e.after) for e in entries] == [
        ("root", {"user": "olga", "issued_by": "root"})
    ]


@pytest.mark.django_db
def test_an_unknown_account_is_said_on_the_field():
    response = factories.signed_in(admin(), language="en").post(
        reverse("site_reset"), {"username": "nobody"}
    )
    assert response.status_code == 400
    assert "There is no account called nobody." in response.content.decode()
    assert "/accounts/reset/" not in response.content.decode()


@pytest.mark.django_db
def test_the_page_speaks_german_first():
    client = Client()
    client.force_login(admin())
    body = client.get(reverse("site_admin")).content.decode()
    for text in ("Verwaltung der Seite", "Sicherung herunterladen", "Link zum Zurücksetzen machen"):
        assert text in body
