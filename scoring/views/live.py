"""What keeps every phone at a table up to date, and the sheet usable in a dead spot:
the sheet's version (polled by ``static/js/live.js``), the web app manifest and the
service worker (``/sw.js``, scope ``/``) that keeps the sheet page for offline use.

The version is the value ``scoring.changes.version_of`` gives for the sheet's rows,
read with the access in its one query (``scoring.access.sheet_for``) instead of
loading them: the poller compares it with the
``data-version`` of the page and asks for the ``#sheet`` partial only when it differs.
"""

import asyncio
import hashlib
import io
import json
from collections import Counter
from collections.abc import Awaitable, Callable
from datetime import datetime
from functools import cache, partial
from types import SimpleNamespace
from typing import TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler, ASGIRequest
from django.core.handlers.base import BaseHandler
from django.core.signals import setting_changed
from django.db import close_old_connections
from django.dispatch import receiver
from django.http import HttpResponse, JsonResponse, parse_cookie
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from base import push
from base.clientip import limit_address
from scoring.changes import topic
from scoring.views.sheet import with_sheet_access

THEME_COLOUR = "#0b5d3b"
"""The accent of ``site.css`` and the favicon's background."""

SHELL_ASSETS = (
    "css/site.css",
    "vendor/htmx-2.0.11.min.js",
    "js/site.js",
    "js/live.js",
    "favicon.svg",
    "icons/icon-192.png",
)
"""Static files the service worker keeps from its installation on (the sheet page's
styles and scripts): a sheet page opened offline looks and works as online."""


@require_safe
@never_cache
@partial(with_sheet_access, version=True)
def version(request, access):
    """The sheet's version as plain text, read with the access in one query (a private
    link; an account's session adds its own). ``?seen=`` is the version the page shows
    (live.js sends it): when the sheet still stands there, the answer names the sheet's
    topic (``HOLD_ON``), on which the push server (``held_version``) holds it; the site
    answers at once."""
    response = HttpResponse(access.version, content_type="text/plain")
    if request.GET.get("seen") == access.version:
        setattr(response, HOLD_ON, topic(access.sheet.pk))
    return response


HOLD_ON = "hold_on"
"""The attribute of ``version``'s answer (never sent) with the topic it may be held on."""

HELD_HEADER = "Bummerl-Held"
"""Set on an answer the push server held: live.js asks again at once instead of waiting."""


@cache
def _site() -> BaseHandler:
    """The site's own request handling, middleware and all, as gunicorn runs it."""
    handler = BaseHandler()
    handler.load_middleware(is_async=False)
    return handler


@receiver(setting_changed)
def _middleware_read_again(**kwargs) -> None:
    """Middleware reads its settings once, when made: a test that changes them gets the
    site's handling made anew, as the test client's is."""
    _site.cache_clear()


def _site_answer(request) -> tuple[HttpResponseBase, list[str], datetime | None]:
    """In a pool thread: the site's answer to ``request`` (``version``'s, or the site's
    refusal: 400, 401 to sign in, 404, ...); the topics it may be held on, none when it
    may not (the sheet's, and the account's when signed in, ``base.push.account_topic``);
    and when the account's session ends (None without one)."""
    close_old_connections()  # this pool thread's connection, checked as a request's is
    response = _site().get_response(request)
    on = getattr(response, HOLD_ON, None)
    if on is None:
        return response, [], None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return response, [on], None
    ends = (
        request.session.get_model_class()
        .objects.filter(session_key=request.session.session_key)
        .values_list("expire_date", flat=True)
        .first()
    )
    return response, [on, push.account_topic(user.pk)], ends


# In the event loop's thread pool: its threads keep their database connections from one
# held request to the next (a thread of the request's own would open one each time).
_read = sync_to_async(_site_answer, thread_sensitive=False)


T = TypeVar("T")


