"""The figures of a season (or of all seasons) as ranking rows (RULES.md 7), reads only.

Sheets count by the day they were opened, tournaments by the day they start
(``seasons.days``). Sheets that are a tournament's match (``reports_result``) count
in the tournament, not among the evenings. Each game (variant of ``scoring``) is
tallied apart: a fixed number of queries, and 4 more per tournament, however
many players and sheets: the sheets' figures are summed in the database from the
figures each seat keeps (``scoring.models.Seat``).
"""

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Count, Sum
from django.db.models.functions import TruncDate

from base.text import german_key
from clubs.models import Club
from scoring.models import Seat, Sheet, Variant
from seasons import ranking
from seasons.days import CLUB_ZONE, moments
from seasons.models import RankingSettings
from seasons.places import player_places
from tournaments.models import Tournament


@dataclass(frozen=True)
class Game:
    """One game's rows of the season, unranked: ``variant`` code and ``label``."""

    variant: str
    label: str
    rows: list[ranking.Row]


@dataclass
class Standings:
    """A season's (``first_day``/``last_day`` None: all seasons) figures: one ``Game``
    per game played, and the tournament points rows."""

    games: list[Game] = field(default_factory=list)
    points: list[ranking.Row] = field(default_factory=list)


def club_sheets(club: Club, first_day: dt.date | None, last_day: dt.date | None):
    return Sheet.objects.filter(
        club=club, reports_result=False, **moments(first_day, last_day, "created_at")
    )


def club_tournaments(club: Club, first_day: dt.date | None, last_day: dt.date | None):
    return Tournament.objects.filter(
        club=club, **moments(first_day, last_day, "starts_at")
    ).order_by("starts_at", "id")


def game_rows(sheets) -> dict[str, list[ranking.Row]]:
    """Rows per game (variant) of the players at ``sheets``, summed in the database
    from the seats' figures (one query): evenings are the calendar days (Vienna) with a
    sheet of his in that game, sheets the sheets (one seat each)."""
    found: dict[str, list[ranking.Row]] = {}
    sums = (
        Seat.objects.filter(sheet__in=sheets)
        .values("sheet__variant", "player_id", "player__name", "player__name_key")
        .annotate(
            n_games=Sum("games"),
            n_bummerl=Sum("bummerl"),
            n_schneider=Sum("schneider"),
            n_evenings=Count(TruncDate("sheet__created_at", tzinfo=CLUB_ZONE), distinct=True),
            n_sheets=Count("sheet_id", distinct=True),
        )
        .order_by()
    )
    for s in sums:
        found.setdefault(s["sheet__variant"], []).append(
            ranking.Row(
                s["player_id"],
                s["player__name"],
                s["player__name_key"],
                evenings=s["n_evenings"],
                sheets=s["n_sheets"],
                games=s["n_games"],
                bummerl=s["n_bummerl"],
                schneider=s["n_schneider"],
            )
        )
    return found


def points_rows(tournaments, settings: RankingSettings) -> list[ranking.Row]:
    """Tournament points per player, summed over ``tournaments`` (RULES.md 7)."""
    key = settings.key_lines
    totals: dict[int, list] = {}
    for tournament in tournaments:
        places, names = player_places(tournament)
        for player_id, name in names.items():
            entry = totals.setdefault(player_id, [name, 0, 0])
            entry[1] += ranking.points_for(places.get(player_id), key, settings.participation)
            entry[2] += 1
    return [
        ranking.Row(pk, name, german_key(name), points=points, tournaments=count)
        for pk, (name, points, count) in totals.items()
    ]


def settings_of(club: Club) -> RankingSettings:
    """The club's ranking settings; the defaults (not stored) while the owner set none."""
    found = RankingSettings.objects.filter(club=club).first()
    return found if found is not None else RankingSettings(club=club)


def standings(
    club: Club,
    first_day: dt.date | None,
    last_day: dt.date | None,
    settings: RankingSettings,
    with_points: bool = True,
) -> Standings:
    """The club's standings between the two days (None: open). Queries: 1, then 1 and
    4 per tournament when ``with_points``."""
    by_game = game_rows(club_sheets(club, first_day, last_day))
    result = Standings(
        [
            Game(value, str(label), by_game[value])
            for value, label in Variant.choices
            if value in by_game
        ]
    )
    if with_points:
        result.points = points_rows(club_tournaments(club, first_day, last_day), settings)
    return result
