"""A club's rating list per variant, and the ratings on a player's page.

The list is read as the club's rankings are: by its members, and by anyone when the
club made its ranking pages public (``seasons.models.RankingSettings.public``; the
rules of ``seasons.access.ranking_access``). Players with fewer than
``settings.RATING_MIN_GAMES`` rated games are listed apart, below, without a place.
"""

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_safe

from clubs.models import Club, Player
from ratings import elo, services
from ratings.chart import rating_chart
from scoring.models import Variant
from seasons.access import ranking_access


@dataclass(frozen=True)
class Row:
    """One line of the list: ``place`` None for a player below the minimum."""

    place: int | None
    player_id: int
    name: str
    rating: int
    games: int


def list_rows(club: Club, variant: str, minimum: int) -> tuple[list[Row], list[Row]]:
    """(ranked, below the minimum) of the club's rating list: by the shown rating, ties
    sharing a place in German name order (``elo.shared_places``). 2 queries."""
    ratings = services.rating_list(club, variant)
    players = {
        pk: (name, key)
        for pk, name, key in Player.objects.filter(
            club=club, pk__in=[r.player_id for r in ratings]
        ).values_list("pk", "name", "name_key")
    }
    # merged away players are left out until the re-rating runs
    shown = sorted(
        ((round(r.value), r.games, r.player_id) for r in ratings if r.player_id in players),
        key=lambda r: (-r[0], players[r[2]][1], r[2]),
    )
    kept = [r for r in shown if r[1] >= minimum]
    places = elo.shared_places([rating for rating, _games, _pk in kept])
    ranked = [
        Row(place, pk, players[pk][0], rating, games)
        for place, (rating, games, pk) in zip(places, kept, strict=True)
    ]
    below = [
        Row(None, pk, players[pk][0], rating, games)
        for rating, games, pk in shown
        if games < minimum
    ]
    return ranked, below


@require_safe
def rating_list(request: HttpRequest, slug: str) -> HttpResponse:
    """The list of one game (``?game=dreierschnapsen``; two-player Schnapsen without)."""
    variant = request.GET.get("game", Variant.SCHNAPSEN)
    if variant not in Variant.values:
        raise Http404
    found = ranking_access(request, slug)
    if found is None:
        return redirect_to_login(request.get_full_path())
    club, access = found
    minimum = settings.RATING_MIN_GAMES
    ranked, below = list_rows(club, variant, minimum)
    context = {
        "club": club,
        "member": access is not None,
        "variant": variant,
        "variant_label": Variant(variant).label,
        "variants": Variant.choices,
        "ranked": ranked,
        "below": below,
        "min_games": minimum,
        "even": round(elo.K / 2),
        "start": round(elo.START),
    }
    return render(request, "ratings/list.html", context)


def player_figures(club: Club, player: Player) -> dict:
    """``{"ratings": [...]}`` for the player's page: per variant he was rated in, his
    rating, rated games and the chart of his rating after each game. 1 query."""
    parts = []
    for variant, points in services.player_history(club, player.pk).items():
        label = str(Variant(variant).label)
        values = [value for _when, value in points]
        dates = [date_format(timezone.localtime(points[i][0]), "d.m.Y") for i in (0, -1)]
        chart = rating_chart(values, dates, label, elo.START)
        parts.append(
            {
                "variant": variant,
                "label": label,
                "rating": round(values[-1]),
                "games": len(values),
                "chart": mark_safe(chart),  # built from numbers and escaped labels only
            }
        )
    return {"ratings": parts}
