"""Player ratings by Elo (issue 30): plain values in, plain values out, no Django.

Words used here:

- *game*: one decided contest that is rated: a two-player match or Partie, one
  Dreierschnapsen game to 24, one Bauernschnapsen game to 24 (``Game``).
- *side*: who plays as one in a game: a player, or the two partners of a
  Bauernschnapsen team. ``Game.places`` gives each side its place at the game's end
  (0 the best); equal places are level (a draw).
- *rating*: a number per participant, starting at ``START``; what it means is only
  the expected score against another rating (``expected``).
- *history*: one ``Step`` per rated game in rating order, with every participant's
  rating before and after it.

The model: each pair of sides in a game is one Elo encounter. A side's rating is the
mean of its members' ratings; its change is ``K / (sides - 1)`` times the sum, over the
other sides, of (score - expected score), the score being 1 for the better place, 0.5
for a level one and 0 for the worse; every member of a side gets the side's whole change.
With two sides this is plain Elo with ``K``; a Dreierschnapsen game moves a player at
most as far as one two-player game (``K / 2`` for each of the two encounters). All
changes are computed from the ratings before the game, so the seats' order does not
matter, and with sides of equal size the changes of one game sum to zero.

Order: games are rated by ``(time, ref)``: ``ref`` (a text unique per game) fixes the
order of games of the same time. Variants are never mixed: ``rate`` refuses games of
two variants in one call.

Corrections: ``rerate`` keeps the stored history up to the first game where it differs
from the games as they are now and rates from that game on; the result is always the
one ``rate`` gives for the games as they are now (the property the tests hold).
"""

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

K = 20.0
"""How far one two-player game moves a rating at most (the same for every game: no
provisional K, so that a two-player game is always zero-sum)."""

START = 1500.0
"""The rating of a participant before his first game."""

SCALE = 400.0
"""A rating difference of ``SCALE`` means the better one is expected to score 10:1."""

P = TypeVar("P", bound=Hashable)
Q = TypeVar("Q", bound=Hashable)


@dataclass(frozen=True)
class Game(Generic[P]):
    """One decided game: when (``time``), which (``ref``, unique, breaks ties of time),
    of which ``variant``, the ``sides`` (each a tuple of participants) and the
    ``places`` of the sides at its end (0 best; equal places: level)."""

    time: datetime
    ref: str
    variant: str
    sides: tuple[tuple[P, ...], ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.sides) < 2 or len(self.sides) != len(self.places):
            raise ValueError(f"game {self.ref}: at least two sides, one place each")
        members = [p for side in self.sides for p in side]
        if not all(self.sides) or len(set(members)) != len(members):
            raise ValueError(f"game {self.ref}: every side has players, each plays once")

    @property
    def order(self) -> tuple[datetime, str]:
        return (self.time, self.ref)

    @property
    def participants(self) -> tuple[P, ...]:
        return tuple(p for side in self.sides for p in side)


@dataclass(frozen=True)
class Change(Generic[P]):
    """A participant's rating ``before`` and ``after`` one game."""

    participant: P
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Step(Generic[P]):
    """One rated game and the change of each of its participants (in the game's order
    of sides and members)."""

    game: Game[P]
    changes: tuple[Change[P], ...]


@dataclass(frozen=True)
class Rated(Generic[P]):
    """Where rating a history ends: each participant's ``ratings`` and ``games`` (how
    many rated games he played), and the ``history``."""

    ratings: dict[P, float]
    games: dict[P, int]
    history: tuple[Step[P], ...]


def expected(rating: float, other: float) -> float:
    """The score ``rating`` is expected to make against ``other``:
    1 / (1 + 10 ** ((other - rating) / 400))."""
    return 1.0 / (1.0 + math.pow(10.0, (other - rating) / SCALE))


def score(place: int, other: int) -> float:
    """1 for the better place, 0.5 for a level one, 0 for the worse."""
    return 1.0 if place < other else 0.5 if place == other else 0.0


