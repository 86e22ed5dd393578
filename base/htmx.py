"""Answers to htmx requests: a partial for a swap, the whole page for everything else.

A page and its partial share one URL, so every such answer says ``Vary: HX-Request``
(and the history-restore header): no cache, the browser's included, may give the
partial for the page or the page for the partial. htmx restoring history after Back
(when its own snapshot is gone) sends ``HX-Request`` too, with
``HX-History-Restore-Request``; it swaps the answer in as the whole page, so it gets
the page with its styles and scripts, never the bare partial.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render, resolve_url
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django_htmx.middleware import HtmxDetails

HTMX_HEADERS = ("HX-Request", "HX-History-Restore-Request")


def wants_partial(request: HttpRequest) -> bool:
    """An htmx swap, not a history restore."""
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    return htmx is not None and bool(htmx) and not htmx.history_restore_request


def vary_on_htmx(response: HttpResponse) -> HttpResponse:
    """Mark an answer that differs by the htmx headers."""
    patch_vary_headers(response, HTMX_HEADERS)
    return response


def partial_or_page(
    request: HttpRequest, template: str, partial: str, context: dict, status: int = 200
) -> HttpResponse:
    """``template#partial`` for an htmx swap, else the whole ``template``."""
    name = f"{template}#{partial}" if wants_partial(request) else template
    return vary_on_htmx(render(request, name, context, status=status))


SIGN_IN_HEADER = "Bummerl-Sign-In"
"""The header of a 401 that asks a page's script to sign in (``SignInMiddleware``)."""


def page_behind(request) -> str | None:
    """The page a request was sent from, as a path with its query: htmx's
    ``HX-Current-URL`` (the site's scripts send it too), else the ``Referer``; None when
    neither names a page of this site."""
    for header in ("HX-Current-URL", "Referer"):
        url = request.headers.get(header, "")
        if url and url_has_allowed_host_and_scheme(
            url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            parts = urlsplit(url)
            return parts.path + (f"?{parts.query}" if parts.query else "")
    return None


def sign_in_answer(request, response: HttpResponse) -> HttpResponse:
    """``response``, unless it sends to sign in first (a redirect to ``LOGIN_URL``):
    then for a POST or an htmx request ``next`` is the page it came from
    (``page_behind``), and an htmx request (or one of the site's scripts) gets 401 with
    the sign-in address in ``Bummerl-Sign-In`` instead (``SignInMiddleware``, and the
    push server's held version, ``scoring.views.live``)."""
    if response.status_code != 302:
        return response
    target = urlsplit(response.get("Location", ""))
    if target.netloc or target.path != resolve_url(settings.LOGIN_URL):
        return response
    # htmx restoring history after Back wants a whole page: the sign-in page is one.
    htmx = request.headers.get("HX-Request") == "true" and not request.headers.get(
        "HX-History-Restore-Request"
    )
    if not htmx and request.method in ("GET", "HEAD"):
        return response
    url = redirect_to_login(page_behind(request) or "/").url
    if not htmx:
        return HttpResponseRedirect(url)
    answer = HttpResponse(status=401)
    answer[SIGN_IN_HEADER] = url
    return vary_on_htmx(answer)
