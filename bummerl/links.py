"""Whole addresses for links that leave the page: QR codes, links handed over, mails.

``settings.SITE_URL`` (``DJANGO_SITE_URL``, e.g. ``https://bummerl.example.org``) is the
site's address when set, and every such link starts with it, whatever Host a request
named. Unset, a link starts with the address the page was opened by: on the pub laptop
(``make run``, any host allowed) that is the laptop's network address the phones reach;
on a club's server the Host was checked against ``ALLOWED_HOSTS`` (Django refuses any
other with 400), which then may not be ``*`` (settings refuse to start so).

A mail goes to someone other than the visitor, so its link may never come from a Host
the visitor chose: ``mail_base`` is ``None`` where the host is unchecked.
"""

from urllib.parse import urlsplit

from django.conf import settings


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
