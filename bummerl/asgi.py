"""The push server (README "Deployment"): ``uvicorn bummerl.asgi:application``, beside
gunicorn, answers the sheets' version requests and holds each one until its sheet
changes (``scoring.views.live.held_version``, ``base.push``). It serves nothing else."""

import os

from django.core.asgi import get_asgi_application

# Always its own settings (only the version routes, no middleware), even where
# the environment names the site's for its other commands.
os.environ["DJANGO_SETTINGS_MODULE"] = "bummerl.push_settings"
application = get_asgi_application()
