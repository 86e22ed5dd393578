"""A player's statistics for his page (``clubs.views.PLAYER_FIGURES``): per game
(never mixed) his Bummerl per game over time as a chart, his best and worst evenings
(*Abende*: calendar days, all his tables of the day together, as the rankings count
them) and the head to head against each regular partner; and his tournaments with place and
points. Members only: the player's page is a club page."""

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from django.utils.formats import date_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from base.text import german_key
from clubs.models import Club, Player
from scoring.models import Seat, Sheet, Variant
from scoring.tally import club_day
from seasons import ranking
from seasons.charts import line_chart
from seasons.places import player_places
from seasons.standings import settings_of
from tournaments.models import Tournament

REGULAR_PARTNER = 3
"""Tables played together that make a regular partner (head to head)."""
SHOWN_EVENINGS = 3
"""Best and worst evenings (calendar days) shown."""


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


def evenings_of(mine: list[dict]) -> list[dict]:
    """The player's evenings from his seats (``mine``, in time order): one dict per
    calendar day (``club_day``) in time order, ``date`` (a ``date``), ``sheets`` (the
    number of his tables that day), ``sheet_id`` (the first of them), ``games`` and
    ``bummerl`` summed over them."""
    found: dict[dt.date, dict] = {}
    for seat in mine:
        day = club_day(seat["date"])
        evening = found.setdefault(
            day, {"date": day, "sheets": 0, "sheet_id": seat["sheet_id"], "games": 0, "bummerl": 0}
        )
        evening["sheets"] += 1
        evening["games"] += seat["games"]
        evening["bummerl"] += seat["bummerl"]
    return list(found.values())


def game_statistics(mine: list[dict], others: list[dict], label: str) -> dict:
    """One game's statistics from the player's seats (``mine``: ``sheet_id``, ``date``,
    ``games``, ``bummerl``, in time order) and the other seats at those sheets
    (``others``: ``sheet_id``, ``player_id``, ``name``, ``bummerl``, ``games``). The
    chart has a point per evening (``evenings_of``) with a finished game; ``best`` and
    ``worst`` are such evenings, at most ``SHOWN_EVENINGS`` each."""
    played = [e for e in evenings_of(mine) if e["games"]]
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
    my_bummerl = {e["sheet_id"]: e["bummerl"] for e in mine}
    together: dict[int, list[dict]] = {}
    for seat in others:
        together.setdefault(seat["player_id"], []).append(seat)
    partners = [
        HeadToHead(
            pk,
            seats[0]["name"],
            len(seats),
            sum(s["games"] for s in seats),
            sum(my_bummerl[s["sheet_id"]] for s in seats),
            sum(s["bummerl"] for s in seats),
        )
        for pk, seats in together.items()
        if len(seats) >= REGULAR_PARTNER
    ]
    partners.sort(key=lambda h: (-h.tables, german_key(h.name), h.player_id))
    return {
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
    """``{"statistics": [per game …], "tournament_results": [...]}`` for the player page,
    from the figures the seats keep: 2 queries, then those of ``tournament_results``."""
    sheets = Sheet.objects.filter(club=club, reports_result=False, seats__player=player)
    mine: dict[str, list[dict]] = {}
    for seat in (
        Seat.objects.filter(player=player, sheet__in=sheets)
        .values("sheet_id", "sheet__variant", "sheet__created_at", "games", "bummerl")
        .order_by("sheet__created_at", "sheet_id")
    ):
        mine.setdefault(seat["sheet__variant"], []).append(
            {
                "sheet_id": seat["sheet_id"],
                "date": seat["sheet__created_at"],
                "games": seat["games"],
                "bummerl": seat["bummerl"],
            }
        )
    others: dict[str, list[dict]] = {}
    for other in (
        Seat.objects.filter(sheet__in=sheets)
        .exclude(player=player)
        .values("sheet_id", "sheet__variant", "player_id", "player__name", "games", "bummerl")
        .order_by()
    ):
        others.setdefault(other["sheet__variant"], []).append(
            {**other, "name": other["player__name"]}
        )
    statistics = [
        {"variant": value, **game_statistics(mine[value], others.get(value, []), str(label))}
        for value, label in Variant.choices
        if value in mine
    ]
    return {"statistics": statistics, "tournament_results": tournament_results(club, player)}
