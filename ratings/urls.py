"""A club's rating lists under ``c/<slug>/ratings/`` (namespace ``ratings``)."""

from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.rating_list, name="list"),  # ?game=<variant>, Schnapsen without
]
