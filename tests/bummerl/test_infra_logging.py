"""Server errors leave a trace: django.request logs them with the traceback, to stderr."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_an_unhandled_error_is_logged_with_its_traceback(settings, caplog):
    settings.ROOT_URLCONF = "tests.urls_failing"
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = Client(raise_request_exception=False).get("/test-fails/")
    assert response.status_code == 500
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == "Internal Server Error: /test-fails/"
    assert isinstance(record.exc_info[1], RuntimeError)
    assert "Traceback (most recent call last)" in caplog.text
    assert "RuntimeError: the test view fails on purpose" in caplog.text


@pytest.mark.django_db
def test_a_500_a_view_answers_itself_is_logged_too(settings, caplog):
    settings.ROOT_URLCONF = "tests.urls_failing"
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = Client().get("/test-answers-500/")
    assert response.status_code == 500
    [record] = [r for r in caplog.records if r.name == "django.request"]
    assert record.levelno == logging.ERROR
    assert record.getMessage() == "Internal Server Error: /test-answers-500/"


def test_the_traceback_goes_to_stderr_under_production_settings(tmp_path):
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "from django.test.utils import override_settings\n"
        "with override_settings(ROOT_URLCONF='tests.urls_failing', ALLOWED_HOSTS=['testserver']):\n"
        "    print(Client(raise_request_exception=False).get('/test-fails/').status_code)\n"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bummerl.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "test-only-key-" + "s9" * 25,
        "DJANGO_SSL_REDIRECT": "0",
        "SQLITE_PATH": str(tmp_path / "unused.sqlite3"),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.strip() == "500", done.stderr
    assert "ERROR django.request" in done.stderr
    assert "Internal Server Error: /test-fails/" in done.stderr
    assert "Traceback (most recent call last)" in done.stderr
    assert "RuntimeError: the test view fails on purpose" in done.stderr


def test_the_site_loggers_reach_stderr(settings):
    config = settings.LOGGING
    assert config["root"]["handlers"] == ["stderr"]
    assert config["handlers"]["stderr"]["class"] == "logging.StreamHandler"  # sys.stderr
    assert config["loggers"]["django.request"]["level"] == "ERROR"
    for name in ("bummerl", "clubs", "scoring", "tournaments"):
        assert logging.getLogger(name).getEffectiveLevel() <= logging.INFO
        assert logging.getLogger(name).propagate
