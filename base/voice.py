"""The messages of Django and of the packages the site uses whose own German speaks
formally (*Sie*): listed here so that ``makemessages`` keeps their translations in the
site's voice (*du*) in ``locale/de``, which Django reads before the packages' own.
``tests/bummerl/test_voice.py`` finds every such message of the installed apps and
holds each to the site's voice; the administration pages (``django.contrib.admin``,
for the server's superusers only) keep Django's German."""

from django.utils.translation import gettext_noop

DJANGO_MESSAGES = (
    gettext_noop("No file was submitted. Check the encoding type on the form."),
    gettext_noop("Please either submit a file or check the clear checkbox, not both."),
    gettext_noop(
        "ManagementForm data is missing or has been tampered with. Missing fields: "
        "%(field_names)s. You may need to file a bug report if the issue persists."
    ),
    gettext_noop(
        "You are seeing this message because this HTTPS site requires a “Referer header” "
        "to be sent by your web browser, but none was sent. This header is required for "
        "security reasons, to ensure that your browser is not being hijacked by third "
        "parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable “Referer” headers, please "
        "re-enable them, at least for this site, or for HTTPS connections, or for "
        "“same-origin” requests."
    ),
    gettext_noop(
        'If you are using the <meta name="referrer" content="no-referrer"> tag or '
        "including the “Referrer-Policy: no-referrer” header, please remove them. The CSRF "
        "protection requires the “Referer” header to do strict referer checking. If "
        "you’re concerned about privacy, use alternatives like "
        '<a rel="noreferrer" …> for links to third-party sites.'
    ),
    gettext_noop(
        "You are seeing this message because this site requires a CSRF cookie when "
        "submitting forms. This cookie is required for security reasons, to ensure that "
        "your browser is not being hijacked by third parties."
    ),
    gettext_noop(
        "If you have configured your browser to disable cookies, please re-enable them, "
        "at least for this site, or for “same-origin” requests."
    ),
    gettext_noop("Account locked: too many login attempts. Please try again later."),
    gettext_noop(
        "Account locked: too many login attempts. Contact an admin to unlock your account."
    ),
    gettext_noop("Please install croniter to enable cron expressions"),
    gettext_noop("[Press q to quit]"),
)
