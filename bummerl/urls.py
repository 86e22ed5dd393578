from django.contrib import admin
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from clubs import accounts as site_views
from clubs import category_pages as category_views
from clubs import members as member_views
from clubs import site_pages
from clubs import views as club_views
from seasons import widgets as season_widgets
from tournaments import urls as tournament_urls
from tournaments import views as tournament_views


def healthz(request):
    """A trivial view: for load balancers, and the yardstick of ``make bench``."""
    return HttpResponse("ok", content_type="text/plain")


def favicon(request):
    """Browsers ask for /favicon.ico; the icon is a hashed static file (looked up late,
    since the manifest exists only after collectstatic)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon),
    path("", club_views.home, name="home"),
    # Without a mail server a forgotten password is reset by a link from the club's owner.
    path("accounts/password_reset/", site_views.password_reset, name="password_reset"),
    path(
        "accounts/password_reset/done/",
        site_views.password_reset_done,
        name="password_reset_done",
    ),
    # A reset link: an owner's works only while the rule that allowed it holds.
    path(
        "accounts/reset/<uidb64>/<token>/",
        site_views.ResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("accounts/login/", site_views.SignInView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    # the site administrator's page: a backup download, a reset link for any account
    path("setup/", site_pages.setup, name="setup"),
    path("site/", site_pages.site_admin, name="site_admin"),
    path("site/backup/", site_pages.site_backup, name="site_backup"),
    path("site/reset/", site_pages.site_reset, name="site_reset"),
    path("clubs/new/", member_views.club_new, name="club_new"),
    path("j/<str:token>/", member_views.join, name="join"),
    path("", include("scoring.urls")),
    path("c/<slug:slug>/members/", member_views.members, name="members"),
    path(
        "c/<slug:slug>/members/<id:membership_id>/role/",
        member_views.member_role,
        name="member_role",
    ),
    path(
        "c/<slug:slug>/members/<id:membership_id>/remove/",
        member_views.member_remove,
        name="member_remove",
    ),
    path(
        "c/<slug:slug>/members/<id:membership_id>/reset/",
        member_views.member_reset,
        name="member_reset",
    ),
    path(
        "c/<slug:slug>/members/<id:membership_id>/unlock/",
        member_views.member_unlock,
        name="member_unlock",
    ),
    path(
        "c/<slug:slug>/members/<id:membership_id>/email/",
        member_views.member_email,
        name="member_email",
    ),
    path("c/<slug:slug>/rename/", member_views.club_rename, name="club_rename"),
    path(
        "c/<slug:slug>/invitations/<id:invitation_id>/revoke/",
        member_views.invitation_revoke,
        name="invitation_revoke",
    ),
    path("c/<slug:slug>/players/", club_views.players, name="players"),
    path("c/<slug:slug>/players/search/", club_views.player_search, name="player_search"),
    path("c/<slug:slug>/players/<id:player_id>/", club_views.player, name="player"),
    path("c/<slug:slug>/players/<id:player_id>/rename/", club_views.rename, name="player_rename"),
    path("c/<slug:slug>/players/<id:player_id>/merge/", club_views.merge, name="player_merge"),
    path("c/<slug:slug>/history/", club_views.club_history, name="club_history"),
    path("c/<slug:slug>/tournaments/", include(tournament_urls.club_patterns)),
    path("c/<slug:slug>/seasons/", include("seasons.urls")),
    path("", include("cups.urls")),  # bodies, cups, the public cup page (issue 30)
    path("c/<slug:slug>/ratings/", include("ratings.urls")),
    path("m/<str:token>/", tournament_views.match_link, name="match_link"),
    path("m/<str:token>/sheet/", tournament_views.match_sheet, name="match_sheet"),
    path("s/<str:token>/", tournament_views.side_link, name="side_link"),
    # A player's personal link for the night (a signed token, never a public token).
    path("p/me/<str:token>/", tournament_views.personal, name="personal"),
    # A registration's private link for an announced night (see, change, cancel).
    path("p/r/<str:token>/", tournament_views.registration_link, name="registration_link"),
    # that registered player's calendar (the club's nights he stands registered for),
    # under a token of its own: the feed's address changes and cancels nothing
    path(
        "p/cal/<str:token>/calendar.ics",
        tournament_views.registration_calendar,
        name="registration_calendar",
    ),
    # the feed's first address, under the registration's own link: gone
    path("p/r/<str:token>/calendar.ics", tournament_views.feed_moved, name="feed_moved"),
    path("p/<public:token>/", tournament_views.bracket, name="bracket"),
    path("p/<public:token>/screen/", tournament_views.room_screen, name="room_screen"),
    path("p/<public:token>/", include(tournament_urls.public_patterns)),
    path("c/<slug:slug>/categories/", category_views.categories, name="categories"),
    path("c/<slug:slug>/public-page/", member_views.club_face, name="club_face"),
    # the club's public page, JSON, calendar, colour and widgets (Club.public_page)
    path("k/<slug:slug>/", include(tournament_urls.face_patterns)),
    path("k/<slug:slug>/widget/ranking/", season_widgets.ranking_widget, name="ranking_widget"),
]
