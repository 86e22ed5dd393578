"""The push server (README "Deployment"): ``uvicorn bummerl.asgi:application``, beside
gunicorn, answers as the site does, with the site's settings, routes and middleware, and
holds a sheet's version request until the sheet changes
(``scoring.views.live.held_version``, ``base.push``). The proxy sends it only the
version paths (``deploy/Caddyfile``)."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
django.setup(set_prefix=False)

from django.core import signals  # noqa: E402
from django.core.cache import close_caches  # noqa: E402
from django.core.handlers.base import reset_urlconf  # noqa: E402
from django.db import close_old_connections, reset_queries  # noqa: E402

from bummerl.logs import redact_handlers  # noqa: E402
from scoring.views.live import PushServer  # noqa: E402

# uvicorn's own lines (its errors, and its access lines where they are on) keep no
# private link's token, as the site's (bummerl.logs).
redact_handlers("uvicorn", "uvicorn.error", "uvicorn.access")

# A request's start and end tend the connections, queries and address table of the
# thread that serves it; here no request touches them in the event loop's thread, only
# in the read's pool thread, which tends its own (scoring.views.live._site_answer).
# Left connected, each would cost every request two hops to another thread.
signals.request_started.disconnect(reset_queries)
signals.request_started.disconnect(close_old_connections)
signals.request_finished.disconnect(close_old_connections)
signals.request_finished.disconnect(close_caches)
signals.request_finished.disconnect(reset_urlconf)

application = PushServer()
gc.freeze()  # what the start made lives as long as the server: no collection walks it
