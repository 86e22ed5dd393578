"""The prize lists of a tournament as pages, printouts and the export show them: the
overall list (``overall_prizes``) and one list per category (``category_lists``,
RULES.md 5.9, two queries beside ``load_state``), each prize given (with its card) or
open with the ledger's reason (``tournaments.ledger``)."""

from dataclasses import dataclass

from clubs.models import Category, Player
from tournaments import formats, ledger, prizes
from tournaments.models import Card, Format, Tournament
from tournaments.services.reading import TournamentState


@dataclass(frozen=True)
class ListedPrize:
    """A line of a prize list: prize ``place``, its ``description``, the ``card`` (with
    its player) that won it, None while open; ``first``/``last``: the overall places of
    that card; ``open`` and ``range``: why it has no holder (``ledger.PrizeLine``)."""

    place: int
    description: str
    card: Card | None
    first: int | None = None
    last: int | None = None
    open: str = ""
    range: tuple[int, int] | None = None
    money: object = None  # the euros a money prize pays (``prizes.split``), None: goods


@dataclass(frozen=True)
class CategoryList:
    category: Category
    lines: list[ListedPrize]


def category_lists(state: TournamentState) -> list[CategoryList]:
    """One prize list per category the tournament has prizes for, in category order,
    every prize given or open (``ledger.category``, RULES.md 5.9): down the overall
    ranking among the category's players; with ``category_with_overall`` off, players
    with an overall prize are skipped."""
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
    over = t.format == Format.CARDS or formats.board(state).finished
    ranked = state.ranking() if over else []
    owners = {pk: c.player_id for pk, c in state.cards.items()}
    unplaced = ledger.unplaced_players(owners, ranked)
    out = []
    for category in categories:
        prizes = [
            (int(p["place"]), p["description"])
            for p in t.category_prizes
            if int(p["category"]) == category.pk
        ]
        lines = ledger.category(
            ranked,
            prizes,
            members[category.pk],
            unplaced,
            state.prize_lines,
            t.category_with_overall,
            state.withdrawn,
        )
        out.append(CategoryList(category, listed(state, lines)))
    return out


def listed(state: TournamentState, lines: list[ledger.PrizeLine]) -> list[ListedPrize]:
    """The ledger's ``lines`` with their cards read from ``state``."""
    return [
        ListedPrize(
            line.place,
            line.description,
            state.cards[line.card] if line.card is not None else None,
            line.first,
            line.last,
            line.open,
            line.range,
        )
        for line in lines
    ]


def undecided(state: TournamentState) -> list[tuple[tuple[int, int], list[str]]]:
    """The shared ranges a prize waits in (``ledger.SHARED``), best first, each with the
    prizes waiting there ("3", "Damen 1"): what the desk asks the organiser to decide
    by Stechen or lot (RULES.md 5.8)."""
    waiting: dict[tuple[int, int], list[str]] = {}
    for line in state.prize_lines:
        if line.open == ledger.SHARED and line.range is not None:
            waiting.setdefault(line.range, []).append(str(line.place))
    for lst in category_lists(state):
        for prize in lst.lines:
            if prize.open == ledger.SHARED and prize.range is not None:
                waiting.setdefault(prize.range, []).append(f"{lst.category.name} {prize.place}")
    return sorted(waiting.items())


def overall_prizes(state: TournamentState) -> list[ListedPrize]:
    """The overall prize list as the live bracket, the standings, the room screen and
    the prize list show it: every prize given or waiting (``ledger.PLAYING``,
    ``ledger.SHARED``), none that nobody is left to win; empty while no prize is given
    and none waits for a shared range (nothing to show yet)."""
    lines = [line for line in state.prize_lines if line.open != ledger.NOBODY]
    if not any(line.given or line.open == ledger.SHARED for line in lines):
        return []
    return listed(state, lines)


def money_split(t: Tournament, in_box) -> prizes.Split:
    """The prizes in money of ``t`` out of the takings ``in_box`` (``prizes.split``,
    RULES.md 5.5): the overall list, then each category's (one query when it has
    category prizes)."""
    lines = [("", int(p["place"]), p["description"]) for p in t.prizes]
    if t.category_prizes:
        names = dict(Category.objects.filter(club=t.club_id).values_list("pk", "name"))
        lines += [
            (names.get(int(p["category"]), ""), int(p["place"]), p["description"])
            for p in t.category_prizes
        ]
    return prizes.split(in_box, lines)
