"""The push server's addresses: a sheet's version by account and by private link, at
the same paths as on the site (``scoring.urls``), so that the proxy sends them here
(``deploy/Caddyfile``). The sign-in page is named for the 401's ``Bummerl-Sign-In``
(the site's own address; nothing is served there). Every other path: a plain 404."""

from django.http import HttpResponseNotFound
from django.urls import include, path

from scoring.views.live import held_version


def not_here(request, exception=None):
    return HttpResponseNotFound("Not found", content_type="text/plain")


version = [path("version/", held_version, name="version")]

urlpatterns = [
    path("tables/<id:pk>/", include((version, "sheet"))),
    path("e/<str:token>/", include((version, "entry"))),
    path("accounts/login/", not_here, name="login"),
]

handler404 = not_here
