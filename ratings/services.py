"""The club's rated games read from the database, and the one writer of the ratings.

What counts (per club, per variant, never mixed):

- a tournament match (``tournaments.models.Result``): the live result of a live
  pairing of kind ``match`` between two cards; a level result of a points match is a
  draw. Byes and walkovers are no games: nobody played. A match's time is when its
  first result was recorded, so a correction keeps the match in its place;
- a two-player table's decided Partie, and every finished game to 24 of a Dreier- or
  Bauernschnapsen table (``ratings.outcomes``), from the live deals as the sheet
  scores them now. A sheet that reports to a tournament match is counted as that match.
  A game's time is when the deal that decided it was first recorded (a corrected deal
  keeps the time of the one it replaced).

``rerate_club`` is the writer, run by the task worker (``follow_sheet``,
``follow_pairing``, ``rerate_player_club`` are the tasks the writers' follow-ups
enqueue after their commit; ``ratings.apps`` connects them). It keeps the stored
history up to the first game that differs from the games as they are now and rates
from there (``elo.rerate``), so a correction re-rates from the corrected game on.
"""

import logging
from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import OuterRef, Subquery

from base import locks
from base.errors import RuleError
from base.tasks import enqueue
from clubs.models import Club
from ratings import elo
from ratings.models import RatedGame, Rating, RatingChange
from ratings.outcomes import match_game, sheet_games
from scoring import rules as core
from scoring.models import ENTRY_TYPES, Deal, Seat, Sheet, Variant
from tournaments.models import Kind, Result

log = logging.getLogger(__name__)

VARIANTS = tuple(Variant.values)


# -- what counts ------------------------------------------------------------------------


def _scored_games(sheets: Iterable[dict]) -> list[elo.Game[int]]:
    """The rated games of ``sheets`` (rows with ``pk``, ``variant``, ``rules``,
    ``first_dealer``): 2 queries for all of them."""
    by_id = {s["pk"]: s for s in sheets}
    if not by_id:
        return []
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for seat in Seat.objects.filter(sheet_id__in=by_id).values("sheet_id", "position", "player_id"):
        seats[seat["sheet_id"]][seat["position"]] = seat["player_id"]
    deals: dict[int, list[Any]] = defaultdict(list)
    for deal in (
        Deal.objects.filter(sheet_id__in=by_id)
        .order_by("sheet_id", "position", "recorded_at", "id")
        .values("sheet_id", "position", "kind", "inputs", "recorded_at", "voided_at")
    ):
        deals[deal["sheet_id"]].append(deal)
    found: list[elo.Game[int]] = []
    for pk, sheet in by_id.items():
        rows = deals.get(pk, [])
        first_at: dict[int, datetime] = {}
        for row in rows:  # in order of time within a position: the first is the original
            first_at.setdefault(row["position"], row["recorded_at"])
        live = [row for row in rows if row["voided_at"] is None]
        variant = core.Variant(sheet["variant"])
        if not live or len(seats[pk]) != variant.seats:
            continue
        try:
            state = core.score_sheet(
                variant,
                core.RuleSet.from_dict(sheet["rules"]),
                sheet["first_dealer"],
                [ENTRY_TYPES[row["kind"]](**row["inputs"]) for row in live],
            )
        except RuleError:  # not possible through the writers; a sheet that breaks is left out
            log.warning("sheet %s does not score: not rated", pk)
            continue
        players = [seats[pk][seat] for seat in range(variant.seats)]
        times = [first_at[row["position"]] for row in live]
        found += sheet_games(state, players, pk, times)
    return found


_SHEET_FIELDS = ("pk", "variant", "rules", "first_dealer")


def table_games(club_id: int, variant: str, since: datetime | None = None) -> list[elo.Game[int]]:
    """The rated games of the club's tables of ``variant`` (tournament match sheets
    left out), those at or after ``since`` when given."""
    sheets = Sheet.objects.filter(club_id=club_id, variant=variant, reports_result=False)
    games = _scored_games(_with_deals_since(sheets, since).values(*_SHEET_FIELDS))
    return [g for g in games if since is None or g.time >= since]


def _with_deals_since(sheets, since: datetime | None):
    """The sheets that may have a game at or after ``since``: a game's time is that of
    one of its sheet's deals."""
    if since is None:
        return sheets
    return sheets.filter(pk__in=Deal.objects.filter(recorded_at__gte=since).values("sheet_id"))


