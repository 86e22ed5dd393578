"""The push server (README "Deployment"): ``uvicorn bummerl.asgi:application``, beside
gunicorn, answers the sheets' version requests as the site does and holds each one
until its sheet changes (``scoring.views.live.held_version``, ``base.push``). It serves
nothing else."""

import os

import django

# Always its own settings (only the version routes), even where the environment names
# the site's for its other commands.
os.environ["DJANGO_SETTINGS_MODULE"] = "bummerl.push_settings"
django.setup(set_prefix=False)

from scoring.views.live import PushServer  # noqa: E402

application = PushServer()
