"""What the server writes to its log: one line per event, one format, no private link.

- ``redact``: the private links of the site lose their token in any text written to
  the log. Which links are private is read from the URLconf (``private_routes``): every
  parameter named like a token, key, code or secret (``<str:token>``, ``<uidb64>``), so
  a new route with one is hidden without a word here; a token public by design takes
  the converter ``public`` (a night's public link ``p/<public:token>/``) and stays.
- ``RedactPrivateLinks``: a logging filter that does so for every record (its message,
  its arguments and its traceback text), on the one handler of ``settings.LOGGING``,
  on gunicorn's handlers and on the push server's (uvicorn's, ``bummerl.asgi``).
- ``QuietPolls``: a logging filter that drops runserver's request line for those polls.
- ``OneLine``: a logging filter that turns a record into one warning line without its
  traceback; on ``django.security.DisallowedHost``, so that a request with a wrong Host
  header (bots ask by IP address all day) is one line, not a traceback of fourteen.
- ``Formatter``: that one line, its time in UTC.
- ``GunicornLogger``: gunicorn's logger with the same format (``Formatter``) for its
  access lines, tokens redacted, and without the 2-second polls of the live pages
  (``…/version/`` answered 200 or 304) at info.
- ``private_path``: whether a request's path is a private link's (by the same routes).
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


HIDDEN = "…"
"""What a token is replaced with."""

PRIVATE_NAME = re.compile(r"token|key|code|secret|uid", re.IGNORECASE)
"""A path parameter so named is private, unless its converter is ``public``."""

_SEGMENT = r"[^/\s?#\"'<>]+"
"""One path segment inside a line of text: it ends where the path does."""


def private_routes() -> list[tuple[str, list[str]]]:
    """Every route of the URLconf up to its last private parameter, as
    (``route``, its private parameters' names): ``("p/r/<str:token>/", ["token"])``.
    A parameter is private when its name matches ``PRIVATE_NAME`` and its converter is
    not ``public``."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: list[tuple[str, list[str]]] = []

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            private = [
                name
                for name, converter in getattr(entry.pattern, "converters", {}).items()
                if PRIVATE_NAME.search(name) and type(converter).__name__ != "PublicConverter"
            ]
            if private:
                found.append((route, private))
            elif isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif not isinstance(entry, URLPattern):  # pragma: no cover
                raise TypeError(entry)

    walk(get_resolver().url_patterns, "")
    # a route's own subroutes start the same: keep the shortest, once
    routes: dict[str, list[str]] = {}
    for route, private in found:
        routes.setdefault(_up_to_last_private(route, private), private)
    return sorted(routes.items())


_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def _up_to_last_private(route: str, private: list[str]) -> str:
    last = max(m.end() for m in _PARAMETER.finditer(route) if m["name"] in private)
    return route[:last]


def _route_regex(route: str, private: list[str], number: int) -> str:
    """The text regex of ``route``: its private parameters as groups ``h<number>_<i>``,
    every other parameter a segment (or, for a regex route, as written)."""
    parts, at = [], 0
    for i, m in enumerate(_PARAMETER.finditer(route)):
        parts.append(re.escape(route[at : m.start()]))
        if m["name"] in private:
            parts.append(f"(?P<h{number}_{i}>{_SEGMENT})")
        elif m["converter"] == "path":
            parts.append(r"[^\s?#\"'<>]+")
        else:
            parts.append(_SEGMENT)
        at = m.end()
    parts.append(re.escape(route[at:]))
    return "/" + "".join(parts)


_HIDER: re.Pattern[str] | None = None


def _hider() -> re.Pattern[str] | None:
    """One regex of every private route (``private_routes``), made once the URLconf can
    be read (None before: gunicorn's master, which serves no request, logs no path)."""
    global _HIDER
    if _HIDER is None:
        from django.apps import apps

        if not apps.ready:
            return None
        routes = private_routes()
        _HIDER = re.compile(
            "|".join(_route_regex(route, names, n) for n, (route, names) in enumerate(routes))
        )
    return _HIDER


def _hide(match: re.Match[str]) -> str:
    text, start = match.group(0), match.start()
    spans = sorted(match.span(g) for g, v in match.groupdict().items() if v is not None)
    out, at = [], 0
    for a, b in spans:
        out += [text[at : a - start], HIDDEN]
        at = b - start
    return "".join(out) + text[at:]


def redact(text: str) -> str:
    """``text`` with the token of every private link replaced by ``HIDDEN``:
    "/m/Ab3x/sheet/" -> "/m/…/sheet/"; the routes are the URLconf's
    (``private_routes``)."""
    hider = _hider()
    return hider.sub(_hide, text) if hider else text


def private_path(path: str) -> bool:
    """Is ``path`` (a request's path, "/e/k7m4-…/sheet/") a private link's page, by the
    same routes as ``redact``? Answers of such a page tell search engines not to index
    them (``bummerl.middleware.NoIndexMiddleware``)."""
    hider = _hider()
    return bool(hider and hider.match(path))


def _redacted(value):
    return redact(value) if isinstance(value, str) else value


class RedactPrivateLinks(logging.Filter):
    """Redacts the private links of a record (``redact``); never drops one. A record's
    text arguments are redacted one by one (a formatter that reads them, as uvicorn's
    access line does, gets them clean); if the message still holds a token (an argument
    that is not text), it becomes the redacted message without arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def redact_handlers(*names: str) -> None:
    """Put ``RedactPrivateLinks`` on every handler of the loggers ``names`` (a server's
    own loggers, which do not reach the site's handler), once."""
    for name in names:
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RedactPrivateLinks) for f in handler.filters):
                handler.addFilter(RedactPrivateLinks())


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
