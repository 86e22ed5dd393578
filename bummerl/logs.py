"""What the server writes to its log: one line per event, one format, no private link.

- ``redact``: the private links of the site (a sheet's entry link ``/e/…``, an
  invitation ``/j/…``, a match link ``/m/…``, a player's link ``/s/…``, a personal link
  ``/p/me/…``, a password reset link ``/accounts/reset/…/…/``) lose their token in any
  text written to the log; the public link of a night (``/p/…``) stays.
- ``RedactPrivateLinks``: a logging filter that does so for every record (its message,
  its arguments and its traceback text), on the one handler of ``settings.LOGGING``.
- ``QuietPolls``: a logging filter that drops runserver's request line for those polls.
- ``OneLine``: a logging filter that turns a record into one warning line without its
  traceback; on ``django.security.DisallowedHost``, so that a request with a wrong Host
  header (bots ask by IP address all day) is one line, not a traceback of fourteen.
- ``Formatter``: that one line, its time in UTC.
- ``GunicornLogger``: gunicorn's logger with the same format (``Formatter``) for its
  access lines, tokens redacted, and without the 2-second polls of the live pages
  (``…/version/`` answered 200 or 304) at info.
"""

import logging
import re
import time

FORMAT = "{asctime} {levelname} {name} {process}: {message}"
"""The one line of every event, Django's and gunicorn's alike (``Formatter``)."""


class Formatter(logging.Formatter):
    """``FORMAT`` with the time in UTC, ISO 8601 to the millisecond
    ("2026-12-01T15:55:20.062Z"): the same in gunicorn's master (no time zone set) and
    in its workers (Django sets the site's), and across a change of daylight saving."""

    converter = staticmethod(time.gmtime)
    default_time_format = "%Y-%m-%dT%H:%M:%S"
    default_msec_format = "%s.%03dZ"

    def __init__(self, fmt=FORMAT, datefmt=None, style="{", **kwargs):
        super().__init__(fmt, datefmt, style, **kwargs)


_PRIVATE = re.compile(r"(/(?:e|j|m|s|p/me)/)[^/\s?#\"'<>]+")
_RESET = re.compile(r"(/accounts/reset/)[^/\s?#\"'<>]+/[^/\s?#\"'<>]+")
HIDDEN = "…"
"""What a token is replaced with."""


def redact(text: str) -> str:
    """``text`` with the token of every private link replaced by ``HIDDEN``:
    "/m/Ab3x/sheet/" -> "/m/…/sheet/"."""
    return _RESET.sub(r"\1" + HIDDEN + "/" + HIDDEN, _PRIVATE.sub(r"\1" + HIDDEN, text))


class RedactPrivateLinks(logging.Filter):
    """Redacts the private links of a record (``redact``); never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


class OneLine(logging.Filter):
    """The record as one warning line: no traceback (``exc_info``) and level WARNING."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def polled(path: str, status: str) -> bool:
    """A live page's poll of its version that came through (200, or 304 unchanged)."""
    return path.endswith("/version/") and status.split(" ", 1)[0] in ("200", "304")


class QuietPolls(logging.Filter):
    """Drops runserver's line for a poll that came through (``polled``): its record's
    arguments are the request line ("GET /e/…/version/ HTTP/1.1"), the status, the size."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        if len(args) >= 2:
            parts = str(args[0]).split(" ")
            return not (len(parts) >= 2 and polled(parts[1].split("?")[0], str(args[1])))
        return True


try:
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover - gunicorn is a dependency of the project
    _GunicornLogger = object


class GunicornLogger(_GunicornLogger):
    """gunicorn's logger for ``make serve`` (``bummerl/gunicorn.conf.py``): its access
    lines redacted and without the polls, its lines in ``FORMAT``."""

    def access(self, resp, req, environ, request_time):
        status = str(getattr(resp, "status", ""))
        if polled(environ.get("PATH_INFO", ""), status):
            return
        super().access(resp, req, environ, request_time)

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "f", "{referer}i", "{raw_uri}e", "{path_info}e"):
            if isinstance(atoms.get(key), str):
                atoms[key] = redact(atoms[key])
        return atoms

    def setup(self, cfg):
        super().setup(cfg)
        formatter = Formatter()
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(formatter)
                handler.addFilter(RedactPrivateLinks())
