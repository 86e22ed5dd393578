"""Forgotten passwords: only what works is offered. Links that leave the page (QR codes,
reset links, mails) start with the site's address when it is set, and a mail's link is
never built from a Host header that nobody checked."""

import datetime
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Invitation, Membership
from tests import factories

ROOT = Path(__file__).resolve().parents[2]
NO_MAIL = "Diese Seite verschickt keine Mails. Frag den Obmann deines Vereins"


@pytest.fixture
def anna(db):
    person = factories.user(factories.club(), role="member", username="anna")
    person.email = "anna@example.org"
    person.save()
    return person


def test_without_a_mail_server_the_reset_page_sends_to_the_owner(anna, settings):
    settings.EMAIL_HOST = ""
    client = Client()
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    html = page.content.decode()
    assert NO_MAIL in html
    assert 'name="email"' not in html
    sent = client.post(reverse("password_reset"), {"email": "anna@example.org"})
    assert sent.status_code == 405
    assert mail.outbox == []
    # The "mail is on its way" page is not offered: it sends back to the reset page.
    done = client.get(reverse("password_reset_done"))
    assert done.status_code == 302
    assert done["Location"] == reverse("password_reset")


def test_with_a_mail_server_and_a_site_address_the_link_is_on_the_site_address(anna, settings):
    settings.EMAIL_HOST = "mail.example.org"
    settings.SITE_URL = "https://bummerl.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    client = Client(HTTP_HOST="evil.example")
    page = client.get(reverse("password_reset"))
    assert 'name="email"' in page.content.decode()
    sent = client.post(reverse("password_reset"), {"email": "anna@example.org"})
    assert sent.status_code == 302
    assert sent["Location"] == reverse("password_reset_done")
    done = client.get(sent["Location"])
    assert "ist eine Mail mit einem Link zum Setzen eines neuen Passworts unterwegs" in (
        done.content.decode()
    )
    [message] = mail.outbox
    assert message.to == ["anna@example.org"]
    links = re.findall(r"\S+/accounts/reset/\S+", message.body)
    assert len(links) == 1
    assert links[0].startswith("https://bummerl.example.org/accounts/reset/")
    assert "evil.example" not in message.body


def test_with_a_mail_server_the_link_uses_a_checked_host(anna, settings):
    settings.EMAIL_HOST = "mail.example.org"
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["bummerl.example.org"]
    sent = Client(HTTP_HOST="bummerl.example.org").post(
        reverse("password_reset"), {"email": "anna@example.org"}
    )
    assert sent.status_code == 302
    [message] = mail.outbox
    assert "http://bummerl.example.org/accounts/reset/" in message.body
    # Another Host is refused before anything is sent.
    refused = Client(HTTP_HOST="evil.example").post(
        reverse("password_reset"), {"email": "anna@example.org"}
    )
    assert refused.status_code == 400
    assert len(mail.outbox) == 1


def test_with_any_host_allowed_and_no_site_address_no_mail_is_offered(anna, settings):
    settings.EMAIL_HOST = "mail.example.org"
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    client = Client(HTTP_HOST="evil.example")
    assert NO_MAIL in client.get(reverse("password_reset")).content.decode()
    page = client.post(reverse("password_reset"), {"email": "anna@example.org"})
    assert page.status_code == 405
    assert mail.outbox == []
    assert client.get(reverse("password_reset_done")).status_code == 302


@pytest.fixture
def owner_club(db):
    factories.presets()
    club = factories.club()
    owner = factories.user(club, role="owner")
    max_ = factories.user(club, role="scorer", username="max")
    client = Client()
    client.force_login(owner)
    return club, client, Membership.objects.get(user=max_)


def _links(html: str) -> list[str]:
    return re.findall(r'value="(https?://[^"]+)"', html)


def test_the_laptop_links_carry_the_address_it_was_opened_by(owner_club, settings):
    """`make run`: any host, no site address; the phones reach the laptop by its address."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    club, client, membership = owner_club
    client.defaults["HTTP_HOST"] = "192.168.1.20:8000"
    sheet = factories.sheet(club)
    link = client.get(reverse("sheet:link", kwargs={"pk": sheet.pk})).content.decode()
    assert f"http://192.168.1.20:8000/e/{sheet.entry_token}/" in link
    page = client.post(
        reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    )
    assert [u for u in _links(page.content.decode()) if "/accounts/reset/" in u][0].startswith(
        "http://192.168.1.20:8000/accounts/reset/"
    )


def test_a_site_address_is_the_start_of_every_link_that_leaves_the_page(owner_club, settings):
    settings.SITE_URL = "https://bummerl.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    club, client, membership = owner_club
    client.defaults["HTTP_HOST"] = "evil.example"
    sheet = factories.sheet(club)
    link = client.get(reverse("sheet:link", kwargs={"pk": sheet.pk})).content.decode()
    assert f"https://bummerl.example.org/e/{sheet.entry_token}/" in link
    assert "evil.example" not in link
    page = client.post(
        reverse("member_reset", kwargs={"slug": club.slug, "membership_id": membership.pk})
    ).content.decode()
    resets = [u for u in _links(page) if "/accounts/reset/" in u]
    assert resets and resets[0].startswith("https://bummerl.example.org/accounts/reset/")
    invitation = Invitation.objects.create(
        club=club, role="member", expires_at=timezone.now() + datetime.timedelta(days=1)
    )
    members = client.get(reverse("members", kwargs={"slug": club.slug})).content.decode()
    assert f"https://bummerl.example.org/j/{invitation.token}/" in members
    assert "evil.example" not in page and "evil.example" not in members


def _start(env: dict, tmp_path) -> subprocess.CompletedProcess:
    full = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bummerl.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "test-only-key-" + "s9" * 25,
        "SQLITE_PATH": str(tmp_path / "unused.sqlite3"),
        **env,
    }
    for name in ("DJANGO_SITE_URL", "BUMMERL_LAPTOP"):
        if name not in env:
            full.pop(name, None)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=full,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_server_may_not_allow_any_host_without_a_site_address(tmp_path):
    refused = _start({"DJANGO_ALLOWED_HOSTS": "*"}, tmp_path)
    assert refused.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS='*' lets any Host header through" in refused.stderr
    assert _start({"DJANGO_ALLOWED_HOSTS": "bummerl.example.org"}, tmp_path).returncode == 0
    site = {"DJANGO_ALLOWED_HOSTS": "*", "DJANGO_SITE_URL": "https://bummerl.example.org"}
    assert _start(site, tmp_path).returncode == 0
    # `make run` on the pub laptop says so.
    assert _start({"DJANGO_ALLOWED_HOSTS": "*", "BUMMERL_LAPTOP": "1"}, tmp_path).returncode == 0
    bad = _start({"DJANGO_ALLOWED_HOSTS": "x", "DJANGO_SITE_URL": "bummerl.example.org"}, tmp_path)
    assert bad.returncode != 0
    assert "is not a site address" in bad.stderr


def test_make_run_declares_the_laptop():
    makefile = (ROOT / "Makefile").read_text()
    run_env = makefile[makefile.index("RUN_ENV =") :].split("\n\n", 1)[0]
    assert "DJANGO_ALLOWED_HOSTS='*'" in run_env
    assert "BUMMERL_LAPTOP=1" in run_env
