"""The site's URLs plus a view that fails and one that answers 500 itself, for the tests of
error logging."""

from django.http import HttpResponse
from django.urls import path

from bummerl.urls import urlpatterns as site_patterns


def failing(request):
    raise RuntimeError("the test view fails on purpose")


def answers_500(request):
    return HttpResponse("kaputt", status=500)


urlpatterns = [
    path("test-fails/", failing),
    path("test-answers-500/", answers_500),
    *site_patterns,
]
