"""The first account of a new server, made on ``/setup/`` with a one-time code.

On a server without any account, ``manage.py seed --no-demo`` (which ``make serve`` runs
before it starts gunicorn) or else the first request of ``/setup/`` makes a random code
(``secrets``, 12 characters of ``ALPHABET``, about 60 bits) and writes it to the server's
log once: one WARNING line of the logger ``bummerl`` on stderr. Only its SHA-256 is kept,
with the count of wrong tries, in a JSON file (``settings.SETUP_CODE_FILE``, default
``<project>/cache/setup-code.json``, mode 0600), which every server process reads under
a file lock. Whoever sends the code with a user name and a password gets the first
account, a superuser, and is signed in; the file is then deleted, so the code works once.

Refused: any request once an account exists (404, the page is not there); a wrong code
(403, counted); from the ``TRIES``-th wrong try on every code, the right one too (403,
locked). The operator who locked it out deletes the file: the next request of the page
makes and logs a new code.
"""

import contextlib
import fcntl
import hashlib
import hmac
import json
import logging
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

log = logging.getLogger("bummerl")

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The code's letters: no 0/O, 1/I/L to mistake for each other."""
LENGTH = 12
TRIES = 5
"""Wrong codes after which the page is locked."""


class Gone(Exception):
    """An account exists: there is no first run any more."""


def code_file() -> Path:
    """Where the code's hash and the count of wrong tries are kept
    (``settings.SETUP_CODE_FILE``, from ``BUMMERL_SETUP_CODE_FILE``)."""
    return Path(settings.SETUP_CODE_FILE)


def needed() -> bool:
    """True while the server has no account at all. One query."""
    return not get_user_model().objects.exists()


def _digest(code: str) -> str:
    """SHA-256 (hex) of ``code`` as typed: case, spaces and dashes do not count."""
    cleaned = "".join(code.split()).replace("-", "").upper()
    return hashlib.sha256(cleaned.encode()).hexdigest()


def shown(code: str) -> str:
    """``ABCDEFGHJKLM`` -> ``ABCD-EFGH-JKLM``, as the log shows it."""
    return "-".join(code[i : i + 4] for i in range(0, len(code), 4))


@contextlib.contextmanager
def _locked():
    """The code file's lock (a file of its own beside it), held by one process at a time."""
    path = code_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield path
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _read(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text())
    except (FileNotFoundError, ValueError):
        return None


def _write(path: Path, state: dict) -> None:
    part = path.with_suffix(".part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(state, out)
    os.replace(part, path)


def ensure_code() -> None:
    """Make the one-time code and log it (once), unless one is kept already. Call only
    while ``needed()``."""
    with _locked() as path:
        if _read(path) is not None:
            return
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        _write(path, {"sha256": _digest(code), "wrong": 0})
        log.warning(
            "No account yet: open /setup/ and enter the one-time code %s to make the first "
            "account (a site administrator). It works once.",
            shown(code),
        )


def make_first_account(code: str, username: str, password: str):
    """The first account, a superuser ``username`` with ``password`` (validated by the
    caller's form), when ``code`` is the one-time code; the code is then used up.
    Returns the account. Raises ``Gone`` when an account exists, ``PermissionError``
    with ``"wrong"`` (counted) or ``"locked"`` (``TRIES`` wrong codes sent before, or
    no code made)."""
    with _locked() as path:
        if not needed():
            raise Gone
        state = _read(path)
        if state is None or state.get("wrong", 0) >= TRIES:
            raise PermissionError("locked")
        if not hmac.compare_digest(state["sha256"], _digest(code)):
            state["wrong"] = state.get("wrong", 0) + 1
            _write(path, state)
            log.warning("first-run page: a wrong one-time code (%d of %d)", state["wrong"], TRIES)
            raise PermissionError("locked" if state["wrong"] >= TRIES else "wrong")
        with transaction.atomic():
            user = get_user_model().objects.create_superuser(username, password=password)
        path.unlink()
        log.info("first-run page: the first account %s is made", username)
        return user