class Door:
    """What one event loop lets in (``PushServer``, ``held_version``): the holds in progress per link
    (the path), per session (its cookie) and per client address (``limit_address``),
    each capped (``settings.PUSH_HOLDS_PER_LINK``, ``…_PER_SESSION``, ``…_PER_ADDRESS``);
    and two lanes to the database: ``READERS`` reads at once for requests within their
    caps, one at a time and ``OVER_PER_SECOND`` at most for those over a cap, so that a
    burst over the caps takes one pool thread at most, a tenth of a core or so, and never
    queues ahead of a request within them."""

    READERS = 4
    """Fewer than the loop's pool has threads (``min(32, cores + 4)``): a read waits here,
    in its lane, never in the pool's queue behind another lane's."""

    OVER_PER_SECOND = 10
    """Reads a second at most for requests over a cap: a burst of them waits its turn,
    held by the wait (a waiting request costs no CPU), and comes back no faster."""

    def __init__(self) -> None:
        self.holds: Counter[tuple[str, str]] = Counter()
        self.within = asyncio.Semaphore(self.READERS)
        self.over = asyncio.Semaphore(1)

    @staticmethod
    def keys(scope: dict) -> list[tuple[str, str]]:
        """A request's link (its path), session (its cookie) and address (``limit_address``,
        which reads the connection's address and ``X-Forwarded-For`` only), each as
        (kind, value): from its ASGI scope, before Django makes a request of it."""
        headers: dict[bytes, list[str]] = {}
        for name, value in scope.get("headers", ()):
            headers.setdefault(name.lower(), []).append(value.decode("latin-1"))
        keys = [("link", scope["path"])]
        cookies = parse_cookie("; ".join(headers.get(b"cookie", ())))
        session = cookies.get(settings.SESSION_COOKIE_NAME)
        if session:
            keys.append(("session", session))
        peer = SimpleNamespace(
            META={
                "REMOTE_ADDR": (scope.get("client") or [None])[0],
                "HTTP_X_FORWARDED_FOR": ",".join(headers.get(b"x-forwarded-for", ())),
            }
        )
        address = limit_address(peer)
        if address:
            keys.append(("address", address))
        return keys

    def enter(self, keys: list[tuple[str, str]]) -> bool:
        """Count a hold for ``keys`` when each is below its cap (True); else count
        nothing (False: the request is answered as a plain poll)."""
        caps = {
            "link": settings.PUSH_HOLDS_PER_LINK,
            "session": settings.PUSH_HOLDS_PER_SESSION,
            "address": settings.PUSH_HOLDS_PER_ADDRESS,
        }
        if any(self.holds[key] >= caps[key[0]] for key in keys):
            return False
        self.holds.update(keys)
        return True

    def leave(self, keys: list[tuple[str, str]]) -> None:
        self.holds.subtract(keys)
        for key in keys:
            if self.holds[key] <= 0:
                del self.holds[key]

    async def let_in(self, scope: dict, serve: Callable[[], Awaitable[T]]) -> T:
        """``serve()`` the request of ``scope``: counted as a hold while it runs when it
        is within its caps; else (marked ``OVER_CAP``, not to be held) after its turn in
        the lane over the caps, before Django so much as reads it."""
        keys = self.keys(scope)
        if self.enter(keys):
            try:
                return await serve()
            finally:
                self.leave(keys)
        async with self.over:
            scope[OVER_CAP] = True
            return await serve()


OVER_CAP = "bummerl.over_cap"
"""The ASGI scope's mark of a request let in over a cap (``Door.let_in``)."""


_doors: dict[asyncio.AbstractEventLoop, Door] = {}


def door() -> Door:
    """This event loop's door (made on first use)."""
    return push.of_loop(_doors, Door)


async def held_version(request) -> HttpResponseBase:
    """The push server's answer to every request (``bummerl.asgi``): the site's own
    (``version``'s, its refusal, any page's, with the site's headers: its middleware runs
    in the read's one thread hop); a version request is held when the sheet still stands at ``?seen=`` until a writer
    announces a change (``base.push``), the account signs out or its session ends, or
    ``settings.PUSH_SECONDS`` pass; then read again. An answer that was held carries
    ``Bummerl-Held: 1``. Answered at once, as a plain poll: without the channel (no
    Redis), and when the link, the session or the address has its cap of holds in
    progress (``Door``)."""
    if request.scope.get(OVER_CAP):  # in the lane over the caps already (Door.let_in)
        response = (await _read(request))[0]
        await asyncio.sleep(1 / Door.OVER_PER_SECOND)  # only a read waits: one gone is no turn
        return response
    lane = door().within
    since = push.moment()
    async with lane:
        response, topics, ends = await _read(request)
    if not topics:
        return response
    seconds = float(settings.PUSH_SECONDS)
    if ends is not None:
        seconds = min(seconds, (ends - timezone.now()).total_seconds())
    woke = await push.hold(topics, since, seconds=max(seconds, 0.0))
    if woke is None:
        return response
    if woke or seconds < settings.PUSH_SECONDS:  # changed, or the session's end
        async with lane:
            response, _topics, _ends = await _read(_again(request))
    response[HELD_HEADER] = "1"
    return response


def _again(request) -> ASGIRequest:
    """A new request like ``request`` (a GET or HEAD, no body): read again as new, with
    no account or session kept from the first read."""
    return ASGIRequest(request.scope, io.BytesIO())


class PushServer(ASGIHandler):
    """Django's ASGI handler with every request answered by ``held_version``: no
    middleware on this side (the site's runs in the read's thread hop), so a held
    request costs no thread while it waits."""

    def load_middleware(self, is_async: bool = False) -> None:
        pass

    async def __call__(self, scope, receive, send) -> None:
        """As Django's, without a thread of the request's own for its synchronous code
        (``ThreadSensitiveContext``): it has none here, but the read, in the pool."""
        if scope["type"] != "http":
            raise ValueError(f"the push server serves HTTP, not {scope['type']}")
        await door().let_in(scope, partial(self.handle, scope, receive, send))

    async def get_response_async(self, request) -> HttpResponseBase:
        return await held_version(request)


@require_safe
def manifest(request):
    """The web app manifest: the site installs as "Bummerl" and opens standalone."""
    document = {
        "name": "Bummerl",
        "short_name": "Bummerl",
        "description": _(
            "Bummerl: score keeping for Schnapsen, Dreierschnapsen and Bauernschnapsen"
        ),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#fafaf7",
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_safe
def service_worker(request):
    """The service worker, served from the root so that its scope is the whole site.
    Its cache is named after the static files' (hashed) URLs: a new deployment brings
    a new worker that drops the old cache. Like every page it says no-store, so the
    browser checks for a new worker on every visit."""
    assets = json.dumps([static(name) for name in SHELL_ASSETS])
    cache = "bummerl-" + hashlib.sha256(assets.encode()).hexdigest()[:12]
    response = render(
        request,
        "scoring/sw.js",
        {"assets": assets, "cache": cache},
        content_type="application/javascript",
    )
    response["Service-Worker-Allowed"] = "/"
    return response
