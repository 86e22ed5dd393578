"""/healthz for a monitor (bummerl.health): it checks the database, answers on any Host
and over plain http, and says 503 with the failing part when the database is gone."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_healthz_answers_ok_on_any_host_and_method_get_or_head(settings):
    settings.ALLOWED_HOSTS = ["bummerl.example"]
    client = Client()
    for host in ("bummerl.example", "10.0.0.7", "localhost", "evil.example"):
        response = client.get("/healthz", HTTP_HOST=host)
        assert (response.status_code, response.content) == (200, b"ok")
        assert response["Content-Type"] == "text/plain"
        assert response["Cache-Control"] == "no-store"
    assert client.head("/healthz", HTTP_HOST="10.0.0.7").status_code == 200
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400  # pages do check


@pytest.mark.django_db
def test_healthz_says_503_and_which_part_fails_when_the_database_is_gone(monkeypatch):
    def refuse(*args, **kwargs):
        raise connection.Database.OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = Client().get("/healthz")
    assert (response.status_code, response.content) == (503, b"database: OperationalError")


def test_healthz_answers_over_plain_http_under_production_settings(tmp_path):
    script = (
        "import django; django.setup()\n"
        "from django.core.management import call_command\n"
        "call_command('migrate', verbosity=0)\n"
        "from django.test import Client\n"
        "r = Client().get('/healthz', HTTP_HOST='192.168.1.20')\n"
        "print(r.status_code, r.content.decode())\n"
        "print(Client().get('/', HTTP_HOST='club.example').status_code)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bummerl.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "test-only-key-" + "s9" * 25,
        "DJANGO_ALLOWED_HOSTS": "club.example",
        "SQLITE_PATH": str(tmp_path / "health.sqlite3"),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["200 ok", "301"]  # pages go to https
