"""The push server's settings (``bummerl.asgi``): the site's, with only the sheets'
version addresses (``bummerl.push_urls``) and only the middleware that their access
needs, all of it async: a held request costs no thread while it waits."""

from bummerl.settings import *  # noqa: F403

ROOT_URLCONF = "bummerl.push_urls"
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "bummerl.middleware.SignInMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
