"""Cup pages (namespace ``cups``): the bodies' and cups' admin pages under
``bodies/``, the join link, the public cup page and its rating list under
``cup/<body>/<cup>/``, and the organiser's ticks under his night's address."""

from django.urls import path

from cups import consent, export, public, views

app_name = "cups"

urlpatterns = [
    path("bodies/", views.bodies, name="bodies"),
    path("bodies/join/<str:token>/", views.join, name="join"),
    path(
        "bodies/invitations/<id:invitation_id>/",
        consent.answer_invitation,
        name="answer_invitation",
    ),
    path("bodies/<slug:slug>/", views.body, name="body"),
    path("bodies/<slug:slug>/history/", views.history, name="history"),
    path("bodies/<slug:slug>/admins/", views.add_admin, name="add_admin"),
    path("bodies/<slug:slug>/join-link/", views.renew_join_link, name="renew_join_link"),
    path("bodies/<slug:slug>/clubs/<id:club_id>/remove/", views.remove_club, name="remove_club"),
    path("bodies/<slug:slug>/cups/", views.new_cup, name="new_cup"),
    path("bodies/<slug:slug>/persons/", views.links, name="links"),
    path("bodies/<slug:slug>/persons/link/", views.link, name="link"),
    path("bodies/<slug:slug>/persons/<id:link_id>/undo/", views.unlink, name="unlink"),
    path("bodies/<slug:slug>/cups/<slug:cup_slug>/", views.cup_admin, name="cup_admin"),
    path(
        "bodies/<slug:slug>/cups/<slug:cup_slug>/settings/",
        views.cup_settings,
        name="cup_settings",
    ),
    path("bodies/<slug:slug>/cups/<slug:cup_slug>/nights/", views.add_night, name="add_night"),
    path(
        "bodies/<slug:slug>/cups/<slug:cup_slug>/nights/<id:night_id>/remove/",
        views.remove_night,
        name="remove_night",
    ),
    path("bodies/<slug:slug>/cups/<slug:cup_slug>/invite/", views.invite, name="invite"),
    path("c/<slug:slug>/tournaments/<id:tournament_id>/cups/", views.tick, name="tick"),
    path(
        "c/<slug:slug>/tournaments/<id:tournament_id>/cups/<id:cup_id>/final/",
        consent.answer_final,
        name="answer_final",
    ),
    path("cup/<slug:slug>/<slug:cup_slug>/", public.cup, name="cup"),
    path("cup/<slug:slug>/<slug:cup_slug>/print.pdf", public.cup_print, name="cup_print"),
    path("cup/<slug:slug>/<slug:cup_slug>/export.json", export.cup_json, name="cup_json"),
    path("cup/<slug:slug>/<slug:cup_slug>/ratings/", public.cup_ratings, name="cup_ratings"),
]
