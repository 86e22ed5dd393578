"""The category prize lists of a tournament (RULES.md 5.9), read for the desk, the live
bracket, the export and the printed prize list: two queries beside ``load_state``."""

from dataclasses import dataclass

from clubs.models import Category, Player
from tournaments import ranking
from tournaments.models import Card
from tournaments.services.reading import TournamentState


@dataclass(frozen=True)
class CategoryLine:
    """A line of a category's prize list: prize ``place``, its ``description`` and the
    ``card`` (with its player) that won it, None while not known; ``first``/``last``:
    the overall places of that card."""

    place: int
    description: str
    card: Card | None
    first: int | None = None
    last: int | None = None


@dataclass(frozen=True)
class CategoryList:
    category: Category
    lines: list[CategoryLine]


def category_lists(state: TournamentState) -> list[CategoryList]:
    """One prize list per category the tournament has prizes for, in category order:
    each prize with its winner, down the overall ranking among the category's players;
    with ``category_with_overall`` off, players with an overall prize are skipped."""
    t = state.tournament
    wanted = {int(p["category"]) for p in t.category_prizes}
    if not wanted:
        return []
    categories = list(Category.objects.filter(club=t.club_id, pk__in=wanted))
    players = {c.player_id for c in state.cards.values()}
    members: dict[int, set[int]] = {c.pk: set() for c in categories}
    through = Player.categories.through.objects.filter(
        category_id__in=members, player_id__in=players
    )
    for player_id, category_id in through.values_list("player_id", "category_id"):
        members[category_id].add(player_id)
    ranked = state.ranking()
    winners = {a.player for a in state.awards()}
    out = []
    for category in categories:
        prizes = [
            (int(p["place"]), p["description"])
            for p in t.category_prizes
            if int(p["category"]) == category.pk
        ]
        won = {
            p.place: p
            for p in ranking.category_awards(
                ranked, prizes, members[category.pk], winners, t.category_with_overall
            )
        }
        lines = [
            CategoryLine(
                place,
                description,
                state.cards[won[place].card] if place in won else None,
                won[place].first if place in won else None,
                won[place].last if place in won else None,
            )
            for place, description in sorted(prizes)
        ]
        out.append(CategoryList(category, lines))
    return out
