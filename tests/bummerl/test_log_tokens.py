"""No private link's token in any log line: the routes that carry one are read from the
URLconf (``bummerl.logs.private_routes``), so every such route is walked here, through
the masking function and through the deployed servers (gunicorn and the push server)."""

import http.client
import re
from urllib.parse import urlsplit

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from bummerl.logs import HIDDEN, PRIVATE_NAME, private_routes, redact
from tests import factories
from tests.serving import deployed, why_not_deployed

PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")
FILLER = {"id": "7", "slug": "club", "path": "a/b"}


def every_route() -> list[tuple[str, dict]]:
    """Every URL pattern of the site as (route, converters of its parameters)."""
    found = []

    def walk(patterns, prefix, converters):
        for entry in patterns:
            route = prefix + str(entry.pattern)
            known = {**converters, **getattr(entry.pattern, "converters", {})}
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route, known)
            else:
                assert isinstance(entry, URLPattern)
                found.append((route, known))

    walk(get_resolver().url_patterns, "", {})
    return found


def token_paths() -> list[tuple[str, list[str]]]:
    """A path for every route that carries a private parameter, each parameter filled:
    the private ones with a token of their own (returned beside the path)."""
    paths = []
    for n, (route, converters) in enumerate(every_route()):
        tokens: list[str] = []

        def fill(m, n=n, converters=converters, tokens=tokens):
            name = m["name"]
            if PRIVATE_NAME.search(name) and type(converters[name]).__name__ != "PublicConverter":
                tokens.append(f"Tok{n}x{len(tokens)}Q9zW")
                return tokens[-1]
            return FILLER.get(m["converter"] or "str", "seite")

        path = "/" + PARAMETER.sub(fill, route).lstrip("^").rstrip("$")
        if tokens:
            paths.append((path, tokens))
    return paths


def test_the_private_routes_are_read_from_the_urlconf():
    routes = dict(private_routes())
    for route in (
        "p/r/<str:token>",  # a registration's private link
        "bodies/join/<str:token>",  # a body's join link
        "e/<str:token>",
        "m/<str:token>",
        "s/<str:token>",
        "j/<str:token>",
        "p/me/<str:token>",
        "accounts/reset/<uidb64>/<token>",
    ):
        assert route in routes
    assert not any(route.startswith("p/<public:") for route in routes)


def test_every_token_route_loses_its_token_and_keeps_the_rest():
    paths = token_paths()
    assert len(paths) >= 20  # the entry link alone carries a dozen
    for path, tokens in paths:
        line = f'192.0.2.1 "GET {path}?x=1 HTTP/1.1" 404 12 3ms'
        clean = redact(line)
        assert not any(token in clean for token in tokens), path
        expected = path
        for token in tokens:
            expected = expected.replace(token, HIDDEN)
        assert clean == f'192.0.2.1 "GET {expected}?x=1 HTTP/1.1" 404 12 3ms'
        assert redact(f"https://club.example{path}") == f"https://club.example{expected}"


def test_a_nights_public_link_and_other_pages_stay():
    for path in ("/p/PUBLICTOK/", "/p/PUBLICTOK/screen/", "/p/PUBLICTOK/seats/", "/c/club/"):
        assert redact(f"GET {path} HTTP/1.1") == f"GET {path} HTTP/1.1"


def get(url: str, referer: str) -> int:
    address = urlsplit(url)
    connection = http.client.HTTPConnection(address.hostname or "", address.port, timeout=60)
    try:
        connection.request("GET", address.path, headers={"Referer": referer})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


@pytest.mark.heavy
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(bool(why_not_deployed()), reason=why_not_deployed())
def test_no_token_in_the_logs_of_the_deployed_servers():
    club = factories.club()
    sheet = factories.sheet(club)
    registration = factories.announced_registration(club)
    body = factories.body()
    real = [
        (reverse("entry:page", kwargs={"token": sheet.entry_token}), [sheet.entry_token]),
        (
            reverse("registration_link", kwargs={"token": registration.token}),
            [registration.token],
        ),
        (reverse("cups:join", kwargs={"token": body.join_token}), [body.join_token]),
    ]
    paths = token_paths() + real
    with deployed(redis_url="redis://127.0.0.1:6379/13") as site:
        assert site.push is not None
        for path, _ in paths:
            for server in (site.site, site.push):
                status = get(server.url + path, referer=f"{site.url}{path}")
                assert status < 500 or status == 503, (path, status)
        site.site.stop()
        site.push.stop()
        logs = {name: (site.work / name).read_text() for name in ("gunicorn.log", "push.log")}
    for name, text in logs.items():
        for path, tokens in paths:
            for token in tokens:
                assert token not in text, (name, path)
    # gunicorn wrote a line for each (redacted) request, so the walk was logged indeed
    for path, tokens in paths:
        shown = path
        for token in tokens:
            shown = shown.replace(token, HIDDEN)
        assert f"GET {shown} " in logs["gunicorn.log"], path


def test_the_shipped_nginx_site_writes_no_access_log():
    """nginx would log every address whole (the distribution's main file logs by
    default): the site's lines come from gunicorn, tokens hidden."""
    from tests.serving import DEPLOY

    words = [line.split() for line in (DEPLOY / "nginx.conf").read_text().splitlines()]
    assert ["access_log", "off;"] in words
