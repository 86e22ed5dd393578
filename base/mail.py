"""The site's mail: whether it sends any, to which contacts, and ``send``, the one way
every mail of the site goes out (the password reset by mail, ``clubs.accounts``; the
mails to registered players, ``tournaments.notices``).

Mail goes out with a mail server named (``EMAIL_HOST``, from ``DJANGO_EMAIL_HOST``) or
a mail backend other than Django's SMTP one (the test run's in-memory backend), and the
site's address for the mails' links (``links.site_base``, or a request's checked host).

Each mail carries the site's host in its ``Message-ID`` (``<…@bummerl.example.org>``,
never the machine's name or ``localhost``) and comes from ``DJANGO_EMAIL_FROM`` when set,
else from ``Bummerl <bummerl@HOST>`` on the same host."""

from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email

from base.links import site_base

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"


def mail_on() -> bool:
    """Whether mails to players go out: a mail server named (``EMAIL_HOST``) or a mail
    backend other than Django's SMTP one, and an address for their links
    (``site_base``)."""
    server = bool(settings.EMAIL_HOST) or settings.EMAIL_BACKEND != SMTP_BACKEND
    return server and site_base() is not None


def mail_address(contact: str) -> str | None:
    """``contact`` (a registration's phone or e-mail) when it is an e-mail address by
    Django's ``EmailValidator``, else ``None``."""
    contact = (contact or "").strip()
    try:
        validate_email(contact)
    except ValidationError:
        return None
    return contact


def mail_host(host: str | None = None) -> str:
    """The host a mail of the site names as its own (Message-ID, sender): ``host`` (a
    checked ``host[:port]`` a request came by) when given, else the host of ``site_base``
    (``DJANGO_SITE_URL``, else the first host ``DJANGO_ALLOWED_HOSTS`` names), without
    the port; an IPv6 address in brackets. ``LookupError`` when no host is known (any
    host allowed and no site address: no mail is sent then)."""
    netloc = host or urlsplit(site_base() or "").netloc
    name = urlsplit(f"//{netloc}").hostname if netloc else None
    if not name:
        raise LookupError("no site address for a mail: set DJANGO_SITE_URL")
    return f"[{name}]" if ":" in name else name


def sender(host: str) -> str:
    """``DJANGO_EMAIL_FROM`` when set, else "Bummerl <bummerl@HOST>" (``host`` as
    ``mail_host`` gives it)."""
    return settings.DEFAULT_FROM_EMAIL or f"Bummerl <bummerl@{host}>"


def send(subject: str, body: str, to: list[str], host: str | None = None) -> None:
    """Send one plain-text mail of the site to ``to``: its sender ``sender``, its
    Message-ID on the site's host (``mail_host(host)``). The subject is one line."""
    domain = mail_host(host)
    EmailMessage(
        " ".join(subject.split()),
        body,
        from_email=sender(domain),
        to=to,
        headers={"Message-ID": make_msgid(domain=domain)},
    ).send()
