"""The cup as JSON (``cup/<body>/<cup>/export.json``, public as the cup page): everything an
independent checker needs to derive every line of the standings and every rating of
the cup's rating list from RULES.md 8 and 9 alone, and the lines and ratings the site
derived, to compare. ``docs/cup-export.md`` describes each field.

It shows what the public page shows: a cup player who played for a club that keeps its
lists to itself is named "Player of a private club", without clubs (``cups.public``);
his results and games are there under his key, so that every other line can be
checked.
"""

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_safe

from cups.models import Cup
from cups.public import PRIVATE, cup_tables, masked, public_cup
from cups.ratings import cup_club_games, identities, rating_rows
from cups.reading import CupData, cup_data, night_label
from cups.standings import Line
from ratings import elo
from ratings.services import VARIANTS

FORMAT = "bummerl-cup"
VERSION = 1


def _key(cup: Cup) -> list[list[int]]:
    return [[line.first, line.last, line.points] for line in cup.key_lines]


def _line(line: Line, night_ids: Sequence[int]) -> dict[str, Any]:
    return {
        "rank": line.rank,
        "cup_player": line.entrant.key,
        "cells": [
            {"night": night, "points": cell.points, "struck": cell.dropped}
            for night, cell in zip(night_ids, line.cells, strict=True)
        ],
        "played": line.played,
        "total": line.total,
    }


def _ratings(cup: Cup) -> dict[str, Any]:
    """Per variant the games as cup players play them, in the order they were decided,
    and the list the site rated from them."""
    games = cup_club_games(cup)
    minimum = settings.RATING_MIN_GAMES
    found: dict[str, Any] = {}
    for variant in VARIANTS:
        shown = games[variant]
        if not shown:
            continue
        who = identities(cup.body_id, {p for g in shown for p in g.participants})
        known = [g for g in shown if all(p in who.of for p in g.participants)]
        ranked, below = rating_rows(known, who, minimum)
        found[variant] = {
            "games": [
                {
                    "time": game.time.isoformat(),
                    "ref": game.ref,
                    "sides": [[who.of[p] for p in side] for side in game.sides],
                    "places": list(game.places),
                }
                for game in elo.ordered(known)
            ],
            "list": [
                {
                    "place": row.place,
                    "cup_player": row.key,
                    "rating": row.rating,
                    "games": row.games,
                }
                for row in [*ranked, *below]
            ],
        }
    return found


def cup_document(data: CupData) -> dict[str, Any]:
    """The cup's JSON document (see the module's words)."""
    cup = data.cup
    night_ids = data.night_ids
    final = cup.final if cup.final_accepted else None
    players: dict[str, dict[str, Any]] = {}
    for result in data.results:
        players.setdefault(result.entrant, {"club_players": set()})["club_players"].add(
            result.player
        )
    cup_players = []
    for key, entrant in sorted(data.entrants.items()):
        cup_players.append(
            {
                "key": key,
                "name": str(PRIVATE) if entrant.private else entrant.name,
                "name_key": "" if entrant.private else entrant.name_key,
                "clubs": [] if entrant.private else list(entrant.clubs),
                "categories": sorted(entrant.categories),
                "club_players": sorted(players.get(key, {}).get("club_players", ())),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "cup": {
            "body": cup.body.name,
            "name": cup.name,
            "first_day": cup.first_day.isoformat(),
            "last_day": cup.last_day.isoformat(),
            "points_key": _key(cup),
            "participation": cup.participation,
            "best_of": cup.best_of,
            "categories": list(cup.categories),
            "qualify_top": cup.qualify_top,
            "qualify_per_heat": cup.qualify_per_heat,
            "final": None
            if final is None
            else {
                "night": final.name,
                "club": final.club.name,
                "starts_at": timezone.localtime(final.starts_at).isoformat(),
            },
        },
        "nights": [
            {
                "id": night.pk,
                "number": number,
                "label": night_label(night),
                "club": night.tournament.club.name,
                "starts_at": timezone.localtime(night.tournament.starts_at).isoformat(),
                "heat": night.heat,
                "results": [
                    {
                        "club_player": r.player,
                        "cup_player": r.entrant,
                        "places": list(r.places) if r.places else None,
                        "points": r.points,
                    }
                    for r in data.results
                    if r.night == night.pk
                ],
            }
            for number, night in enumerate(data.nights, start=1)
        ],
        "cup_players": cup_players,
        "tables": [
            {
                "code": table.code,
                "label": str(table.label),
                "lines": [_line(line, night_ids) for line in table.lines],
            }
            for table in cup_tables(data, None)
        ],
        "qualifiers": [
            {
                "cup_player": masked(q.line).entrant.key,
                "overall": q.overall,
                "heats": list(q.heats),
            }
            for q in (data.qualifiers() if (cup.qualify_top or cup.qualify_per_heat) else [])
        ],
        "ratings": {
            "start": elo.START,
            "k": elo.K,
            "min_games": settings.RATING_MIN_GAMES,
            "variants": _ratings(cup),
        },
    }


@require_safe
def cup_json(request: HttpRequest, slug: str, cup_slug: str) -> JsonResponse:
    found = public_cup(slug, cup_slug)
    response = JsonResponse(cup_document(cup_data(found)), json_dumps_params={"indent": 1})
    name = f"cup-{found.body.slug}-{found.slug}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
