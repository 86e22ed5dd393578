"""A club's seasons and rankings under ``c/<slug>/seasons/`` (namespace ``seasons``)."""

from django.urls import path

from seasons import views

app_name = "seasons"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.season_save, name="new"),
    path("settings/", views.settings_save, name="settings"),
    path("all/", views.season_ranking, name="all_time"),
    path("all/print.pdf", views.season_print, name="all_time_print"),
    path("<id:season_id>/", views.season_ranking, name="ranking"),
    path("<id:season_id>/edit/", views.season_save, name="edit"),
    path("<id:season_id>/print.pdf", views.season_print, name="print"),
]
