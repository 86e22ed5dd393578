"""The Content-Security-Policy of every answer of the site (``ContentSecurityPolicyMiddleware``),
and its Permissions-Policy (``PermissionsPolicyMiddleware``: copying a link and the
phone's share sheet for the site's own pages, no camera, microphone, location, payment,
USB or other powerful feature for anyone).

The site's pages run only its own scripts from its own static files: no inline script,
no ``on…=`` attribute, no ``javascript:`` link, no ``style=`` attribute, no eval (htmx is
told so by the ``htmx-config`` meta tag of ``base.html``: ``allowEval`` and
``includeIndicatorStyles`` off; its indicator's rules are in ``site.css``). The QR codes
on the pages are inline SVG, part of the page's markup; besides the site's own images
only ``data:`` ones are allowed. So one strict policy (``settings.CONTENT_SECURITY_POLICY``)
serves every answer, and the browser refuses a page shown in a frame elsewhere, a form
sent elsewhere, a ``<base>`` pointing elsewhere, and any script or style that is not a
file of the site.

The same policy goes on PDFs, static files and the admin: Django's admin runs its
scripts from static files too and sets styles through the DOM only (its autocomplete,
calendar and selector widgets raise no violation), and Chrome's PDF viewer keeps only
``frame-ancestors`` of a PDF's policy (``tests/browser/test_browser_csp.py`` walks both). The
printouts' own ``<style>`` and ``style=`` are read by WeasyPrint on the server, never by
a browser.

An answer that brings a policy of its own (a view that set the header) keeps it: the
club's widgets (``frameable``) are the one kind of page that other sites may frame.
"""

from functools import wraps

from django.conf import settings
from django.views.decorators.clickjacking import xframe_options_exempt

HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    """Sets ``Content-Security-Policy`` to ``settings.CONTENT_SECURITY_POLICY`` on every
    answer that has none. It stands above WhiteNoise, so static files carry it too (an
    SVG opened on its own runs no script), and above every middleware that answers early
    (a request refused at the door)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if HEADER not in response:
            response[HEADER] = settings.CONTENT_SECURITY_POLICY
        return response


class PermissionsPolicyMiddleware:
    """Sets ``Permissions-Policy`` to ``settings.PERMISSIONS_POLICY`` on every answer,
    static files and early refusals too (it stands where the CSP's middleware does)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response


def frameable(view):
    """Decorator of a view whose page is made to sit in a frame on any other site (a
    club's widgets): its answer carries the site's policy with ``frame-ancestors *``
    instead of ``'none'`` (everything else as strict: no inline script or style) and no
    ``X-Frame-Options`` (Django's ``xframe_options_exempt``)."""

    @wraps(view)
    def framed(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response[HEADER] = framed_policy()
        return response

    return xframe_options_exempt(framed)


def framed_policy() -> str:
    """``settings.CONTENT_SECURITY_POLICY`` with its ``frame-ancestors`` set to ``*``."""
    parts = [p.strip() for p in settings.CONTENT_SECURITY_POLICY.split(";") if p.strip()]
    kept = [p for p in parts if not p.startswith("frame-ancestors")]
    return "; ".join([*kept, "frame-ancestors *"])
