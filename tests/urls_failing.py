"""The site's URLs plus one view that fails, for the tests of error logging."""

from django.urls import path

from bummerl.urls import urlpatterns as site_patterns


def failing(request):
    raise RuntimeError("the test view fails on purpose")


urlpatterns = [path("test-fails/", failing), *site_patterns]
