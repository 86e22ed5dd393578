"""The server's log (bummerl.logs): no private link's token in any line, a wrong Host is
one warning line, the live pages' polls are not logged, one format for Django and
gunicorn."""

import datetime
import io
import logging
import re
from types import SimpleNamespace

import pytest
from django.test import Client
from gunicorn.config import Config

from bummerl.logs import GunicornLogger, QuietPolls, RedactPrivateLinks, redact

LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARNING|ERROR) [\w.]+ \d+: ")


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("GET /m/Ab3xQ9/sheet/ HTTP/1.1", "GET /m/…/sheet/ HTTP/1.1"),
        ("/e/tok_en-1/version/", "/e/…/version/"),
        ("/j/INVITE42/", "/j/…/"),
        ("/s/side-token/?sent=result", "/s/…/?sent=result"),
        ("/p/me/abc.def:ghi/", "/p/me/…/"),
        ("/accounts/reset/MQ/cabc12-0123456789abcdef/", "/accounts/reset/…/…/"),
        ("/p/PUBLIC/screen/", "/p/PUBLIC/screen/"),  # the night's public link stays
        ("/c/club/tournaments/3/", "/c/club/tournaments/3/"),
    ],
)
def test_every_private_link_loses_its_token(text, clean):
    assert redact(text) == clean


@pytest.fixture
def written():
    """What the site's one log handler writes, as text (its stream swapped for the test)."""
    (handler,) = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RedactPrivateLinks) for f in h.filters)
    ]
    stream = io.StringIO()
    old = handler.setStream(stream)
    yield stream
    handler.setStream(old)


def test_a_server_error_on_a_match_link_is_logged_without_its_token(written):
    try:
        raise RuntimeError("failed at /m/SECRETTOKEN99/sheet/")
    except RuntimeError:
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", "/m/SECRETTOKEN99/sheet/", exc_info=True
        )
    text = written.getvalue()
    assert "SECRETTOKEN99" not in text
    assert "Internal Server Error: /m/…/sheet/" in text
    assert "RuntimeError: failed at /m/…/sheet/" in text  # the traceback too
    assert LINE.match(text)


@pytest.mark.django_db
def test_a_wrong_host_is_one_warning_line(settings, written):
    settings.ALLOWED_HOSTS = ["club.example"]
    assert Client().get("/", HTTP_HOST="198.51.100.7").status_code == 400
    lines = written.getvalue().splitlines()
    assert len(lines) == 1
    assert LINE.match(lines[0]) and " WARNING django.security.DisallowedHost " in lines[0]
    assert "Traceback" not in written.getvalue()


def test_runserver_does_not_log_the_polls_that_came_through():
    def record(*args):
        return logging.LogRecord("django.server", logging.INFO, "", 0, '"%s" %s %s', args, None)

    quiet = QuietPolls()
    assert not quiet.filter(record("GET /e/tok/version/ HTTP/1.1", "200", "12"))
    assert not quiet.filter(record("GET /e/tok/version/?v=3 HTTP/1.1", "304", "0"))
    assert quiet.filter(record("GET /e/tok/version/ HTTP/1.1", "500", "0"))  # a failure is
    assert quiet.filter(record("POST /e/tok/deal/ HTTP/1.1", "200", "900"))


def gunicorn_line(capsys, path, status="200 OK"):
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", '%(h)s "%(r)s" %(s)s %(b)s %(M)sms')
    log = GunicornLogger(cfg)
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path.split("?")[0],
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.1",
        "HTTP_REFERER": "https://club.example/m/REFTOKEN/",
    }
    resp = SimpleNamespace(status=status, sent=42, headers=[])
    req = SimpleNamespace(headers=[])
    log.access(resp, req, environ, datetime.timedelta(milliseconds=7))
    return capsys.readouterr().out


def test_gunicorns_access_line_has_the_sites_format_and_no_token(capsys):
    out = gunicorn_line(capsys, "/m/GUNITOKEN/sheet/")
    (line,) = out.splitlines()
    assert LINE.match(line) and " INFO gunicorn.access " in line
    assert line.endswith('192.0.2.1 "GET /m/…/sheet/ HTTP/1.1" 200 42 7ms')
    assert "GUNITOKEN" not in out
    assert gunicorn_line(capsys, "/e/tok/version/") == ""  # a poll: not logged
    assert "version" in gunicorn_line(capsys, "/e/tok/version/", "500 Internal Server Error")
