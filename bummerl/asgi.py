"""The push server (README "Deployment"): ``uvicorn bummerl.asgi:application``, beside
gunicorn, answers the sheets' version requests and holds each one until its sheet
changes (``scoring.views.live.held_version``, ``base.push``). It serves nothing else."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.push_settings")
application = get_asgi_application()
