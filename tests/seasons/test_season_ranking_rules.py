"""The ranking rules of RULES.md 7, on the pure core ``seasons.ranking``: Bummerl per
game (fewer is better) from a minimum of games, tournament points by the points key,
ties sharing a rank, and one order within a tie (German name order, then id)."""

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from base.errors import RuleError
from base.text import german_key
from seasons import ranking
from seasons.ranking import KeyLine, Row


def row(pk, name, games=0, bummerl=0, points=0, tournaments=0):
    return Row(
        pk,
        name,
        german_key(name),
        games=games,
        bummerl=bummerl,
        points=points,
        tournaments=tournaments,
    )


def test_bummerl_per_game_ranks_fewest_first_and_ties_share_the_rank():
    rows = [
        row(1, "Zita", games=10, bummerl=5),
        row(2, "Ömer", games=20, bummerl=10),  # 0.5 like Zita and Anna
        row(3, "anna", games=4, bummerl=2),
        row(4, "Ben", games=10, bummerl=1),
        row(5, "Olga", games=10, bummerl=9),
    ]
    ranked = ranking.by_bummerl_per_game(rows, min_games=4)
    assert [(r.name, r.rank, r.per_game) for r in ranked] == [
        ("Ben", 1, Fraction(1, 10)),
        ("anna", 2, Fraction(1, 2)),  # German order within the tie: anna, Ömer, Zita
        ("Ömer", 2, Fraction(1, 2)),
        ("Zita", 2, Fraction(1, 2)),
        ("Olga", 5, Fraction(9, 10)),
    ]


def test_fewer_games_than_the_minimum_are_listed_after_the_ranked_without_rank():
    rows = [
        row(1, "Dora", games=3, bummerl=0),
        row(2, "Emil", games=12, bummerl=6),
        row(3, "Carl", games=0),
        row(4, "Berta", games=3, bummerl=3),
    ]
    ranked = ranking.by_bummerl_per_game(rows, min_games=10)
    assert [(r.name, r.rank) for r in ranked] == [
        ("Emil", 1),
        ("Berta", None),
        ("Carl", None),
        ("Dora", None),
    ]


def test_a_minimum_of_zero_still_needs_a_game_to_rank():
    ranked = ranking.by_bummerl_per_game([row(1, "Carl"), row(2, "Anna", games=1)], 0)
    assert [(r.name, r.rank) for r in ranked] == [("Anna", 1), ("Carl", None)]


def test_tournament_points_rank_most_first_among_those_who_took_part():
    rows = [
        row(1, "Anna", points=25, tournaments=1),
        row(2, "Ben", points=36, tournaments=2),
        row(3, "Clara", points=25, tournaments=2),
        row(4, "Dora", points=0, tournaments=0),
    ]
    assert [(r.name, r.rank) for r in ranking.by_points(rows)] == [
        ("Ben", 1),
        ("Anna", 2),
        ("Clara", 2),
        ("Dora", None),
    ]


KEY = ranking.parse_key("1: 25\n2: 20\n3: 16\n4: 13\n5-8: 10\n9–16 = 5")


@pytest.mark.parametrize(
    ("places", "points"),
    [((1, 1), 25), ((4, 4), 13), ((7, 7), 10), ((9, 16), 5), ((17, 32), 1), (None, 1)],
)
def test_points_by_place_from_the_key_at_least_the_participation(places, points):
    assert ranking.points_for(places, KEY, participation=1) == points


def test_the_key_reads_places_and_ranges_and_writes_them_back():
    assert KEY[4] == KeyLine(5, 8, 10)
    assert KEY[5] == KeyLine(9, 16, 5)
    assert ranking.parse_key(ranking.key_text(KEY)) == KEY


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("1: 25\nzwei: 20", 2),
        ("1 25", 1),
        ("0: 5", 1),
        ("8-5: 3", 1),
        ("1: -3", 1),
        ("1: 25\n5-8: 10\n7: 3", 3),
    ],
)
def test_a_key_line_that_cannot_be_read_is_refused_naming_the_line(text, line):
    with pytest.raises(RuleError) as error:
        ranking.parse_key(text)
    assert error.value.field == "points_key"
    assert error.value.params["line"] == line


PROPERTY = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""The machine may be busy: generating 40 rows must not fail a property by its speed."""

rows_strategy = st.lists(
    st.builds(
        row,
        pk=st.integers(1, 10_000),
        name=st.sampled_from(["Anna", "anna", "Ärger", "Ben", "Öhl", "Zita", "Ober"]),
        games=st.integers(0, 6),
        bummerl=st.integers(0, 6),
    ),
    max_size=40,
    unique_by=lambda r: r.player_id,
)


@PROPERTY
@given(rows_strategy, st.integers(0, 4), st.randoms(use_true_random=False))
def test_property_the_ranking_does_not_depend_on_the_order_rows_come_in(rows, minimum, rnd):
    shuffled = list(rows)
    rnd.shuffle(shuffled)
    assert ranking.by_bummerl_per_game(shuffled, minimum) == ranking.by_bummerl_per_game(
        rows, minimum
    )


@PROPERTY
@given(rows_strategy, st.integers(0, 4))
def test_property_ties_share_a_rank_and_a_rank_counts_the_better_rows(rows, minimum):
    ranked = ranking.by_bummerl_per_game(rows, minimum)
    placed = [r for r in ranked if r.rank is not None]
    for r in placed:
        assert r.rank == 1 + sum(1 for o in placed if o.per_game < r.per_game)
    for a, b in zip(ranked, ranked[1:], strict=False):
        if a.rank is not None and b.rank is not None and a.per_game == b.per_game:
            assert a.rank == b.rank and a.order_key < b.order_key
        if a.rank is None:
            assert b.rank is None and a.order_key < b.order_key


@PROPERTY
@given(rows_strategy)
def test_property_the_ranking_keeps_every_row_once(rows):
    """Every player of the input is in the ranking once (the pages of the ranking page,
    its exports and its printout are checked on the web:
    ``test_ties_keep_one_order_on_every_page_in_every_export_and_in_the_printout``)."""
    whole = ranking.by_bummerl_per_game(rows, 2)
    assert sorted(r.player_id for r in whole) == sorted(r.player_id for r in rows)


def test_a_shuffled_field_of_two_hundred_ranks_the_same():
    rnd = random.Random(3)
    rows = [row(i, f"Spieler {i % 17}", games=10, bummerl=i % 5) for i in range(200)]
    expected = ranking.by_bummerl_per_game(rows, 10)
    rnd.shuffle(rows)
    assert ranking.by_bummerl_per_game(rows, 10) == expected
