"""``/healthz`` for a load balancer, a monitor or systemd: is the site able to serve?

It answers before the Host header is checked (a monitor asks by IP address or
``localhost``, which ``ALLOWED_HOSTS`` rightly refuses for pages) and over plain http
(``SECURE_REDIRECT_EXEMPT``). It checks the database with one trivial query and the
task queue's Redis broker when one is set (``base.tasks.broker_check``): 200 "ok", or
503 with one line per failing part ("database: OperationalError"). The body is plain
text, never a page, and says nothing about the site beyond that.
"""

from django.db import connection
from django.http import HttpResponse

from base import tasks

PATH = "/healthz"


def problems() -> list[str]:
    """What fails now, one short line per part ("database: connection refused");
    empty when all is well."""
    found = []
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any driver's error: the database cannot serve
        found.append(f"database: {type(error).__name__}")
    broker = tasks.broker_check()
    if broker:
        found.append(f"task broker: {broker}")
    return found


class HealthMiddleware:
    """Answers ``/healthz`` itself (GET or HEAD), before the middleware that reads the
    Host header; every other request goes on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path != PATH or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        found = problems()
        body = "\n".join(found) if found else "ok"
        response = HttpResponse(body, content_type="text/plain", status=503 if found else 200)
        response["Cache-Control"] = "no-store"
        return response
