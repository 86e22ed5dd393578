"""The cup's standings, the pure core (``cups.standings``): best n of m, ties, categories
and qualifying, named after the rules they prove."""

from hypothesis import given
from hypothesis import strategies as st

from cups.standings import Entrant, Score, cut, dropped_nights, in_category, qualifiers, standings


def people(*names: str, categories: dict[str, set[str]] | None = None) -> dict[str, Entrant]:
    categories = categories or {}
    return {
        name: Entrant(
            name,
            name,
            name.casefold().replace("ö", "o"),
            number,
            frozenset(categories.get(name, set())),
        )
        for number, name in enumerate(names, start=1)
    }


def table(lines) -> list[tuple]:
    """Each line as (rank, name, [points or None, struck], total)."""
    return [
        (
            line.rank,
            line.entrant.name,
            [(c.points, c.dropped) if c.dropped else c.points for c in line.cells],
            line.total,
        )
        for line in lines
    ]


def scores(rows: dict[str, list[int | None]]) -> list[Score]:
    """``{"Anna": [25, None, 3]}``: Anna's points of nights 1, 2, 3 (None: absent)."""
    return [
        Score(name, night, points)
        for name, row in rows.items()
        for night, points in enumerate(row, start=1)
        if points is not None
    ]


NIGHTS = [1, 2, 3, 4]


def test_best_two_of_four_count_and_the_lowest_is_struck():
    entrants = people("Anna", "Ben", "Clara")
    found = standings(
        NIGHTS,
        entrants,
        scores(
            {"Anna": [25, 3, 20, None], "Ben": [20, 20, 1, 25], "Clara": [None, 16, None, None]}
        ),
        best_of=2,
    )
    assert table(found) == [
        (1, "Anna", [25, (3, True), 20, None], 45),
        (1, "Ben", [20, (20, True), (1, True), 25], 45),
        (3, "Clara", [None, 16, None, None], 16),
    ]


def test_equal_totals_share_the_rank_and_sort_by_name_in_german_order():
    entrants = people("Ölz", "Oberer", "Anna", "Zach")
    found = standings(
        [1, 2],
        entrants,
        scores({"Ölz": [10, 5], "Oberer": [15, None], "Anna": [5, 10], "Zach": [20, 1]}),
    )
    assert table(found) == [
        (1, "Zach", [20, 1], 21),
        (2, "Anna", [5, 10], 15),
        (2, "Oberer", [15, None], 15),
        (2, "Ölz", [10, 5], 15),
    ]


def test_of_equal_points_the_later_night_is_struck():
    found = standings(NIGHTS, people("Anna"), scores({"Anna": [10, 10, 25, 10]}), best_of=2)
    assert table(found) == [(1, "Anna", [10, (10, True), 25, (10, True)], 35)]
    assert dropped_nights([(0, 10), (1, 10), (2, 25), (3, 10)], 2) == {1, 3}


def test_nights_not_played_count_nothing_and_drop_nothing():
    found = standings(NIGHTS, people("Ben"), scores({"Ben": [None, 13, None, 1]}), best_of=3)
    assert table(found) == [(1, "Ben", [None, 13, None, 1], 14)]
    assert found[0].played == 2


def test_without_best_of_every_night_counts():
    found = standings(NIGHTS, people("Anna"), scores({"Anna": [1, 2, 3, 4]}), best_of=None)
    assert table(found) == [(1, "Anna", [1, 2, 3, 4], 10)]


def test_two_cards_of_one_night_count_the_best_once():
    two = [Score("Anna", 1, 5), Score("Anna", 1, 20), Score("Ben", 1, 16)]
    assert table(standings([1], people("Anna", "Ben"), two)) == [
        (1, "Anna", [20], 20),
        (2, "Ben", [16], 16),
    ]


def test_standings_after_night_k_read_only_the_first_k_nights():
    rows = scores({"Anna": [25, 1, None], "Ben": [1, 25, 25]})
    entrants = people("Anna", "Ben")
    assert table(standings([1], entrants, rows)) == [(1, "Anna", [25], 25), (2, "Ben", [1], 1)]
    assert table(standings([1, 2], entrants, rows)) == [
        (1, "Anna", [25, 1], 26),
        (1, "Ben", [1, 25], 26),
    ]
    assert [line.entrant.name for line in standings([1, 2, 3], entrants, rows)] == ["Ben", "Anna"]


