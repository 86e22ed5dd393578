"""What keeps every phone at a table up to date, and the sheet usable in a dead spot:
the sheet's version (polled by ``static/js/live.js``), the web app manifest and the
service worker (``/sw.js``, scope ``/``) that keeps the sheet page for offline use.

The version is the value ``scoring.changes.version_of`` gives for the sheet's rows,
read with the access in its one query (``scoring.access.sheet_for``) instead of
loading them: the poller compares it with the
``data-version`` of the page and asks for the ``#sheet`` partial only when it differs.
"""

import hashlib
import json
from functools import partial
from importlib import import_module

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.db import close_old_connections
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from base import push
from base.htmx import sign_in_answer
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
    link; an account's session adds its own). ``?seen=`` (live.js sends the page's
    version) is for the push server's ``held_version``; here it answers at once."""
    return HttpResponse(access.version, content_type="text/plain")


HELD_HEADER = "Bummerl-Held"
"""Set on an answer the push server held: live.js asks again at once instead of waiting."""


@partial(with_sheet_access, version=True)
def _access(request, access):
    return access


_SESSIONS = import_module(settings.SESSION_ENGINE).SessionStore


def _access_in_pool(request, **kwargs):
    """The access as the site reads it. The push server runs no middleware (an async
    server runs each of Django's in two thread hops: 2.3 ms of CPU a request against
    1.6 ms without, measured): what the sheet's access needs of them is done here, in
    the one hop, with the middleware's own parts (the session, the account, the 401)."""
    close_old_connections()  # this pool thread's connection, checked as a request's is
    if not hasattr(request, "user"):
        request.session = _SESSIONS(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        request.user = SimpleLazyObject(lambda: get_user(request))
    found = _access(request, **kwargs)
    return sign_in_answer(request, found) if isinstance(found, HttpResponse) else found


# In the event loop's thread pool: its threads keep their database connections from one
# held request to the next (a thread of the request's own would open one each time).
_read = sync_to_async(_access_in_pool, thread_sensitive=False)


@require_safe
@never_cache
async def held_version(request, **kwargs):
    """The push server's ``version/?seen=V`` (``bummerl.asgi``): as ``version``, but when
    the sheet still stands at ``V`` the answer waits until a writer announces a change
    (``base.push``) or ``settings.PUSH_SECONDS`` pass. An answer that was held carries
    ``Bummerl-Held: 1``; without the channel (no Redis) it answers at once, as a plain
    poll. Access as ``version`` (404, or 401 to sign in), asked again after a change:
    revoking or renewing the link announces one, so a held link gets its 404 at once."""
    since = push.moment()
    access = await _read(request, **kwargs)
    if isinstance(access, HttpResponse):
        return access
    woke = None
    if request.GET.get("seen") == access.version:
        woke = await push.hold(topic(access.sheet.pk), since, seconds=settings.PUSH_SECONDS)
        if woke:
            access = await _read(request, **kwargs)
            if isinstance(access, HttpResponse):
                return access
    response = HttpResponse(access.version, content_type="text/plain")
    if woke is not None:
        response[HELD_HEADER] = "1"
    return response


@require_safe
def manifest(request):
    """The web app manifest: the site installs as "Bummerl" and opens standalone."""
    document = {
        "name": "Bummerl",
        "short_name": "Bummerl",
        "description": _("Bummerl: score keeping for Schnapsen and Dreierschnapsen"),
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
