"""Settings from the environment: typed readers that fail loudly."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from bummerl.env import env_bool, env_int, env_list


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    for raw, value in [("1", True), ("yes", True), ("ON", True), ("0", False), ("false", False)]:
        monkeypatch.setenv("X_FLAG", raw)
        assert env_bool("X_FLAG", not value) is value


def test_env_bool_refuses_anything_else_and_names_the_variable(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
        env_bool("X_FLAG", False)


def test_env_int_refuses_a_word(monkeypatch):
    monkeypatch.setenv("X_NUM", "twenty")
    with pytest.raises(ImproperlyConfigured, match="X_NUM"):
        env_int("X_NUM", 1)
    monkeypatch.delenv("X_NUM")
    assert env_int("X_NUM", 7) == 7


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("X_HOSTS", "a.example, b.example,,")
    assert env_list("X_HOSTS", []) == ["a.example", "b.example"]


def _start(**env):
    """``django.setup()`` in a process of its own, with only ``env`` of the site's
    variables set; returns the finished process."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "BUMMERL_"))}
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parents[2],
        env={**clean, "DJANGO_SETTINGS_MODULE": "bummerl.settings", **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_site_never_starts_without_a_secret_key():
    done = _start(DJANGO_ALLOWED_HOSTS="bummerl.example.org")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set to at least 50 random characters" in done.stderr


@pytest.mark.parametrize(
    "key",
    [
        "short-key",
        "insecure-development-key-only-for-a-developer",
        "Kq7-x2Pz_9vLm4Tr8NwYb3Hc6Jd1Fg5Rs0Ue2Io7Ap4Sl9Mk3",  # 49 characters
        "k" * 50 + "-" * 10,  # 60, but two different characters
        "django-insecure-" + "Kq7-x2Pz_9vLm4Tr8NwYb3Hc6Jd1Fg5Rs0Ue2Io7Ap4Sl9Mk3X",
    ],
)
def test_a_weak_or_the_known_development_key_is_refused_in_production(key):
    done = _start(DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="bummerl.example.org")
    assert done.returncode != 0
    assert (
        "DJANGO_SECRET_KEY must be set to at least 50 random characters of this server's own "
        "(not starting with 'django-insecure-'); make one with "
        'python3 -c "import secrets; print(secrets.token_urlsafe(50))"'
    ) in done.stderr


def test_a_secret_key_alone_starts_without_debug():
    key = "Kq7-x2Pz_9vLm4Tr8NwYb3Hc6Jd1Fg5Rs0Ue2Io7Ap4Sl9Mk3X"  # 50 characters
    done = _start(DJANGO_SECRET_KEY=key, DJANGO_ALLOWED_HOSTS="bummerl.example.org")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_debug_only_when_asked_for_by_name():
    done = _start(DJANGO_DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