def match_games(club_id: int, since: datetime | None = None) -> list[elo.Game[int]]:
    """The club's rated tournament matches (two-player Schnapsen), at or after ``since``
    when given. One query."""
    first = (
        Result.objects.filter(pairing=OuterRef("pairing"))
        .order_by("recorded_at", "id")
        .values("recorded_at")[:1]
    )
    rows = (
        Result.objects.live()
        .filter(
            pairing__tournament__club_id=club_id,
            pairing__voided_at__isnull=True,
            pairing__kind=Kind.MATCH,
            pairing__left__isnull=False,
            pairing__right__isnull=False,
        )
        .annotate(first_at=Subquery(first))
    )
    if since is not None:
        rows = rows.filter(first_at__gte=since)
    found = []
    for row in rows.values(
        "pairing_id",
        "winner_id",
        "pairing__left_id",
        "pairing__left__player_id",
        "pairing__right__player_id",
        "first_at",
    ):
        left, right = row["pairing__left__player_id"], row["pairing__right__player_id"]
        if left == right:
            continue  # a player meeting himself is a walkover (RULES.md 5.2), never a game
        winner = None
        if row["winner_id"] is not None:
            winner = "left" if row["winner_id"] == row["pairing__left_id"] else "right"
        found.append(match_game(row["pairing_id"], row["first_at"], left, right, winner))
    return found


def club_games(club_id: int, variant: str, since: datetime | None = None) -> list[elo.Game[int]]:
    """Every rated game of the club in ``variant`` (at or after ``since``), in order."""
    games = table_games(club_id, variant, since)
    if variant == Variant.SCHNAPSEN:
        games += match_games(club_id, since)
    return elo.ordered(games)


# -- the stored history ---------------------------------------------------------------


def _steps(games) -> list[elo.Step[int]]:
    """``RatedGame`` rows (a query, in order) as ``elo.Step``s with their changes.
    2 queries."""
    changes: dict[int, list[elo.Change[int]]] = defaultdict(list)
    for change in (
        RatingChange.objects.filter(game__in=games)
        .order_by("game_id", "id")
        .values("game_id", "player_id", "before", "after")
    ):
        changes[change["game_id"]].append(
            elo.Change(change["player_id"], change["before"], change["after"])
        )
    history = []
    for row in games.values("pk", "variant", "ref", "played_at", "sides", "places"):
        game = elo.Game(
            row["played_at"],
            row["ref"],
            row["variant"],
            tuple(tuple(side) for side in row["sides"]),
            tuple(row["places"]),
        )
        history.append(elo.Step(game, tuple(changes[row["pk"]])))
    return history


def stored_history(club_id: int, variant: str) -> list[elo.Step[int]]:
    """The club's stored rating history of ``variant``, in order. 2 queries."""
    return _steps(RatedGame.objects.filter(club_id=club_id, variant=variant).order_by("seq"))


def _game_row(club_id: int, seq: int, done: elo.Step[int]) -> RatedGame:
    game = done.game
    kind, _, rest = game.ref.partition(":")
    number = int(rest.partition(":")[0])
    return RatedGame(
        club_id=club_id,
        variant=game.variant,
        seq=seq,
        ref=game.ref,
        played_at=game.time,
        sides=[list(side) for side in game.sides],
        places=list(game.places),
        sheet_id=number if kind == "sheet" else None,
        pairing_id=number if kind == "match" else None,
    )


# -- the writer -----------------------------------------------------------------------


def rerate_club(
    club_id: int,
    variant: str | None = None,
    since: datetime | None = None,
    *,
    scratch: bool = False,
) -> int:
    """Bring the club's ratings (of ``variant``, or of every variant) in line with its
    games as they are now: the stored history is kept up to the first game that
    differs, the rest is rated again. ``since``: only games from then on can have
    changed (the stored ones before it are taken as they are). Returns how many games
    were rated again; ``scratch``: the stored history is forgotten first and every game
    rated again.

    Two re-ratings of one club run one after the other: each holds the club's ratings
    lock (``base.locks.serialised``), a lock of its own that no writer takes, so a
    re-rating never waits for a deal's sheet while a deal waits for it (it takes no
    writer's row lock: it only reads the games, and writes rows no writer locks)."""
    done = 0
    for each in [variant] if variant else VARIANTS:
        with transaction.atomic():
            locks.serialised("ratings", club_id)
            if not Club.objects.filter(pk=club_id).exists():
                return done
            if scratch:
                RatedGame.objects.filter(club_id=club_id, variant=each).delete()
                Rating.objects.filter(club_id=club_id, variant=each).delete()
            done += _rerate(club_id, each, None if scratch else since)
    return done


