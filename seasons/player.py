"""A player's statistics for his page (``clubs.views.PLAYER_FIGURES``): per game
(never mixed) his Bummerl per game over time as a chart, his best and worst evenings
and the head to head against each regular partner; and his tournaments with place and
points. Members only: the player's page is a club page."""

from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from scoring.models import Sheet
from scoring.tally import tally, variants_played
from seasons import ranking
from seasons.charts import line_chart
from seasons.places import player_places
from seasons.standings import settings_of
from tournaments.models import Tournament

REGULAR_PARTNER = 3
"""Tables played together that make a regular partner (head to head)."""
SHOWN_EVENINGS = 3
"""Best and worst evenings shown."""


@dataclass(frozen=True)
class HeadToHead:
    """At the tables ``name`` and the player shared: ``tables``, ``games``, and the
    Bummerl each received there (``mine``, ``theirs``)."""

    player_id: int
    name: str
    tables: int
    games: int
    mine: int
    theirs: int


def _ratio(evening: dict) -> Fraction:
    return Fraction(evening["bummerl"], evening["games"])


def game_statistics(sheets, variant: str, label: str, player: Player) -> dict | None:
    """One game's statistics of ``player`` over ``sheets`` (his sheets of that game)."""
    rows = tally(sheets.filter(variant=variant).order_by("created_at", "id"))
    mine = next((r for r in rows if r.player_id == player.pk), None)
    if mine is None:
        return None
    played = [e for e in mine.evenings if e["games"]]
    values, bummerl, games = [], 0, 0
    for evening in played:
        bummerl += evening["bummerl"]
        games += evening["games"]
        values.append(bummerl / games)
    labels = [date_format(e["date"], "d.m.Y") for e in played]
    chart = line_chart(values, labels, _("Bummerl per game over time: %(game)s") % {"game": label})
    by_ratio = sorted(played, key=lambda e: (_ratio(e), -e["games"], e["date"]))
    best = by_ratio[:SHOWN_EVENINGS]
    worst = [e for e in reversed(by_ratio) if e not in best][:SHOWN_EVENINGS]
    my_bummerl = {e["sheet"].pk: e["bummerl"] for e in mine.evenings}
    partners = []
    for other in rows:
        if other.player_id == player.pk or other.sheets < REGULAR_PARTNER:
            continue
        shared = [e["sheet"].pk for e in other.evenings]
        partners.append(
            HeadToHead(
                other.player_id,
                other.name,
                other.sheets,
                other.games,
                sum(my_bummerl.get(pk, 0) for pk in shared),
                other.bummerl,
            )
        )
    partners.sort(key=lambda h: (-h.tables, h.name.casefold(), h.player_id))
    return {
        "variant": variant,
        "label": label,
        "chart": mark_safe(chart),  # built from numbers and escaped labels only
        "per_game": values[-1] if values else None,
        "best": best,
        "worst": worst,
        "partners": partners,
    }


def tournament_results(club: Club, player: Player) -> list[dict]:
    """His tournaments, latest first: ``tournament``, ``places`` (``(first, last)`` or
    None while not placed) and ``points`` by the club's key. 1 query, then 4 each."""
    settings = settings_of(club)
    found = []
    for t in Tournament.objects.filter(club=club, card_set__player=player).distinct():
        places, _names = player_places(t)
        mine = places.get(player.pk)
        found.append(
            {
                "tournament": t,
                "places": mine,
                "points": ranking.points_for(mine, settings.key_lines, settings.participation),
            }
        )
    return found


def player_figures(club: Club, player: Player) -> dict:
    """``{"statistics": [per game …], "tournament_results": [...]}`` for the player page."""
    sheets = Sheet.objects.filter(club=club, reports_result=False, seats__player=player)
    statistics = []
    for variant, label, _count in variants_played(sheets):
        part = game_statistics(sheets, variant, str(label), player)
        if part is not None:
            statistics.append(part)
    return {"statistics": statistics, "tournament_results": tournament_results(club, player)}
