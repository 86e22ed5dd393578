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

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

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
    link; an account's session adds its own)."""
    return HttpResponse(access.version, content_type="text/plain")


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
