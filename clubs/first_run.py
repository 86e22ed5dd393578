"""The first account of a new server, made on ``/setup/`` with a one-time code.

On a server without any account a random code (``secrets``, 12 characters of
``ALPHABET``, about 60 bits) is made once and kept, with a random name, in a JSON file
only the server's user reads (``settings.SETUP_CODE_FILE``, default
``<project>/cache/setup-code.json``, mode 0600), under a file lock. It is shown where the
operator looks, as one WARNING line of the logger ``bummerl``: by ``manage.py seed
--no-demo`` (which ``make serve`` runs), at each start of gunicorn once it listens (the
end of ``make serve``'s output, the unit's journal: ``bummerl/gunicorn.conf.py`` runs
``manage.py setup_code --log``), and on demand by ``make setup-code``.

Whoever sends the code with a user name and a password gets the first account, a
superuser, and is signed in; the file is then deleted, so the code works once.

Refused: any request once an account exists (404, the page is not there); a wrong code
(403, counted per address: ``base.clientip.limit_address``); after ``TRIES`` wrong codes
from one address, every code from that address for ``WINDOW`` seconds (403, locked). The
lock is the sender's alone, so nobody can keep the page shut for the operator; the counts
are the database's (``base.limits``), the same for every process and host. ``make
setup-code NEW=1`` replaces the code (its counts start anew).
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

from base import limits

log = logging.getLogger("bummerl")

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""The code's letters: no 0/O, 1/I/L to mistake for each other."""
LENGTH = 12
TRIES = 5
"""Wrong codes from one address after which the page is locked for that address."""
WINDOW = 3600
"""Seconds for which an address's wrong codes are counted (from its first)."""


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


def _kept(path: Path) -> dict | None:
    """The kept code's state, or None (no file, or a file of a release that kept only the
    code's hash: it is replaced by a new code)."""
    state = _read(path)
    return state if state and "code" in state else None


def _make(path: Path) -> str:
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    _write(path, {"code": code, "id": secrets.token_hex(16)})
    return code


def _show(code: str) -> None:
    log.warning(
        "No account yet: open /setup/ and enter the one-time code %s to make the first "
        "account (a site administrator). It works once.",
        shown(code),
    )


def current_code(new: bool = False) -> str:
    """The one-time code, made (and logged) when none is kept or when ``new``; a new code
    voids the old one and its counts of wrong tries. Call only while ``needed()``."""
    with _locked() as path:
        state = None if new else _kept(path)
        if state is not None:
            return state["code"]
        code = _make(path)
        _show(code)
        return code


def ensure_code() -> None:
    """Make the one-time code and log it (once), unless one is kept already. Call only
    while ``needed()``."""
    current_code()


def log_code() -> bool:
    """Log the one-time code (made if needed) while the server has no account; True if
    it did. What each start of the site does (``manage.py setup_code --log``)."""
    if not needed():
        return False
    with _locked() as path:
        state = _kept(path)
        code = state["code"] if state else _make(path)
    _show(code)
    return True


def make_first_account(code: str, username: str, password: str, address: str | None):
    """The first account, a superuser ``username`` with ``password`` (validated by the
    caller's form), when ``code`` is the one-time code; the code is then used up.
    ``address`` is the sender's (``base.clientip.limit_address``), whose wrong codes are
    counted. Returns the account. Raises ``Gone`` when an account exists,
    ``PermissionError`` with ``"wrong"`` (counted) or ``"locked"`` (``TRIES`` wrong codes
    from this address in ``WINDOW``, or no code made)."""
    with _locked() as path:
        if not needed():
            raise Gone
        state = _kept(path)
        if state is None:
            raise PermissionError("locked")
        tries = f"setup:{state['id']}:{address or '-'}"
        if limits.used(tries) >= TRIES:
            raise PermissionError("locked")
        if not hmac.compare_digest(_digest(state["code"]), _digest(code)):
            limits.take(tries, TRIES, WINDOW)
            wrong = limits.used(tries)
            log.warning(
                "first-run page: a wrong one-time code (%d of %d from this address)", wrong, TRIES
            )
            raise PermissionError("locked" if wrong >= TRIES else "wrong")
        with transaction.atomic():
            user = get_user_model().objects.create_superuser(username, password=password)
        path.unlink()
        log.info("first-run page: the first account %s is made", username)
        return user