def test_a_category_table_ranks_its_players_among_themselves():
    entrants = people("Anna", "Ben", "Clara", categories={"Anna": {"damen"}, "Clara": {"damen"}})
    overall = standings([1], entrants, scores({"Anna": [16], "Ben": [25], "Clara": [20]}))
    assert table(in_category(overall, "Damen")) == [(1, "Clara", [20], 20), (2, "Anna", [16], 16)]
    assert in_category(overall, "Jugend") == []


def test_the_top_n_qualify_and_everyone_level_at_the_cut_too():
    entrants = people("Anna", "Ben", "Clara", "Dora", "Emil")
    rows = scores({"Anna": [25], "Ben": [20], "Clara": [16], "Dora": [16], "Emil": [10]})
    found = qualifiers([1], {}, entrants, rows, best_of=None, top=3, per_heat=None)
    assert [(q.line.rank, q.line.entrant.name, q.overall) for q in found] == [
        (1, "Anna", True),
        (2, "Ben", True),
        (3, "Clara", True),
        (3, "Dora", True),
    ]
    assert [line.entrant.name for line in cut(standings([1], entrants, rows), 2)] == ["Anna", "Ben"]


def test_the_top_k_of_each_heat_qualify_by_their_points_in_that_heat():
    entrants = people("Anna", "Ben", "Clara", "Dora", "Emil", "Franz")
    rows = scores(
        {
            "Anna": [25, None, 20, None],
            "Ben": [20, None, None, None],
            "Clara": [10, None, 10, None],  # 20 in heat Nord, level with Ben: both in
            "Dora": [None, 25, None, None],
            "Emil": [None, 16, None, 25],  # 41 in Süd
            "Franz": [None, 20, None, 1],
        }
    )
    heats = {1: "Nord", 2: "Süd", 3: "Nord", 4: "Süd"}
    found = qualifiers(NIGHTS, heats, entrants, rows, best_of=None, top=None, per_heat=2)
    assert [(q.line.entrant.name, q.heats) for q in found] == [
        ("Anna", ("Nord",)),
        ("Emil", ("Süd",)),
        ("Dora", ("Süd",)),
        ("Ben", ("Nord",)),
        ("Clara", ("Nord",)),
    ]
    assert [q.line.entrant.name for q in found if q.line.entrant.name == "Franz"] == []


def test_top_n_and_heats_together_qualify_each_player_once():
    entrants = people("Anna", "Ben", "Clara")
    rows = scores({"Anna": [25, None], "Ben": [20, 1], "Clara": [None, 22]})
    found = qualifiers([1, 2], {1: "A", 2: "B"}, entrants, rows, best_of=None, top=1, per_heat=1)
    assert [(q.line.entrant.name, q.overall, q.heats) for q in found] == [
        ("Anna", True, ("A",)),
        ("Clara", False, ("B",)),
    ]


def test_nobody_qualifies_without_a_cut():
    rows = scores({"Anna": [25]})
    assert qualifiers([1], {}, people("Anna"), rows, best_of=None, top=None, per_heat=None) == []


points = st.lists(st.one_of(st.none(), st.integers(0, 30)), min_size=1, max_size=8)


@given(
    st.dictionaries(st.sampled_from(["Anna", "Ben", "Clara", "Dora"]), points, min_size=1),
    st.one_of(st.none(), st.integers(1, 8)),
)
def test_best_n_of_m_keeps_the_n_highest_and_ranks_by_total(rows, best_of):
    length = max(len(row) for row in rows.values())
    nights = list(range(1, length + 1))
    entrants = people("Anna", "Ben", "Clara", "Dora")
    found = standings(nights, entrants, scores(rows), best_of)
    for line in found:
        played = [c.points for c in line.cells if c.points is not None]
        counted = [c.points for c in line.cells if c.points is not None and not c.dropped]
        struck = [c.points for c in line.cells if c.dropped]
        n = len(played) if best_of is None else min(best_of, len(played))
        assert len(counted) == n and line.played == len(played)
        assert line.total == sum(sorted(played, reverse=True)[:n]) == sum(counted)
        assert all(s <= c for s in struck for c in counted)
    assert [line.total for line in found] == sorted((line.total for line in found), reverse=True)
    for before, after in zip(found, found[1:], strict=False):
        if before.total == after.total:
            assert after.rank == before.rank and before.order_key < after.order_key
        else:
            assert after.rank == found.index(after) + 1
