"""The reads of a cup: its nights, who played them as which cup player, the points each
took (RULES.md 7 through ``seasons``), ranked by ``cups.standings``.

A club player counts as the cup person his live link names (``cups.models.Link``), or
as himself without one; links are read as they stand now, so linking two players
joins their results in every night already counted. A cup player who played for a club
that keeps its lists to itself is marked ``private``. Queries: a fixed handful, and 4
per night (``seasons.places.player_places``).
"""

from dataclasses import dataclass, field

from django.utils import timezone

from base.text import german_key
from clubs.models import Player
from cups import standings
from cups.models import Cup, Link, Night
from seasons import ranking
from seasons.models import RankingSettings
from seasons.places import player_places
from tournaments.models import Tournament


@dataclass(frozen=True)
class NightResult:
    """A club player's result of a counted night: his best card's place range
    (``places``, None while unplaced) and the cup points it gives, as his cup player
    (``entrant``, the key of ``standings.Entrant``)."""

    night: int
    player: int
    places: tuple[int, int] | None
    points: int
    entrant: str


@dataclass(frozen=True)
class CupData:
    """Everything a cup's pages rank: its live ``nights`` (calendar order), the
    entrants and their scores, and each night's heat."""

    cup: Cup
    nights: list[Night]
    entrants: dict[str, standings.Entrant]
    scores: list[standings.Score]
    heats: dict[int, str] = field(default_factory=dict)
    results: list[NightResult] = field(default_factory=list)

    @property
    def night_ids(self) -> list[int]:
        return [n.pk for n in self.nights]

    def table(self, after: int | None = None) -> list[standings.Line]:
        """The standings after the first ``after`` nights (None: all)."""
        ids = self.night_ids if after is None else self.night_ids[:after]
        return standings.standings(ids, self.entrants, self.scores, self.cup.best_of)

    def qualifiers(self) -> list[standings.Qualifier]:
        return standings.qualifiers(
            self.night_ids,
            self.heats,
            self.entrants,
            self.scores,
            best_of=self.cup.best_of,
            top=self.cup.qualify_top,
            per_heat=self.cup.qualify_per_heat,
        )


def live_nights(cup: Cup) -> list[Night]:
    """The cup's counted nights in calendar order, with their tournament and club."""
    return list(
        Night.objects.live()
        .filter(cup=cup)
        .select_related("tournament", "tournament__club")
        .order_by("tournament__starts_at", "tournament_id")
    )


def person_of(body_id: int, player_ids: set[int]) -> dict[int, Link]:
    """The live link (with its person) of each of ``player_ids`` that has one."""
    links = Link.objects.live().filter(body_id=body_id, player_id__in=player_ids)
    return {link.player_id: link for link in links.select_related("person")}


def public_clubs(club_ids: set[int]) -> set[int]:
    """Those of ``club_ids`` that show their lists to anyone (``RankingSettings.public``,
    as ``seasons.access``): the others' players are not named on a cup's public pages."""
    return set(
        RankingSettings.objects.filter(club_id__in=club_ids, public=True).values_list(
            "club_id", flat=True
        )
    )


def player_key(player_id: int) -> str:
    return f"player-{player_id}"


def person_key(person_id: int) -> str:
    return f"person-{person_id}"


def cup_data(cup: Cup) -> CupData:
    """Read the cup's nights and scores (see the module's words)."""
    nights = live_nights(cup)
    key = cup.key_lines
    raw: list[tuple[int, int, int]] = []  # (player, night, points)
    place_of: dict[tuple[int, int], tuple[int, int] | None] = {}
    for night in nights:
        places, names = player_places(night.tournament)
        for player_id in names:
            points = ranking.points_for(places.get(player_id), key, cup.participation)
            raw.append((player_id, night.pk, points))
            place_of[(player_id, night.pk)] = places.get(player_id)
    player_ids = {player for player, _, _ in raw}
    links = person_of(cup.body_id, player_ids)
    linked_persons = {link.person_id for link in links.values()}
    # every club player of those persons, for their categories and clubs
    person_players = Link.objects.live().filter(body_id=cup.body_id, person_id__in=linked_persons)
    members: dict[int, set[int]] = {}
    for other in person_players:
        members.setdefault(other.person_id, set()).add(other.player_id)
    all_players = player_ids | {p for group in members.values() for p in group}
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=all_players)
        .select_related("club")
        .prefetch_related("categories")
    }
    folded = {
        pk: frozenset(c.name.casefold() for c in p.categories.all()) for pk, p in players.items()
    }
    club_of = {night.pk: night.tournament.club.name for night in nights}
    club_id_of = {night.pk: night.tournament.club_id for night in nights}
    public = public_clubs(set(club_id_of.values()))
    entrants: dict[str, standings.Entrant] = {}
    played_clubs: dict[str, set[str]] = {}
    private: set[str] = set()
    scores = []
    results = []
    for player_id, night_id, points in raw:
        link = links.get(player_id)
        if link is not None:
            entrant_key = person_key(link.person_id)
            if entrant_key not in entrants:
                group = members.get(link.person_id, {player_id})
                entrants[entrant_key] = standings.Entrant(
                    entrant_key,
                    link.person.name,
                    link.person.name_key,
                    link.person_id,
                    frozenset().union(*(folded.get(p, frozenset()) for p in group)),
                )
        else:
            entrant_key = player_key(player_id)
            if entrant_key not in entrants:
                player = players[player_id]
                entrants[entrant_key] = standings.Entrant(
                    entrant_key, player.name, player.name_key, player_id, folded[player_id]
                )
        played_clubs.setdefault(entrant_key, set()).add(club_of[night_id])
        if club_id_of[night_id] not in public:
            private.add(entrant_key)
        scores.append(standings.Score(entrant_key, night_id, points))
        results.append(
            NightResult(night_id, player_id, place_of[(player_id, night_id)], points, entrant_key)
        )
    entrants = {
        k: standings.Entrant(
            e.key,
            e.name,
            e.name_key,
            e.number,
            e.categories,
            tuple(sorted(played_clubs.get(k, ()), key=german_key)),
            k in private,
        )
        for k, e in entrants.items()
    }
    heats = {n.pk: n.heat for n in nights if n.heat}
    return CupData(cup, nights, entrants, scores, heats, results)


def night_label(night: Night) -> str:
    t: Tournament = night.tournament
    return f"{timezone.localtime(t.starts_at):%d.%m.} {t.club.name}"
