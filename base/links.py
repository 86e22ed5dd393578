"""Whole addresses for links that leave the page: QR codes, links handed over, mails.

``settings.SITE_URL`` (``DJANGO_SITE_URL``, e.g. ``https://bummerl.example.org``) is the
site's address when set, and every such link starts with it, whatever Host a request
named. Unset, a link starts with the address the page was opened by: on the pub laptop
(``make run``, any host allowed) that is the laptop's network address the phones reach;
on a club's server the Host was checked against ``ALLOWED_HOSTS`` (Django refuses any
other with 400), which then may not be ``*`` (settings refuse to start so).

A mail goes to someone other than the visitor, so its link may never come from a Host
the visitor chose: ``mail_base`` is ``None`` where the host is unchecked. A mail the
task worker sends has no request at all: ``site_base`` makes its links from the
settings alone.

A link that starts with a loopback address (127.0.0.1, localhost: the laptop opened by
itself) reaches no phone: ``unreachable_host`` decides it, ``phones_warning`` says it on
every page (``phone_reach``, the template ``_phones_unreachable.html``) and printout
(``base.printing.pdf_response``) that carries such links.
"""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.utils.translation import gettext as _


def absolute_url(request, path: str) -> str:
    """``path`` (starting with "/") as a whole address: ``SITE_URL + path`` when set, else
    on the host and scheme the request came by (``request.build_absolute_uri``)."""
    if settings.SITE_URL:
        return settings.SITE_URL + path
    return request.build_absolute_uri(path)


def host_is_checked() -> bool:
    """Whether a request's Host can only be one of ``ALLOWED_HOSTS`` (no ``*``)."""
    return "*" not in settings.ALLOWED_HOSTS


def mail_base(request) -> tuple[str, str] | None:
    """``(scheme, host)`` for links in a mail: from ``SITE_URL``, else the request's
    checked host; ``None`` when neither is trustworthy (any host allowed)."""
    if settings.SITE_URL:
        parts = urlsplit(settings.SITE_URL)
        return parts.scheme, parts.netloc
    if host_is_checked():
        return request.scheme, request.get_host()
    return None


def site_base() -> str | None:
    """The start of whole addresses made without a request (mails sent by the task
    worker), without the closing "/": ``SITE_URL`` when set ("https://bummerl.example.org");
    else the first host ``ALLOWED_HOSTS`` names whole (neither "*" nor a ".example.org"
    pattern), on https when the site sends every visitor there (``SECURE_SSL_REDIRECT``,
    on in production) and on http otherwise; ``None`` while any host is allowed (the pub
    laptop: no address is known that the reader could reach)."""
    if settings.SITE_URL:
        return settings.SITE_URL
    if not host_is_checked():
        return None
    for host in settings.ALLOWED_HOSTS:
        if host and not host.startswith("."):
            scheme = "https" if getattr(settings, "SECURE_SSL_REDIRECT", False) else "http"
            return f"{scheme}://{host}"
    return None


_LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def is_loopback(host: str | None) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is this
    machine only, which no phone reaches: ``localhost`` and any name under
    ``.localhost``, 127.0.0.0/8, ``::1``, an IPv4-mapped loopback (``::ffff:127.0.0.1``)
    and the unspecified ``0.0.0.0``/``::`` (a browser opens this machine by it).
    ``None`` or ``""``: False (no address known). Never raises."""
    name = (host or "").strip("[]").rstrip(".").lower()
    if not name:
        return False
    if name in _LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address.is_loopback or address.is_unspecified


def unreachable_host(request) -> str | None:
    """The host that the whole addresses of ``request``'s page (``absolute_url``: QR
    codes, links handed over) start with, when phones cannot reach it
    (``is_loopback``): ``SITE_URL``'s host when set, else the host the page was opened
    by. ``None`` when phones can reach it, or when the request's host is not allowed
    (Django answers 400 for such a request anyway)."""
    if settings.SITE_URL:
        return _host_if_loopback(urlsplit(settings.SITE_URL))
    try:
        opened = request.get_host()
    except DisallowedHost:
        return None
    return _host_if_loopback(urlsplit(f"//{opened}"))


def _host_if_loopback(parts) -> str | None:
    try:
        host = parts.hostname
    except ValueError:  # a malformed port or bracket
        return None
    return host if is_loopback(host) else None


def phones_warning(request) -> str | None:
    """The warning that pages and printouts with QR codes or links for phones show when
    those point at an address phones cannot reach (``unreachable_host``), translated,
    e.g. "Diese QR-Codes und Links zeigen auf 127.0.0.1: …"; ``None`` when they can."""
    host = unreachable_host(request)
    if host is None:
        return None
    try:
        port = urlsplit(settings.SITE_URL or f"//{request.get_host()}").port
    except ValueError:
        port = None
    example = f"http://192.168.1.20{f':{port}' if port else ''}/"
    return _(
        "These QR codes and links point to %(host)s: phones cannot reach this address. "
        "Open the page by the laptop's network address (e.g. %(example)s)."
    ) % {"host": host, "example": example}


def phone_reach(request) -> dict:
    """Context processor: ``phones_unreachable``, the ``phones_warning`` of the page
    (``None`` when phones reach its links), for ``_phones_unreachable.html``."""
    return {"phones_unreachable": phones_warning(request)}