def step(game: Game[P], ratings: Mapping[P, float], k: float = K) -> Step[P]:
    """Rate one game from ``ratings`` (a participant not in it starts at ``START``)."""
    before = {p: ratings.get(p, START) for p in game.participants}
    strength = [sum(before[p] for p in side) / len(side) for side in game.sides]
    weight = k / (len(game.sides) - 1)
    changes = []
    for i, side in enumerate(game.sides):
        delta = weight * sum(
            score(game.places[i], game.places[j]) - expected(strength[i], strength[j])
            for j in range(len(game.sides))
            if j != i
        )
        changes += [Change(p, before[p], before[p] + delta) for p in side]
    return Step(game, tuple(changes))


def ordered(games: Iterable[Game[P]]) -> list[Game[P]]:
    """``games`` in rating order, refusing two variants or two games of one ``ref``."""
    found = sorted(games, key=lambda g: g.order)
    if len({g.variant for g in found}) > 1:
        raise ValueError("ratings never mix variants: rate each variant apart")
    refs = [g.ref for g in found]
    if len(set(refs)) != len(refs):
        raise ValueError("two games with one ref")
    return found


def _go_on(kept: Sequence[Step[P]], games: Sequence[Game[P]], k: float) -> Rated[P]:
    ratings: dict[P, float] = {}
    counts: dict[P, int] = {}
    history = list(kept)
    for done in kept:
        for change in done.changes:
            ratings[change.participant] = change.after
            counts[change.participant] = counts.get(change.participant, 0) + 1
    for game in games:
        done = step(game, ratings, k)
        history.append(done)
        for change in done.changes:
            ratings[change.participant] = change.after
            counts[change.participant] = counts.get(change.participant, 0) + 1
    return Rated(ratings, counts, tuple(history))


def rate(games: Iterable[Game[P]], k: float = K) -> Rated[P]:
    """Rate ``games`` (of one variant) from scratch, in order."""
    return _go_on((), ordered(games), k)


def diverges_at(history: Sequence[Step[P]], games: Sequence[Game[P]]) -> int:
    """The index of the first game (both in rating order) where the ``history`` and
    ``games`` differ: a game added, gone, moved or changed in sides or places; their
    common length when one begins the other."""
    for index, (done, game) in enumerate(zip(history, games, strict=False)):
        if done.game != game:
            return index
    return min(len(history), len(games))


def rerate(
    history: Sequence[Step[P]], games: Iterable[Game[P]], k: float = K
) -> tuple[int, Rated[P]]:
    """Rate ``games`` as they are now, keeping of the stored ``history`` (rated with the
    same ``k``) the steps before the first game that differs, and rating from there:
    ``(that index, the result)``; the result equals ``rate(games, k)``."""
    now = ordered(games)
    at = diverges_at(history, now)
    return at, _go_on(history[:at], now[at:], k)


def remap(games: Iterable[Game[P]], identity: Callable[[P], Q]) -> list[Game[Q]]:
    """The games with each participant replaced by ``identity(participant)`` (one
    person for the players of several clubs, for a cup's list); a game in which one
    person would stand on two sides, or twice on one, is left out."""
    found = []
    for game in games:
        sides = tuple(tuple(identity(p) for p in side) for side in game.sides)
        members = [p for side in sides for p in side]
        if len(set(members)) == len(members):
            found.append(Game(game.time, game.ref, game.variant, sides, game.places))
    return found


def shared_places(shown: Sequence[int]) -> list[int]:
    """The places of a rating list's ``shown`` (whole-number) ratings, already in list
    order, best first: equal ratings share the place of the first of them ("1, 2, 2,
    4"); within a tie the list is ordered by name in German order, then id (RULES.md 7,
    the same on every list)."""
    places: list[int] = []
    for position, value in enumerate(shown, start=1):
        tied = bool(places) and shown[position - 2] == value
        places.append(places[-1] if tied else position)
    return places
