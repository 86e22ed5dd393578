"""The push server's guards (``scoring.views.live.held_version``, ``bummerl.asgi``): it
answers every request as the site does (the same hostile requests to both: the same
status and headers); its holds are capped per link, session and address, a request over
a cap answered at once as a plain poll; a sign-out, or the session's end, ends a hold
with the site's 401 to sign in. Against a real Redis, as ``test_push``."""

import asyncio
from datetime import timedelta
from urllib.parse import unquote, unquote_to_bytes

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from scoring.changes import topic
from scoring.views.live import HELD_HEADER, door
from tests import factories
from tests.scoring.test_push import PUSH, PushClient, PushClientHandler, held_on, run, version_now
from tests.serving import redis_answers

pytestmark = [pytest.mark.django_db(transaction=True)]

HOST = "bummerl.example.org"
SITE = {
    "DEBUG": False,
    "ALLOWED_HOSTS": [HOST],
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SECURE_HSTS_SECONDS": 31_536_000,
    "PUSH_URL": "",
}
"""The site as a server runs it (README "Deployment"), without the channel: every
answer at once (held answers: ``test_a_held_answer_carries_the_site_s_headers``)."""

IGNORED = {"Date", "Expires", "Set-Cookie", "Content-Length"}
"""Headers that differ from one answer to the next (the time; a new CSRF token), and
the length of a page that shows its address: a byte that is no UTF-8 comes to the site
as it was sent (WSGI) and to the push server as U+FFFD (ASGI); the answers to a poll are
compared whole."""


def environ_and_scope(method: str, target: str, headers: dict[str, str | None]):
    """The same request for the site (a WSGI environ, as gunicorn makes it) and for the
    push server (an ASGI scope, as uvicorn makes it). ``target`` is the path and query
    as sent (percent-escaped); a header given as None is not sent."""
    path, _, query = target.partition("?")
    sent = {"Host": HOST, "X-Forwarded-Proto": "https", **headers}
    sent = {name: value for name, value in sent.items() if value is not None}
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": unquote_to_bytes(path).decode("latin-1"),
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "HTTP_COOKIE": "",
        **{_meta(name): value for name, value in sent.items()},
    }
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": unquote(path),
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "headers": [(n.lower().encode(), v.encode("latin-1")) for n, v in sent.items()],
        "client": ["127.0.0.1", 4711],
        "server": ("testserver", "80"),
    }
    return environ, scope


def _meta(name: str) -> str:
    key = name.upper().replace("-", "_")
    return key if key in ("CONTENT_LENGTH", "CONTENT_TYPE") else f"HTTP_{key}"


def hostile(sheet, signed_out: str, member: str) -> list[tuple[str, str, dict]]:
    """Requests no phone sends, and a few it does, each as (method, target, headers)."""
    link = f"/e/{sheet.entry_token}/version/"
    table = f"/tables/{sheet.pk}/version/"
    script = {"HX-Request": "true"}
    return [
        ("GET", "/e/ab%00c/version/?seen=1-0", {}),
        ("GET", f"{link}?seen=1%000", {}),
        ("GET", f"{link}?seen=%ff%fe", {}),
        ("GET", "/e/%ff%fe/version/?seen=1-0", {}),
        ("GET", "/e/%c3%a4/version/", {}),
        ("GET", f"/e/{'a' * 5000}/version/?seen=1-0", {}),
        ("GET", f"{link}?seen={'9' * 5000}", {}),
        ("GET", f"{link}?seen=abc&seen=1-0", {}),
        ("GET", f"{link}?seen=", {}),
        ("GET", link, {}),
        ("GET", link, {"Host": "evil.example"}),
        ("GET", link, {"Host": None}),
        ("GET", link, {"Host": f"{HOST}:99999"}),
        ("GET", link, {"X-Forwarded-Proto": None}),
        ("HEAD", link, {}),
        ("POST", link, {}),
        ("POST", link, {"Content-Type": "application/x-www-form-urlencoded; charset=latin-1"}),
        ("OPTIONS", link, {}),
        ("PUT", link, {}),
        ("GET", link, {"Content-Length": str(settings.BUMMERL_REQUEST_MAX_BYTES + 1)}),
        ("GET", "/nope/", {}),
        ("GET", f"{link}extra/", {}),
        ("GET", link[:-1], {}),
        ("GET", "/tables/abc/version/", {}),
        ("GET", "/tables/99999999999999999999999/version/", {}),
        ("GET", link, {"Cookie": "sessionid=garbage; django_language=xx"}),
        ("GET", link, {"Cookie": 'sessionid="\x7f;;=="; csrftoken=' + "x" * 5000}),
        ("GET", table, {"Cookie": "sessionid=garbage", **script}),
        ("GET", table, {"Cookie": f"sessionid={signed_out}", **script}),
        ("GET", table, {"Cookie": f"sessionid={signed_out}"}),
        ("GET", table, {"Cookie": f"sessionid={member}", **script}),
        ("GET", f"{table}?seen=1-0", {"Cookie": f"sessionid={member}", "Referer": "x\x00"}),
    ]