def _rerate(club_id: int, variant: str, since: datetime | None) -> int:
    history = stored_history(club_id, variant)
    kept = [done.game for done in history if since is not None and done.game.time < since]
    games = kept + club_games(club_id, variant, since)
    at, rated = elo.rerate(history, games)
    if at == len(history) == len(rated.history):
        return 0  # nothing changed
    RatedGame.objects.filter(club_id=club_id, variant=variant, seq__gte=at).delete()
    new = rated.history[at:]
    rows = RatedGame.objects.bulk_create(
        [_game_row(club_id, at + i, step) for i, step in enumerate(new)]
    )
    RatingChange.objects.bulk_create(
        RatingChange(game=row, player_id=c.participant, before=c.before, after=c.after)
        for row, step in zip(rows, new, strict=True)
        for c in step.changes
    )
    Rating.objects.filter(club_id=club_id, variant=variant).delete()
    Rating.objects.bulk_create(
        Rating(
            club_id=club_id,
            variant=variant,
            player_id=player,
            value=value,
            games=rated.games[player],
        )
        for player, value in rated.ratings.items()
    )
    return len(new)


# -- the tasks the writers' follow-ups enqueue ---------------------------------------


def follow_sheet(sheet_id: int) -> int:
    """Task: a sheet's games may have changed (a game ended, a deal corrected or struck
    out). Re-rates its club from the earliest game of the sheet that changed, or
    nothing when none did; returns how many games were rated again."""
    sheet = (
        Sheet.objects.filter(pk=sheet_id, reports_result=False)
        .values(*_SHEET_FIELDS, "club_id")
        .first()
    )
    if sheet is None:
        return 0
    now = {g.ref: g for g in _scored_games([sheet])}
    rows = RatedGame.objects.filter(club_id=sheet["club_id"], sheet_id=sheet_id).order_by("seq")
    stored = {done.game.ref: done.game for done in _steps(rows)}
    changed = [g.time for ref, g in now.items() if stored.get(ref) != g]
    changed += [g.time for ref, g in stored.items() if now.get(ref) != g]
    if not changed:
        return 0
    return rerate_club(sheet["club_id"], sheet["variant"], since=min(changed))


def follow_pairing(pairing_id: int) -> int:
    """Task: a tournament match's result was recorded, corrected or voided: the club's
    two-player ratings are rated again from the match on (its time, when its first
    result was recorded, stays)."""
    first = (
        Result.objects.filter(pairing_id=pairing_id)
        .order_by("recorded_at", "id")
        .values("recorded_at", "pairing__tournament__club_id")
        .first()
    )
    if first is None:
        return 0
    club_id = first["pairing__tournament__club_id"]
    return rerate_club(club_id, Variant.SCHNAPSEN, since=first["recorded_at"])


def after_commit(function: str, *args: int) -> None:
    """Enqueue the task ``function`` once the writing transaction commits (at once when
    there is none)."""
    name = f"ratings {function.rpartition('.')[2]} {args[0]}"
    transaction.on_commit(lambda: enqueue(function, *args, name=name))


# -- what the pages read --------------------------------------------------------------


def rating_list(club: Club, variant: str) -> list[Rating]:
    """The club's ratings of ``variant``, best first. One query."""
    return list(Rating.objects.filter(club=club, variant=variant).order_by("-value", "player_id"))


def player_history(club: Club, player_id: int) -> dict[str, list[tuple[datetime, float]]]:
    """Per variant, the player's rating after each of his games, oldest first. One
    query."""
    found: dict[str, list[tuple[datetime, float]]] = defaultdict(list)
    for row in (
        RatingChange.objects.filter(player_id=player_id, game__club=club)
        .order_by("game__variant", "game__seq")
        .values("game__variant", "game__played_at", "after")
    ):
        found[row["game__variant"]].append((row["game__played_at"], row["after"]))
    return dict(found)
