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


@contextmanager
def serving(work: Path, gunicorn: bool = False):
    """Run the site on a free port for the ``with`` block; yields its base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
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
