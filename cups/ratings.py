"""A cup's rating list (issue 30): Elo ratings of the cup players, per variant.

What counts: the decided games (``ratings.services.club_games``: tournament matches,
Parties, games to 24) of the clubs of the cup's body, played between the cup's first
and last day (local time, both days whole). A club that is a member now counts all its
games of those days; a club that left counts those played before it left (its last
``left_at``), as a night it had counted stays in the cup.

Who: each club player counts as his cup identity, the one the cup standings use
(``cups.reading.person_of``): the cup person of his live link in the body, else the
club player himself; so one person's games in several clubs are rated as one cup
player. A game in which one cup player would stand on two sides is left out
(``ratings.elo.remap``). A cup player rated in a game of a club that keeps its lists to
itself is marked ``private`` (the public list names him not).

The ratings start fresh for the cup: everyone at ``elo.START`` (1500) on the cup's
first day, whatever his club ratings are, and every game is rated in time order by
``elo.rate`` (variants never mixed). Nothing is stored: the list is read from the games
as they are now, so a correction shows at once.

The list: ties share a place ("1, 2, 2, 4"); a tie is the same whole-number rating, as
shown; within a tie by name in German order, then id (as the cup standings). Cup players
with fewer than the minimum of rated games are listed apart, without a place.

Queries: 4 (the member clubs, the links, the names, the public clubs; the page adds
the cup), and at most
10 per member club (3 per variant for its tables, 1 for its matches), never one per
game.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from base.text import german_key
from clubs.models import Player
from cups.models import Cup, Member
from cups.reading import person_key, person_of, player_key, public_clubs
from ratings import elo
from ratings.services import VARIANTS, club_games


@dataclass(frozen=True)
class Row:
    """One line of a cup's rating list: ``place`` None below the minimum; ``key`` the
    cup identity (``person-3``, ``player-17``), ``clubs`` the names of the clubs whose
    games he was rated in (German order)."""

    place: int | None
    key: str
    name: str
    clubs: tuple[str, ...]
    rating: int
    games: int
    private: bool = False


def cup_window(cup: Cup) -> tuple[dt.datetime, dt.datetime]:
    """The cup's days as ``[start, end)``: from its first day's midnight to the
    midnight after its last day, local time."""
    start = timezone.make_aware(dt.datetime.combine(cup.first_day, dt.time.min))
    end = timezone.make_aware(dt.datetime.combine(cup.last_day + dt.timedelta(days=1), dt.time.min))
    return start, end


def member_clubs(cup: Cup) -> dict[int, dt.datetime | None]:
    """Each club that is or was a member of the cup's body, with the moment its games
    stop counting (None: a member now). One query."""
    until: dict[int, dt.datetime | None] = {}
    for club_id, left_at in Member.objects.filter(body_id=cup.body_id).values_list(
        "club_id", "left_at"
    ):
        if club_id in until and until[club_id] is None:
            continue
        if left_at is None or club_id not in until:
            until[club_id] = left_at
        else:
            until[club_id] = max(left_at, until[club_id])  # type: ignore[type-var]
    return until


def cup_club_games(cup: Cup, variants: Sequence[str] = VARIANTS) -> dict[str, list[elo.Game[int]]]:
    """The counted games of the cup (see the module's words) per variant, of club
    players. 1 query, and per member club 3 per variant (and 1 for its matches)."""
    start, end = cup_window(cup)
    found: dict[str, list[elo.Game[int]]] = {v: [] for v in variants}
    for club_id, left_at in sorted(member_clubs(cup).items()):
        stop = end if left_at is None else min(end, left_at)
        if stop <= start:
            continue
        for variant in variants:
            found[variant] += [
                g for g in club_games(club_id, variant, since=start) if g.time < stop
            ]
    return found


@dataclass(frozen=True)
class Identity:
    """Who the club players of some games are in the cup: ``of`` maps a club player to
    his cup identity's key; ``names``, ``sort`` (``(name_key, id)``) and ``club_of``
    (a club player's club's name) by key and player; ``private`` the club players of
    clubs that keep their lists to themselves."""

    of: dict[int, str]
    names: dict[str, str]
    sort: dict[str, tuple[str, int]]
    club_of: dict[int, str]
    private: frozenset[int] = frozenset()


def identities(body_id: int, player_ids: set[int]) -> Identity:
    """The cup identities of ``player_ids`` in the body. 3 queries."""
    links = person_of(body_id, player_ids)
    players = list(Player.objects.filter(pk__in=player_ids).select_related("club"))
    public = public_clubs({p.club_id for p in players})
    of: dict[int, str] = {}
    names: dict[str, str] = {}
    sort: dict[str, tuple[str, int]] = {}
    club_of: dict[int, str] = {}
    for player in players:
        club_of[player.pk] = player.club.name
        link = links.get(player.pk)
        if link is not None:
            key = person_key(link.person_id)
            names[key], sort[key] = link.person.name, (link.person.name_key, link.person_id)
        else:
            key = player_key(player.pk)
            names[key], sort[key] = player.name, (player.name_key, player.pk)
        of[player.pk] = key
    private = frozenset(p.pk for p in players if p.club_id not in public)
    return Identity(of, names, sort, club_of, private)


def rating_rows(
    games: Sequence[elo.Game[int]], who: Identity, minimum: int
) -> tuple[list[Row], list[Row]]:
    """(ranked, below the minimum) of the cup's list of the ``games`` of one variant,
    rated from scratch as cup identities."""
    known = [g for g in games if all(p in who.of for p in g.participants)]
    cup_games = elo.remap(known, lambda p: who.of[p])
    rated = elo.rate(cup_games)
    clubs: dict[str, set[str]] = {}
    private: set[str] = set()
    for game in known:
        for player in game.participants:
            clubs.setdefault(who.of[player], set()).add(who.club_of[player])
            if player in who.private:
                private.add(who.of[player])
    order = sorted(
        rated.ratings,
        key=lambda k: (-round(rated.ratings[k]), who.sort[k][0], who.sort[k][1], k),
    )
    lines = [
        (
            round(rated.ratings[k]),
            rated.games[k],
            k,
            tuple(sorted(clubs.get(k, ()), key=german_key)),
        )
        for k in order
    ]
    kept = [line for line in lines if line[1] >= minimum]
    places = elo.shared_places([rating for rating, *_rest in kept])
    ranked = [
        Row(place, key, who.names[key], named, rating, count, key in private)
        for place, (rating, count, key, named) in zip(places, kept, strict=True)
    ]
    below = [
        Row(None, key, who.names[key], named, rating, count, key in private)
        for rating, count, key, named in lines
        if count < minimum
    ]
    return ranked, below


def cup_rating_list(cup: Cup, variant: str, minimum: int) -> tuple[list[Row], list[Row], list[str]]:
    """(ranked, below the minimum, the variants that have games) of the cup's list of
    ``variant``. Queries: 4, and at most 10 per member club."""
    games = cup_club_games(cup)
    shown = games[variant]
    player_ids = {p for g in shown for p in g.participants}
    who = identities(cup.body_id, player_ids) if player_ids else Identity({}, {}, {}, {})
    ranked, below = rating_rows(shown, who, minimum)
    return ranked, below, [v for v in VARIANTS if games[v]]
