"""Every mail of the site goes out through ``base.mail.send``: the sender is the site's
(``Bummerl <bummerl@HOST>`` unless ``DJANGO_EMAIL_FROM`` is set), the Message-ID names
the site's host, never the machine's name or ``localhost``. The password reset by mail is
the site's own text: du, German by default and English in English, the account named in
the site's words and signed "Bummerl" with the account's clubs."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from base.mail import mail_host, send
from clubs.models import Membership
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def max_(settings):
    settings.EMAIL_HOST = "mail.example.org"
    settings.SITE_URL = "https://bummerl.example.org"
    settings.DEFAULT_FROM_EMAIL = ""
    person = factories.user(factories.club(name="Schnapsrunde Öhling"), username="max")
    Membership.objects.create(user=person, club=factories.club(name="Kartenrunde Au"))
    person.email = "max@example.org"
    person.save()
    return person


def reset_mail(language: str | None = None, host: str = "bummerl.example.org"):
    client = Client(HTTP_HOST=host)
    if language:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    sent = client.post(reverse("password_reset"), {"email": "max@example.org"})
    assert sent.status_code == 302
    [message] = mail.outbox
    return message


def message_id_domain(message) -> str:
    return re.fullmatch(r"<[^@>]+@([^>]+)>", message.message()["Message-ID"]).group(1)


def test_the_reset_mail_is_the_sites_german_in_the_du_voice(max_):
    message = reset_mail()
    assert message.subject == "Ein neues Passwort für Bummerl"
    body = message.body
    assert body.startswith("Servus max,\n\nauf bummerl.example.org hat jemand ein neues Passwort")
    assert "Dein Benutzername ist „max“." in body
    assert "Warst du das, setz dein neues Passwort mit diesem Link:" in body
    assert "Der Link gilt einmal, 3 Tage lang." in body
    assert "lass die Mail einfach liegen: dein Passwort bleibt, wie es ist." in body
    [link] = re.findall(r"\S+/accounts/reset/\S+", body)
    assert link.startswith("https://bummerl.example.org/accounts/reset/")
    club_one, club_two = sorted(
        Membership.objects.filter(user=max_).values_list("club__name", flat=True)
    )
    assert body.endswith(f"\n-- \nBummerl · {club_one} · {club_two}\n")
    # Nothing of Django's stock text: no formal voice, no English line, no host signature.
    for stock in ("Sie ", "Ihr", "In case you", "you are:", "Thanks for using", "The "):
        assert stock not in body


def test_the_reset_mail_is_english_when_the_site_is_read_in_english(max_):
    message = reset_mail(language="en")
    assert message.subject == "A new password for Bummerl"
    assert message.body.startswith(
        "Hello max,\n\nsomeone asked on bummerl.example.org for a new password for your account. "
        "Your sign-in name is “max”.\n"
    )
    assert "The link works once, for 3 days." in message.body
    assert "Not you? Then leave this mail be: your password stays as it is." in message.body
    assert "\n-- \nBummerl · " in message.body


def test_the_reset_mail_comes_from_the_site_on_its_host(max_):
    message = reset_mail()
    assert message.from_email == "Bummerl <bummerl@bummerl.example.org>"
    assert message.message()["From"] == "Bummerl <bummerl@bummerl.example.org>"
    assert message_id_domain(message) == "bummerl.example.org"


def test_without_a_site_address_the_mail_names_the_checked_host_without_its_port(max_, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["karten.example.at"]
    message = reset_mail(host="karten.example.at:8443")
    assert message_id_domain(message) == "karten.example.at"
    assert message.from_email == "Bummerl <bummerl@karten.example.at>"
    assert "http://karten.example.at:8443/accounts/reset/" in message.body


def test_a_sender_set_for_the_server_wins(max_, settings):
    settings.DEFAULT_FROM_EMAIL = "Schnapsrunde <runde@example.at>"
    message = reset_mail()
    assert message.from_email == "Schnapsrunde <runde@example.at>"
    assert message_id_domain(message) == "bummerl.example.org"


def test_a_mail_without_a_request_names_the_first_allowed_host(settings):
    """The task worker's mails (tournaments.notices) have no request: the host is the
    site's address, else the first host named whole in ALLOWED_HOSTS."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = [".example.org", "schnapsen.example.at"]
    settings.DEFAULT_FROM_EMAIL = ""
    send("Anmeldung erhalten:\n Preisschnapsen", "Servus Anna,", ["anna@example.org"])
    [message] = mail.outbox
    assert message.subject == "Anmeldung erhalten: Preisschnapsen"
    assert message_id_domain(message) == "schnapsen.example.at"
    assert message.from_email == "Bummerl <bummerl@schnapsen.example.at>"
    settings.ALLOWED_HOSTS = ["*"]
    with pytest.raises(LookupError):
        mail_host()


def test_no_part_of_the_site_sends_mail_but_through_base_mail():
    """The kind, not the case: no module of the site builds or sends a mail itself but
    base/mail.py; clubs/accounts.py only overrides the ``send_mail`` of Django's reset
    form, which then sends through ``base.mail.send``."""
    root = Path(settings.BASE_DIR)
    senders = re.compile(
        r"\b(EmailMessage|EmailMultiAlternatives|send_mass_mail|mail_admins)\b|send_mail\("
    )
    packages = [p for p in root.iterdir() if (p / "__init__.py").is_file() and p.name != "tests"]
    found = []
    for path in sorted(p for package in packages for p in package.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        text = path.read_text("utf-8")
        found += [f"{relative}: {m.group(0)}" for m in senders.finditer(text)]
    assert found == [
        "base/mail.py: EmailMessage",
        "base/mail.py: EmailMessage",
        "clubs/accounts.py: send_mail(",
    ]
