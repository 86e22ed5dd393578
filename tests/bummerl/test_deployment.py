"""The README's deployment, followed from a fresh clone of the project: the settings in
the environment, the steps of ``make serve`` (migrate, the presets, the static files,
gunicorn with its config) and the task worker beside it; then a large printout asked for
over HTTP is made by the worker and handed out. On SQLite with the database as the
queue's broker, and on PostgreSQL with Redis."""

import http.cookiejar
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable  # the project's virtualenv: `make install` is what made it

NIGHT = (
    "import django; django.setup()\n"
    "from django.contrib.sessions.backends.db import SessionStore\n"
    "from tests import factories\n"
    "from tournaments.services.draws import draw_round\n"
    "from scoring.services import Actor\n"
    "club = factories.club()\n"
    "user = factories.user(club, role='organiser', username='olga')\n"
    "t = factories.tournament(club, cards=128, sold=100)\n"
    "draw_round(t, Actor(), seed=3)\n"
    "s = SessionStore()\n"
    "s['_auth_user_id'] = str(user.pk)\n"
    "s['_auth_user_backend'] = 'django.contrib.auth.backends.ModelBackend'\n"
    "s['_auth_user_hash'] = user.get_session_auth_hash()\n"
    "s.create()\n"
    "print(s.session_key, f'/c/{club.slug}/tournaments/{t.pk}/rounds/1/sheets.pdf')\n"
)


def postgres_url() -> str | None:
    """A new, empty PostgreSQL database for the run, or None without a server."""
    try:
        import psycopg

        name = "bummerl_deploy_" + secrets.token_hex(4)
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return f"postgres://postgres@127.0.0.1:5432/{name}"
    except Exception:
        return None


def redis_url() -> str | None:
    try:
        import redis

        redis.from_url("redis://127.0.0.1:6379/14", socket_timeout=1).flushdb()
        return "redis://127.0.0.1:6379/14"
    except Exception:
        return None


@pytest.mark.heavy
@pytest.mark.parametrize("stack", ["sqlite+database", "postgres+redis"])
def test_a_fresh_clone_serves_the_site_and_its_worker_makes_the_large_printouts(stack, tmp_path):
    clone = tmp_path / "bummerl"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bummerl.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "BUMMERL_PRINT_CACHE": str(tmp_path / "printouts"),
        "BUMMERL_TASKS_SYNC": "0",
    }
    for name in ("DATABASE_URL", "SQLITE_PATH", "BUMMERL_TASK_BROKER"):
        env.pop(name, None)
    if stack == "sqlite+database":
        env["SQLITE_PATH"] = str(tmp_path / "club.sqlite3")
    else:
        database, broker = postgres_url(), redis_url()
        if database is None or broker is None:
            pytest.skip("no PostgreSQL or Redis server on this machine")
        env["DATABASE_URL"], env["BUMMERL_TASK_BROKER"] = database, broker

    def manage(*args) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args], cwd=clone, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    # The steps of `make serve` (README "Deployment").
    manage("migrate", "--noinput")
    manage("seed", "--no-demo")
    manage("collectstatic", "--noinput", "-v0")
    session, path = manage("shell", "-v", "0", "-c", NIGHT).split()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    site = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "bummerl.wsgi",
            "-c",
            "bummerl/gunicorn.conf.py",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{port}",
        ],
        cwd=clone,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    worker = subprocess.Popen(
        [PYTHON, "manage.py", "qcluster"],
        cwd=clone,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    jar.set_cookie(
        http.cookiejar.Cookie(
            0,
            "sessionid",
            session,
            None,
            False,
            "127.0.0.1",
            False,
            False,
            "/",
            True,
            False,
            None,
            False,
            None,
            None,
            {},
        )
    )
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:
                    assert answer.read() == b"ok"
                break
            except OSError:  # not listening yet, or a worker still booting on a busy machine
                time.sleep(0.2)
        seen, pdf = set(), None
        for _ in range(240):
            try:
                answer = opener.open(base + path, timeout=60)
            except urllib.error.HTTPError as error:
                site.terminate()
                pytest.fail(f"{error}: {site.communicate(timeout=30)[1][-3000:]}")
            with answer:
                body = answer.read()
                if answer.headers["Content-Type"] == "application/pdf":
                    pdf = body
                    break
                seen.add(answer.status)
            time.sleep(0.5)
        assert pdf is not None and pdf.startswith(b"%PDF-")
        assert seen == {202}  # the page said it was being made, then handed it out
    finally:
        for process in (worker, site):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
