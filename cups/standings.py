"""A cup's standings (issue 30, RULES.md 7), pure Python: no Django import.

Words: an *entrant* is one cup player: a cup person, or a club player linked to none
(``key`` names which, e.g. ``"person-3"`` or ``"player-17"``). A *night* is one
tournament counted in the cup, in calendar order; it may belong to a *heat* (a
qualifying group). A *score* is the points an entrant took from one night: the points
key's value of his place, at least the participation points (``seasons.ranking.
points_for``); an entrant with two scores of one night (two cards, or two club players
linked to one person) keeps the best of them once.

*Best n of m* (``best_of`` n): of the nights an entrant played, the n with the most
points count and the others are *dropped*; of nights with equal points the later one
is dropped first (the earlier result stands, as on a sheet kept by hand). Nights he did
not play count nothing and drop nothing. ``best_of`` None counts every night.

The standings rank entrants by their total, most first. Entrants with equal totals
share the rank of the first of them ("1, 2, 2, 4"); within a tie the order is the name
in German order (``name_key``) and then the id (``number``, then ``key``), as everywhere in the site. A category
table is the same standings of the category's entrants only, ranked among themselves.

*Qualifying*: the entrants ranked ``top`` or better qualify, so that everyone level on
points at the cut qualifies (ranks 1, 2, 3, 3 with a top of 3 sends four); by heat, the
entrants ranked ``per_heat`` or better in the standings of that heat's nights alone (all
of them counted, ``best_of`` is not applied within a heat), ties at the cut the same way.
With both, an entrant qualifies by either; each qualifies once, listed in the order of
the overall standings.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entrant:
    """A cup player: ``key`` unique in the cup, ``name`` shown, ``name_key`` its German
    sort key, ``number`` the person's or club player's id (the last word in the order
    of a tie), ``categories`` the case-folded names of his categories, ``clubs`` the
    names of the clubs he played for (to tell apart two people of one name);
    ``private``: one of those clubs keeps its lists to itself, so public pages name him
    not (``cups.public``)."""

    key: str
    name: str
    name_key: str
    number: int = 0
    categories: frozenset[str] = frozenset()
    clubs: tuple[str, ...] = ()
    private: bool = False


@dataclass(frozen=True)
class Score:
    """``entrant`` took ``points`` at the night ``night`` (its id)."""

    entrant: str
    night: int
    points: int


@dataclass(frozen=True)
class Cell:
    """An entrant's result of one night: ``points`` None when he did not play;
    ``dropped`` when best n of m leaves it out."""

    night: int
    points: int | None = None
    dropped: bool = False


@dataclass(frozen=True)
class Line:
    """One entrant's line: a ``Cell`` per night (in the nights' order), the ``total`` of
    the counted cells, the number of nights ``played``, and the ``rank``."""

    entrant: Entrant
    cells: tuple[Cell, ...]
    total: int
    played: int
    rank: int = 0

    @property
    def order_key(self) -> tuple[str, int, str]:
        return (self.entrant.name_key, self.entrant.number, self.entrant.key)


@dataclass(frozen=True)
class Qualifier:
    """A qualified ``line`` (of the overall standings), ``overall``: by the cup's top
    places; ``heats``: the heats where he placed high enough."""

    line: Line
    overall: bool = False
    heats: tuple[str, ...] = field(default_factory=tuple)


def best_points(scores: Iterable[Score]) -> dict[tuple[str, int], int]:
    """``(entrant, night) -> points``, keeping an entrant's best score of a night once."""
    found: dict[tuple[str, int], int] = {}
    for score in scores:
        where = (score.entrant, score.night)
        found[where] = max(found.get(where, score.points), score.points)
    return found


def dropped_nights(played: Sequence[tuple[int, int]], best_of: int | None) -> set[int]:
    """Of ``played`` (``(night position, points)`` of the nights an entrant played, any
    order), the positions best n of m drops: all but the ``best_of`` highest points, the
    later of equal points first. None or a ``best_of`` not below the count drops none."""
    if best_of is None or best_of >= len(played):
        return set()
    kept = sorted(played, key=lambda item: (-item[1], item[0]))[:best_of]
    return {position for position, _ in played} - {position for position, _ in kept}


def rank(lines: Iterable[Line]) -> list[Line]:
    """``lines`` by total, most first, with shared ranks for equal totals; within a tie
    by name (German order) and then key."""
    ordered = sorted(lines, key=lambda line: (-line.total, line.order_key))
    result = []
    previous: int | None = None
    current = 0
    for position, line in enumerate(ordered, start=1):
        if line.total != previous:
            current, previous = position, line.total
        result.append(Line(line.entrant, line.cells, line.total, line.played, rank=current))
    return result


def standings(
    nights: Sequence[int],
    entrants: Mapping[str, Entrant],
    scores: Iterable[Score],
    best_of: int | None = None,
) -> list[Line]:
    """The ranked lines of every entrant who played at least one of ``nights`` (night
    ids in calendar order); scores of other nights are left out. ``entrants`` maps each
    scoring entrant's key to him (KeyError for a score of an unknown entrant)."""
    position = {night: index for index, night in enumerate(nights)}
    points = {where: value for where, value in best_points(scores).items() if where[1] in position}
    by_entrant: dict[str, dict[int, int]] = {}
    for (entrant, night), value in points.items():
        by_entrant.setdefault(entrant, {})[position[night]] = value
    lines = []
    for key, played in by_entrant.items():
        dropped = dropped_nights(list(played.items()), best_of)
        cells = tuple(
            Cell(night, played.get(index), index in dropped) for index, night in enumerate(nights)
        )
        total = sum(value for index, value in played.items() if index not in dropped)
        lines.append(Line(entrants[key], cells, total, len(played)))
    return rank(lines)


def in_category(lines: Iterable[Line], category: str) -> list[Line]:
    """The lines of the entrants in ``category`` (compared case-folded), ranked among
    themselves."""
    wanted = category.casefold()
    return rank(line for line in lines if wanted in line.entrant.categories)


def cut(lines: Sequence[Line], top: int) -> list[Line]:
    """The lines ranked ``top`` or better: everyone level at the cut is in."""
    return [line for line in lines if line.rank <= top]


def qualifiers(
    nights: Sequence[int],
    heats: Mapping[int, str],
    entrants: Mapping[str, Entrant],
    scores: Sequence[Score],
    *,
    best_of: int | None,
    top: int | None,
    per_heat: int | None,
) -> list[Qualifier]:
    """Who qualifies for the final (see the module's words): ``heats`` maps a night id
    to its heat's label (a night without a heat is missing or blank)."""
    overall = standings(nights, entrants, scores, best_of)
    chosen: dict[str, set[str]] = {}
    by_top: set[str] = set()
    if top:
        by_top = {line.entrant.key for line in cut(overall, top)}
    if per_heat:
        labels = sorted({heats[n] for n in nights if heats.get(n)})
        for label in labels:
            heat_nights = [n for n in nights if heats.get(n) == label]
            for line in cut(standings(heat_nights, entrants, scores), per_heat):
                chosen.setdefault(line.entrant.key, set()).add(label)
    return [
        Qualifier(line, line.entrant.key in by_top, tuple(sorted(chosen.get(line.entrant.key, ()))))
        for line in overall
        if line.entrant.key in by_top or line.entrant.key in chosen
    ]
