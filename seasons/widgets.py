"""The season ranking as a widget for a frame on the club's own website (issue 28):
shown where both the club's page and its rankings are public."""

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from base.csp import frameable
from base.links import absolute_url
from clubs.models import Club
from seasons.models import Season
from seasons.standings import settings_of
from seasons.tables import per_game_text
from seasons.views import ranking_tables

WIDGET_ROWS = 10
"""The most players a ranking widget lists (the first of the table)."""


@require_safe
@frameable
def ranking_widget(request, slug):
    """Widget: the ranking of the season that holds today (Vienna; none: the all-time
    ranking), one table (``?table=`` a game's variant or ``points``; else the first the
    club keeps), its first ``WIDGET_ROWS`` players with rank and figure (tournament
    points, or Bummerl per game). 404 unless the club's page and its rankings are public."""
    club = Club.objects.filter(slug=slug, public_page=True, ranking_settings__public=True).first()
    if club is None:
        raise Http404
    today = timezone.localdate()
    season = Season.objects.filter(club=club, first_day__lte=today, last_day__gte=today).first()
    tables = ranking_tables(club, season, settings_of(club), link_players=False)
    chosen = request.GET.get("table")
    current = next((t for t in tables if t[0] == chosen), tables[0] if tables else None)
    rows = []
    if current is not None:
        code, _label, table = current
        for record in list(table.data)[:WIDGET_ROWS]:
            figure = record.points if code == "points" else per_game_text(record)
            rows.append({"rank": record.rank, "name": record.name, "figure": figure})
    context = {
        "club": club,
        "title": season.name if season else _("All-time ranking"),
        "table": current[1] if current else "",
        "points": current is not None and current[0] == "points",
        "rows": rows,
        "club_url": absolute_url(request, reverse("club_page", kwargs={"slug": club.slug})),
    }
    return render(request, "widgets/ranking.html", context)
