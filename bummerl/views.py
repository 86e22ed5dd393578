"""Site-wide views: what a stale tab gets when its form's CSRF token is no longer valid."""

from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import render


def csrf_failure(request, reason=""):
    """A tab left open past its session: htmx gets a full-page sign-in (never a login form
    inside a fragment) and comes back to where it was; a plain form gets a clear page."""
    if request.headers.get("HX-Request"):
        back = request.headers.get("HX-Current-URL", "/")
        response = HttpResponse(status=403)
        response["HX-Redirect"] = redirect_to_login(back).url
        return response
    return render(request, "csrf_failure.html", status=403)
