"""Whether the site sends mail, and to which contacts: a mail server named
(``EMAIL_HOST``, from ``DJANGO_EMAIL_HOST``) or a mail backend other than Django's SMTP
one (the test run's in-memory backend), and the site's address for the mails' links
(``links.site_base``). Read by the mails to registered players (``tournaments.notices``)
and by the writers that queue them."""

from django.conf import settings
from django.core.exceptions import ValidationError
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