def session_of(user) -> str:
    client = factories.signed_in(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@override_settings(**SITE)
def test_the_push_server_answers_every_request_as_the_site_does():
    sheet = factories.sheet(factories.club())
    factories.fill(sheet, count=2)
    member = factories.user(sheet.club, role="scorer")
    signed_out = session_of(factories.user(sheet.club, role="scorer"))
    Session.objects.filter(session_key=signed_out).delete()
    asked = hostile(sheet, signed_out, session_of(member))
    requests = [environ_and_scope(method, target, h) for method, target, h in asked]
    site = [Client().request(**environ) for environ, _scope in requests]

    async def main():
        handler = PushClientHandler(enforce_csrf_checks=False)
        return [await handler(dict(scope)) for _environ, scope in requests]

    pushed = run(main)
    statuses = [answer.status_code for answer in site]
    # The site's own answers, so the list asks what it means to:
    assert statuses == [
        400,  # NUL in the path
        400,  # or in the query
        200,  # bytes that are no UTF-8 in the query: a poll of another version
        404,  # in the path: no such link
        404,
        404,
        200,  # an overlong version seen: a poll
        200,
        200,
        200,
        400,  # a Host the site does not serve
        400,  # none at all
        200,  # the site's name with a port: the proxy's business
        301,  # plain http: to https
        200,  # HEAD
        405,
        400,  # a form in latin-1
        405,
        405,
        413,
        404,
        404,
        301,  # without its slash: to it (the site's APPEND_SLASH)
        404,
        404,
        200,  # a link does not need a session
        200,
        401,  # an account's sheet: to sign in
        401,
        302,
        200,
        200,
    ]
    for (method, target, _h), ours, theirs in zip(asked, pushed, site, strict=True):
        said = f"{method} {target[:60]}"
        assert ours.status_code == theirs.status_code, said
        assert _headers(ours) == _headers(theirs), said
        if theirs.status_code == 200 and method == "GET":
            assert ours.content == theirs.content, said
    assert "Content-Security-Policy" in _headers(pushed[0])
    assert _headers(pushed[6])["Cache-Control"].startswith("max-age=0, no-cache, no-store")


def _headers(response) -> dict[str, str]:
    return {name: value for name, value in response.items() if name not in IGNORED}


needs_redis = pytest.mark.skipif(
    not redis_answers(), reason="Redis does not answer on 127.0.0.1:6379"
)


@needs_redis
@override_settings(**{**SITE, **PUSH}, PUSH_SECONDS=0.3)
def test_a_held_answer_carries_the_site_s_headers():
    sheet = factories.sheet(factories.club())
    target = f"/e/{sheet.entry_token}/version/?seen={version_now(sheet)}"
    environ, scope = environ_and_scope("GET", target, {})
    site = Client().request(**environ)
    held = run(lambda: PushClientHandler(enforce_csrf_checks=False)(scope))
    assert held[HELD_HEADER] == "1"
    assert _headers(held) == {**_headers(site), HELD_HEADER: "1"}


def hold(client: PushClient, path: str, **kwargs) -> asyncio.Task:
    return asyncio.create_task(client.get(path, **kwargs))


@needs_redis
@override_settings(**PUSH, PUSH_SECONDS=60, PUSH_HOLDS_PER_LINK=3)
def test_a_link_s_holds_are_capped_and_one_over_the_cap_is_a_plain_poll():
    sheet = factories.sheet(factories.club())
    seen = version_now(sheet)
    path = f"/e/{sheet.entry_token}/version/?seen={seen}"

    async def main():
        held = []
        for _ in range(3):
            held.append(hold(PushClient(), path))
            await until_held(sheet.pk, len(held))
        over = await asyncio.wait_for(PushClient().get(path), 10)
        counted = dict(door().holds)
        held[0].cancel()  # a phone gone: its place is free again
        await until_held(sheet.pk, 2)
        again = hold(PushClient(), path)
        await until_held(sheet.pk, 3)
        for task in [*held[1:], again]:
            task.cancel()
        return over, counted

    over, counted = run(main)
    assert over.status_code == 200
    assert over.content.decode() == seen
    assert HELD_HEADER not in over
    assert counted[("link", f"/e/{sheet.entry_token}/version/")] == 3


@needs_redis
@override_settings(**PUSH, PUSH_SECONDS=60, PUSH_HOLDS_PER_SESSION=2)
def test_a_session_s_holds_are_capped_over_its_tables():
    club = factories.club()
    sheets = [factories.sheet(club, names=(f"A{n}", f"B{n}", f"C{n}")) for n in range(3)]
    user = factories.user(club, role="scorer")
    session = session_of(user)

    def path(sheet):
        return f"/tables/{sheet.pk}/version/?seen={version_now(sheet)}"

    async def main():
        client = PushClient()
        client.cookies[settings.SESSION_COOKIE_NAME] = session
        first = hold(client, path(sheets[0]))
        await until_held(sheets[0].pk, 1)
        second = hold(client, path(sheets[1]))
        await until_held(sheets[1].pk, 1)
        over = await asyncio.wait_for(client.get(path(sheets[2])), 10)
        counted = dict(door().holds)
        first.cancel()
        second.cancel()
        return over, counted

    over, counted = run(main)
    assert over.status_code == 200 and HELD_HEADER not in over
    assert counted[("session", session)] == 2


@needs_redis
@override_settings(**PUSH, PUSH_SECONDS=60, PUSH_HOLDS_PER_ADDRESS=2, TRUSTED_PROXIES=["127.0.0.1"])
def test_an_address_s_holds_are_capped_and_another_address_is_held():
    club = factories.club()
    sheets = [factories.sheet(club, names=(f"A{n}", f"B{n}", f"C{n}")) for n in range(3)]

    def path(sheet):
        return f"/e/{sheet.entry_token}/version/?seen={version_now(sheet)}"

    async def main():
        first = hold(PushClient(), path(sheets[0]))
        await until_held(sheets[0].pk, 1)
        second = hold(PushClient(), path(sheets[1]))
        await until_held(sheets[1].pk, 1)
        over = await asyncio.wait_for(PushClient().get(path(sheets[2])), 10)
        counted = dict(door().holds)
        # Behind the proxy: another phone's address, as the proxy names it.
        elsewhere = hold(PushClient(), path(sheets[2]), headers={"X-Forwarded-For": "203.0.113.9"})
        await until_held(sheets[2].pk, 1)
        for task in (first, second, elsewhere):
            task.cancel()
        return over, counted

    over, counted = run(main)
    assert over.status_code == 200 and HELD_HEADER not in over
    assert counted[("address", "127.0.0.1")] == 2


async def until_held(sheet_id: int, count: int) -> None:
    """Until ``count`` requests are held on the sheet (at most 10 s)."""
    for _ in range(1000):
        if len(push_waiters(sheet_id)) == count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{len(push_waiters(sheet_id))} held, not {count}")


def push_waiters(sheet_id: int) -> set:
    from base import push

    return push.hub().waiters.get(topic(sheet_id), set())


@needs_redis
@override_settings(**PUSH, PUSH_SECONDS=60)
def test_a_sign_out_ends_the_account_s_hold_with_the_site_s_401():
    sheet = factories.sheet(factories.club())
    user = factories.user(sheet.club, role="scorer")
    phone = factories.signed_in(user)
    base = reverse("sheet:version", kwargs={"pk": sheet.pk})
    script = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{base}"}

    def sign_out():
        assert phone.post(reverse("logout")).status_code == 302

    async def main():
        client = PushClient()
        client.cookies = phone.cookies
        request = hold(client, f"{base}?seen={version_now(sheet)}", headers=script)
        await held_on(sheet.pk, request)
        started = asyncio.get_running_loop().time()
        await sync_to_async(sign_out, thread_sensitive=False)()
        answer = await asyncio.wait_for(request, 10)
        return answer, asyncio.get_running_loop().time() - started

    answer, took = run(main)
    assert answer.status_code == 401
    assert answer["Bummerl-Sign-In"] == reverse("login") + "?next=" + base
    assert took < 5  # woken, not held its 60 s


@needs_redis
@override_settings(**PUSH, PUSH_SECONDS=60)
def test_a_hold_ends_at_the_session_s_end_with_the_site_s_401():
    sheet = factories.sheet(factories.club())
    user = factories.user(sheet.club, role="scorer")
    phone = factories.signed_in(user)
    key = phone.cookies[settings.SESSION_COOKIE_NAME].value
    base = reverse("sheet:version", kwargs={"pk": sheet.pk})
    script = {"HX-Request": "true", "HX-Current-URL": f"http://testserver{base}"}
    Session.objects.filter(session_key=key).update(
        expire_date=timezone.now() + timedelta(seconds=2)
    )

    async def main():
        client = PushClient()
        client.cookies = phone.cookies
        started = asyncio.get_running_loop().time()
        answer = await asyncio.wait_for(
            client.get(f"{base}?seen={version_now(sheet)}", headers=script), 10
        )
        return answer, asyncio.get_running_loop().time() - started

    answer, took = run(main)
    assert answer.status_code == 401
    assert answer["Bummerl-Sign-In"] == reverse("login") + "?next=" + base
    assert 1.5 < took < 5
