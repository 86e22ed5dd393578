"""The push server's settings (``bummerl.asgi``): the site's, with only the sheets'
version addresses (``bummerl.push_urls``) and no middleware: a held request costs no
thread while it waits, and an answer no thread hop but the one that reads it."""

from bummerl.settings import *  # noqa: F403

ROOT_URLCONF = "bummerl.push_urls"
# What the access needs of the site's middleware: scoring.views.live._access_in_pool.
MIDDLEWARE: list[str] = []  # type: ignore[no-redef]
