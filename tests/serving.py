"""Serving the site as in production for the bench: collected, compressed static files
behind WhiteNoise, no debug pages, plain http on 127.0.0.1 (cookies and HTTPS
redirect turned off by environment, as ``make run`` does)."""

import os
import secrets
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]


def production_env(work: Path) -> dict:
    return {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_SSL_REDIRECT": "0",
        "DJANGO_HSTS_SECONDS": "0",
        "STATIC_ROOT": str(work / "static"),
    }


WORKERS = "3"
"""gunicorn's sync workers, as ``make serve`` starts them (``WORKERS`` in the Makefile):
threads in a worker only wait for the same interpreter lock."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running(command: list[str], env: dict, port: int):
    """``command`` answering on ``port`` for the ``with`` block; yields its base URL."""
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=20)


def push_flags() -> list[str]:
    """uvicorn's flags in the shipped unit (``deploy/bummerl-push.service``), less its
    ``--host`` and ``--port``: the limits the push server is sized for."""
    unit = (ROOT / "deploy" / "bummerl-push.service").read_text()
    start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    words = start.split("bummerl.asgi:application", 1)[1].split()
    flags = []
    while words:
        word = words.pop(0)
        if word in ("--host", "--port"):
            words.pop(0)
        else:
            flags.append(word)
    return flags


def push_serving(work: Path):
    """Run the push server (``bummerl.asgi`` under uvicorn, with the shipped unit's
    flags) on a free port for the ``with`` block; yields its base URL.
    ``BUMMERL_PUSH_URL`` comes from the environment, as the site's."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "bummerl.asgi:application", *push_flags()]
    return running(
        command + ["--host", "127.0.0.1", "--port", str(port)], production_env(work), port
    )


def serving(work: Path, gunicorn: bool = False):
    """Run the site on a free port for the ``with`` block; yields its base URL."""
    port = free_port()
    env = production_env(work)
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    if gunicorn:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "bummerl.wsgi",
            "-w",
            WORKERS,
            "-b",
            f"127.0.0.1:{port}",
        ]
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    return running(command, env, port)


REDIS = "redis://127.0.0.1:6379/9"
"""The Redis of the push channel's tests (its database 9; the channels carry the test
database's name, ``base.push.prefix``)."""


def redis_answers(url: str = REDIS) -> bool:
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except (redis.RedisError, OSError):
        return False
    return True
