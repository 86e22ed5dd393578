"""Sign-in lockout behind the TLS proxy: the lock counts the visitor's address, read from
X-Forwarded-For only on a connection from a trusted proxy."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests import factories

PROXY = "127.0.0.1"
ATTACKER = "203.0.113.66"
OWNER = "198.51.100.7"


def _lock_out(client: Client, **extra) -> None:
    url = reverse("login")
    for _ in range(5):
        client.post(url, {"username": "anna", "password": "wrong"}, **extra)
    assert client.post(url, {"username": "anna", "password": "wrong"}, **extra).status_code == 429


@pytest.mark.django_db
def test_behind_a_trusted_proxy_the_owner_signs_in_while_an_attacker_is_locked(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    factories.user(username="anna")
    _lock_out(Client(), REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=ATTACKER)
    owner = Client()
    response = owner.post(
        reverse("login"),
        {"username": "anna", "password": "pw-anna"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=OWNER,
    )
    assert response.status_code == 302
    assert owner.session["_auth_user_id"] == str(get_user_model().objects.get().pk)


@pytest.mark.django_db
def test_a_forged_left_entry_of_x_forwarded_for_does_not_move_the_attacker(settings):
    """nginx appends the address it saw: "forged, real". The forged part is the client's."""
    settings.TRUSTED_PROXIES = ["127.0.0.0/8"]
    factories.user(username="anna")
    attacker = Client()
    _lock_out(attacker, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=ATTACKER)
    response = attacker.post(
        reverse("login"),
        {"username": "anna", "password": "pw-anna"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=f"{OWNER}, {ATTACKER}",
    )
    assert response.status_code == 429


@pytest.mark.django_db
def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    factories.user(username="anna")
    _lock_out(Client(), REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.1")
    # The same connection claiming another address is still the attacker.
    response = Client().post(
        reverse("login"),
        {"username": "anna", "password": "pw-anna"},
        REMOTE_ADDR=ATTACKER,
        HTTP_X_FORWARDED_FOR=OWNER,
    )
    assert response.status_code == 429
    # A real other address signs in.
    response = Client().post(
        reverse("login"), {"username": "anna", "password": "pw-anna"}, REMOTE_ADDR=OWNER
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_a_client_that_is_not_the_proxy_cannot_use_the_header(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    factories.user(username="anna")
    _lock_out(Client(), REMOTE_ADDR=ATTACKER, HTTP_X_FORWARDED_FOR="192.0.2.1")
    response = Client().post(
        reverse("login"),
        {"username": "anna", "password": "pw-anna"},
        REMOTE_ADDR=ATTACKER,
        HTTP_X_FORWARDED_FOR=OWNER,
    )
    assert response.status_code == 429


@pytest.mark.django_db
def test_the_lock_page_says_for_how_long_in_german(settings):
    settings.AXES_COOLOFF_TIME = 15 / 60
    factories.user(username="anna")
    client = Client()
    _lock_out(client)
    page = client.post(reverse("login"), {"username": "anna", "password": "x"})
    assert page.status_code == 429
    assert "Die Anmeldung für diesen Namen ist für 15 Minuten gesperrt." in page.content.decode()


def test_a_typo_in_the_trusted_proxies_stops_the_start(monkeypatch):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "DJANGO_TRUSTED_PROXIES": "127.0.0.1,nginx"}
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=Path(__file__).resolve().parents[2],
        env={**env, "DJANGO_SETTINGS_MODULE": "bummerl.settings"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "DJANGO_TRUSTED_PROXIES: 'nginx' is not an address or network" in done.stderr
