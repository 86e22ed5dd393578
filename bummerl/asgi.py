"""The push server (README "Deployment"): ``uvicorn bummerl.asgi:application``, beside
gunicorn, answers as the site does, with the site's settings, routes and middleware, and
holds a sheet's version request until the sheet changes
(``scoring.views.live.held_version``, ``base.push``). The proxy sends it only the
version paths (``deploy/Caddyfile``)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
django.setup(set_prefix=False)

from scoring.views.live import PushServer  # noqa: E402

application = PushServer()
