"""What a score sheet's finished games are as rated games (``elo.Game``): pure, from
the sheet's ``SheetState`` as ``scoring.rules`` folds it.

- Two-player Schnapsen: the decided *Partie* is one game (its single Bummerl are not
  rated on their own); an open Partie is none.
- Dreierschnapsen: every finished game to 24 is one game of three sides, placed by
  their standing at its end: the loser (two on a Retourschneider) last, the others by
  their points, equal points level; a tie-break deal puts its winner above the loser.
- Bauernschnapsen: every finished game to 24 is one game of two teams (seats 1+3 and
  2+4, RULES.md 4), the team that got the Bummerl second.

``time_of`` gives each live entry's time (by its index among the live entries): a
game's time is that of the entry that decided it.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import TypeVar

from ratings.elo import Game
from scoring.rules import SheetState, Variant

P = TypeVar("P", int, str)


def places_by(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Dense places for sort ``keys`` (smaller is better): (0, 5, 5, 9) -> (0, 1, 1, 2)."""
    ranks = {key: place for place, key in enumerate(sorted(set(keys)))}
    return tuple(ranks[key] for key in keys)


def sheet_ref(sheet_id: int, game: int | None = None) -> str:
    """The ``ref`` of a sheet's game: ``sheet:000000042`` for a Partie, with ``:003``
    for the 0-based game of a three- or four-player sheet (numbers padded so that the
    text sorts as the numbers do)."""
    ref = f"sheet:{sheet_id:09d}"
    return ref if game is None else f"{ref}:{game:03d}"


def match_ref(pairing_id: int) -> str:
    return f"match:{pairing_id:09d}"


def sheet_games(
    state: SheetState, players: Sequence[P], sheet_id: int, time_of: Sequence[datetime]
) -> list[Game[P]]:
    """The rated games of one sheet: ``players`` by seat, ``time_of`` per live entry."""
    variant = state.variant
    if variant is Variant.SCHNAPSEN:
        if state.partie_winner is None:
            return []
        winner = state.partie_winner
        return [
            Game(
                time_of[state.games[-1].decided_at],
                sheet_ref(sheet_id),
                variant.value,
                ((players[0],), (players[1],)),
                (0, 1) if winner == 0 else (1, 0),
            )
        ]
    found = []
    for index, game in enumerate(state.games):
        sides: tuple[tuple[P, ...], ...]
        places: tuple[int, ...]
        if variant is Variant.BAUERNSCHNAPSEN:
            sides = ((players[0], players[2]), (players[1], players[3]))
            places = (1, 0) if 0 in game.losers else (0, 1)
        else:
            sides = tuple((p,) for p in players)
            places = places_by([(seat in game.losers, -game.final[seat]) for seat in range(3)])
        found.append(
            Game(time_of[game.decided_at], sheet_ref(sheet_id, index), variant.value, sides, places)
        )
    return found


def match_game(pairing_id: int, time: datetime, left: P, right: P, winner: str | None) -> Game[P]:
    """A tournament match's game: ``winner`` "left", "right", or None for a level
    result (a draw of a points match, RULES.md 6)."""
    places = {"left": (0, 1), "right": (1, 0), None: (0, 0)}[winner]
    return Game(time, match_ref(pairing_id), Variant.SCHNAPSEN.value, ((left,), (right,)), places)
