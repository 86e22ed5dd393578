"""The rating core (``ratings.elo``) and how a sheet's games become rated games
(``ratings.outcomes``): hand-computed numbers and hypothesis properties, no database."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import elo
from ratings.chart import rating_chart
from ratings.elo import Game
from ratings.outcomes import places_by, sheet_games
from scoring import rules as core
from scoring.rules import DreierDeal, QuickDeal, TieBreak
from scoring.rules.presets import preset_data

T0 = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)


def two(ref: str, a: int, b: int, places=(0, 1), minutes: int = 0) -> Game[int]:
    return Game(T0 + timedelta(minutes=minutes), ref, "schnapsen", ((a,), (b,)), places)


# -- hand-computed games ---------------------------------------------------------------


def test_the_expected_score_is_the_elo_curve():
    assert elo.expected(1500, 1500) == 0.5
    assert elo.expected(1900, 1500) == pytest.approx(10 / 11)
    assert elo.expected(1400, 1600) == pytest.approx(1 / (1 + 10**0.5))


def test_a_first_game_between_newcomers_moves_each_by_half_of_k():
    rated = elo.rate([two("g1", 1, 2)])
    assert rated.ratings == {1: 1510.0, 2: 1490.0}
    assert rated.games == {1: 1, 2: 1}
    (step,) = rated.history
    assert [(c.participant, c.before, c.after) for c in step.changes] == [
        (1, 1500.0, 1510.0),
        (2, 1500.0, 1490.0),
    ]


def test_a_second_win_against_a_weaker_opponent_brings_less():
    rated = elo.rate([two("g1", 1, 2), two("g2", 1, 2, minutes=5)])
    # E = 1 / (1 + 10 ** (-20 / 400)) = 0.528751, change 20 * 0.471249 = 9.42498
    assert rated.ratings[1] == pytest.approx(1519.42498, abs=1e-5)
    assert rated.ratings[2] == pytest.approx(1480.57502, abs=1e-5)


def test_an_upset_moves_more_and_a_level_match_moves_the_stronger_down():
    upset = elo.step(two("g", 2, 1), {1: 1600.0, 2: 1400.0})
    assert upset.changes[0].delta == pytest.approx(20 * (1 - 1 / (1 + 10**0.5)))  # 15.19494
    level = elo.step(two("g", 1, 2, places=(0, 0)), {1: 1600.0, 2: 1400.0})
    assert level.changes[0].delta == pytest.approx(-5.19494, abs=1e-5)
    assert level.changes[1].delta == pytest.approx(5.19494, abs=1e-5)
    even = elo.step(two("g", 1, 2, places=(0, 0)), {})
    assert [c.delta for c in even.changes] == [0.0, 0.0]


def test_dreier_is_two_encounters_each_worth_half_of_k():
    game = Game(T0, "d", "dreierschnapsen", ((1,), (2,), (3,)), (0, 1, 2))
    assert [c.after for c in elo.step(game, {}).changes] == [1510.0, 1500.0, 1490.0]
    two_level = Game(T0, "d", "dreierschnapsen", ((1,), (2,), (3,)), (0, 0, 1))
    assert [c.after for c in elo.step(two_level, {}).changes] == [1505.0, 1505.0, 1490.0]


def test_bauern_teams_play_at_their_mean_and_each_partner_takes_the_whole_change():
    game = Game(T0, "b", "bauernschnapsen", ((1, 3), (2, 4)), (0, 1))
    ratings = {1: 1600.0, 3: 1400.0, 2: 1500.0, 4: 1500.0}  # both teams 1500
    assert [(c.participant, c.after) for c in elo.step(game, ratings).changes] == [
        (1, 1610.0),
        (3, 1410.0),
        (2, 1490.0),
        (4, 1490.0),
    ]


def test_variants_are_never_mixed_and_refs_are_unique():
    dreier = Game(T0, "d", "dreierschnapsen", ((1,), (2,), (3,)), (0, 1, 2))
    with pytest.raises(ValueError, match="variants"):
        elo.rate([two("g", 1, 2), dreier])
    with pytest.raises(ValueError, match="ref"):
        elo.rate([two("g", 1, 2), two("g", 3, 4, minutes=1)])


def test_a_game_needs_two_sides_with_a_place_each_and_nobody_twice():
    with pytest.raises(ValueError):
        Game(T0, "x", "schnapsen", ((1,),), (0,))
    with pytest.raises(ValueError):
        Game(T0, "x", "schnapsen", ((1,), (1,)), (0, 1))
    with pytest.raises(ValueError):
        Game(T0, "x", "schnapsen", ((1,), (2,)), (0,))


def test_games_of_one_time_are_rated_in_the_order_of_their_ref():
    first, second = two("a", 1, 2), two("b", 2, 3)
    assert elo.rate([second, first]).history == elo.rate([first, second]).history
    assert [s.game.ref for s in elo.rate([second, first]).history] == ["a", "b"]


def test_rerate_keeps_the_history_before_the_first_changed_game():
    games = [two("g1", 1, 2), two("g2", 2, 3, minutes=1), two("g3", 1, 3, minutes=2)]
    old = elo.rate(games)
    corrected = [games[0], two("g2", 2, 3, places=(1, 0), minutes=1), games[2]]
    at, rated = elo.rerate(old.history, corrected)
    assert at == 1
    assert rated.history[0] is old.history[0]
    assert rated == elo.rate(corrected)
    assert elo.rerate(old.history, games) == (3, old)  # nothing changed: nothing rated again


def test_remap_joins_the_players_of_one_person_and_leaves_out_a_game_against_himself():
    games = [two("g1", 1, 2), two("g2", 11, 3, minutes=1), two("g3", 1, 11, minutes=2)]
    person = {1: "anna", 11: "anna", 2: "ben", 3: "clara"}
    mapped = elo.remap(games, person.__getitem__)
    assert [g.ref for g in mapped] == ["g1", "g2"]
    assert elo.rate(mapped).games == {"anna": 2, "ben": 1, "clara": 1}


# -- properties ------------------------------------------------------------------------

PLAYERS = st.integers(1, 6)


@st.composite
def games(draw, variant: str = "schnapsen", sides: int = 2, size: int = 1, most: int = 12):
    """Games of ``variant`` among a few players, at a few times (ties of time happen),
    with refs unique."""
    found = []
    for n in range(draw(st.integers(0, most))):
        people = draw(st.lists(PLAYERS, min_size=sides * size, max_size=sides * size, unique=True))
        teams = tuple(tuple(people[i * size : (i + 1) * size]) for i in range(sides))
        places = tuple(draw(st.lists(st.integers(0, sides - 1), min_size=sides, max_size=sides)))
        minute = draw(st.integers(0, 5))
        ref = f"g{draw(st.integers(0, 999)):03d}-{n:02d}"
        found.append(Game(T0 + timedelta(minutes=minute), ref, variant, teams, places))
    return found


ANY_VARIANT = st.one_of(
    games(),
    games("dreierschnapsen", sides=3),
    games("bauernschnapsen", sides=2, size=2),
)


@given(games())
def test_two_player_games_are_zero_sum(history):
    rated = elo.rate(history)
    for step in rated.history:
        assert sum(c.delta for c in step.changes) == pytest.approx(0, abs=1e-9)
    assert sum(rated.ratings.values()) == pytest.approx(elo.START * len(rated.ratings))


@given(ANY_VARIANT)
def test_every_game_is_zero_sum_when_the_sides_are_of_one_size(history):
    for step in elo.rate(history).history:
        assert sum(c.delta for c in step.changes) == pytest.approx(0, abs=1e-9)


@given(games(), st.randoms())
def test_the_seating_of_a_game_does_not_change_the_ratings(history, rnd):
    """Symmetry: listing a game's sides in another order changes nobody's rating."""
    turned = []
    for game in history:
        order = list(range(len(game.sides)))
        rnd.shuffle(order)
        sides = tuple(game.sides[i] for i in order)
        turned.append(
            Game(game.time, game.ref, game.variant, sides, tuple(game.places[i] for i in order))
        )
    mine, theirs = elo.rate(history).ratings, elo.rate(turned).ratings
    assert mine.keys() == theirs.keys()
    for p in mine:
        assert theirs[p] == pytest.approx(mine[p], abs=1e-9)


@given(games(), st.randoms())
def test_a_winner_and_a_loser_swapped_mirror_the_change(history, rnd):
    for game in history:
        flipped = Game(game.time, game.ref, game.variant, game.sides, game.places[::-1])
        ratings = {p: 1500 + rnd.randint(-300, 300) for p in game.participants}
        (a, b), (c, d) = elo.step(game, ratings).changes, elo.step(flipped, ratings).changes
        if game.places[0] == game.places[1]:
            assert (a.delta, b.delta) == (c.delta, d.delta)
        else:
            assert abs(a.delta - c.delta) == pytest.approx(elo.K, abs=1e-9)


@given(ANY_VARIANT, st.randoms())
def test_the_order_the_games_come_in_does_not_matter(history, rnd):
    """Games are rated by (time, ref): equal times in the order of their ref."""
    shuffled = list(history)
    rnd.shuffle(shuffled)
    assert elo.rate(shuffled) == elo.rate(history)


@st.composite
def corrected(draw, history: list[Game[int]]):
    """``history`` after one correction: a game's outcome changed, a game gone (voided,
    struck out), a game added (played late, imported), a game's players changed (a
    merge), or several of these."""
    games = list(history)
    for n in range(draw(st.integers(1, 3))):
        what = draw(st.sampled_from(["places", "gone", "added", "players"]))
        if what == "added" or not games:
            (new,) = draw(games_strategy_one(games[0].variant if games else "schnapsen"))
            new = Game(new.time, f"new-{n}-{new.ref}", new.variant, new.sides, new.places)
            games.append(new)
            continue
        i = draw(st.integers(0, len(games) - 1))
        game = games[i]
        if what == "gone":
            del games[i]
        elif what == "places":
            places = tuple(draw(st.permutations(game.places)))
            if places == game.places:
                places = tuple(reversed(game.places))
            games[i] = Game(game.time, game.ref, game.variant, game.sides, places)
        else:
            people = draw(st.permutations(range(1, 7)))
            it = iter(people)
            sides = tuple(tuple(next(it) for _ in side) for side in game.sides)
            games[i] = Game(game.time, game.ref, game.variant, sides, game.places)
    return games


def games_strategy_one(variant: str):
    sides, size = {"schnapsen": (2, 1), "dreierschnapsen": (3, 1), "bauernschnapsen": (2, 2)}[
        variant
    ]
    return games(variant, sides=sides, size=size, most=1).filter(lambda found: len(found) == 1)


@settings(max_examples=300)
@given(st.data(), ANY_VARIANT)
def test_rerating_from_the_history_after_any_correction_equals_rating_from_scratch(data, history):
    """THE property of issue 30: keep the stored history before the first game the
    correction changed, rate from there; the ratings (and the whole history) are those
    of rating the corrected games from scratch."""
    stored = elo.rate(history).history
    now = data.draw(corrected(history))
    at, rated = elo.rerate(stored, now)
    scratch = elo.rate(now)
    assert rated == scratch
    assert rated.history[:at] == stored[:at]
    if at < min(len(stored), len(scratch.history)):
        assert stored[at].game != scratch.history[at].game


# -- a sheet's games as rated games ------------------------------------------------------


def test_places_are_dense_and_level_keys_share_a_place():
    assert places_by([(0, -30), (0, -20), (1, -5)]) == (0, 1, 2)
    assert places_by([(0, -25), (0, -25), (1, -5)]) == (0, 0, 1)


def _state(variant: str, entries: list, preset: str = "wiki") -> core.SheetState:
    return core.score_sheet(variant, core.RuleSet.from_dict(preset_data()[preset]), 0, entries)


def test_a_two_player_sheet_is_one_game_once_its_partie_is_decided():
    entries = [QuickDeal(1, 3)] * 3  # one Schneider Bummerl counts 2: the Partie
    times = [T0 + timedelta(minutes=i) for i in range(3)]
    assert sheet_games(_state("schnapsen", entries[:2]), [7, 8], 5, times[:2]) == []
    state = _state("schnapsen", entries)
    assert state.partie_winner == 1
    (game,) = sheet_games(state, [7, 8], 5, times)
    assert (game.ref, game.sides, game.places) == ("sheet:000000005", ((7,), (8,)), (1, 0))
    assert game.time == times[2]


def test_a_dreier_game_places_the_loser_last_and_the_others_by_their_points():
    # the Rufer wins a normal game for 3 each deal, up to 24
    entries = []
    state = _state("dreierschnapsen", entries)
    while not state.games:
        entries.append(DreierDeal("normal", state.rufer, True, 0, 3))
        state = _state("dreierschnapsen", entries)
        if state.awaiting_tiebreak:
            entries.append(TieBreak(state.awaiting_tiebreak[0]))
            state = _state("dreierschnapsen", entries)
    (game,) = sheet_games(state, [1, 2, 3], 9, [T0] * len(entries))
    final, (loser,) = state.games[0].final, state.games[0].losers
    assert game.ref == "sheet:000000009:000"
    assert game.places[loser] == max(game.places)
    best = max(range(3), key=lambda s: final[s])
    assert game.places[best] == 0


def test_a_bauern_game_is_team_against_team():
    entries = []
    state = _state("bauernschnapsen", entries, "bauern")
    while not state.games:
        entries.append(DreierDeal("normal", state.rufer, True, 0, 3))
        state = _state("bauernschnapsen", entries, "bauern")
    (game,) = sheet_games(state, [1, 2, 3, 4], 4, [T0] * len(entries))
    assert game.sides == ((1, 3), (2, 4))
    assert game.places == ((1, 0) if 0 in state.games[0].losers else (0, 1))


def test_the_chart_spans_the_ratings_and_marks_the_start():
    svg = rating_chart([1500.0, 1510.0, 1490.0], ["01.03.2025", "08.03.2025"], "Schnapsen", 1500)
    assert svg.startswith('<svg class="chart rating-chart"') and "stroke-dasharray" in svg
    assert ">1480<" in svg and ">1520<" in svg and "08.03.2025" in svg
    assert rating_chart([], [], "x", 1500) == ""


def test_equal_shown_ratings_share_the_place_of_the_first_of_them():
    """RULES.md 7: ties share a rank, on the club's and the cup's rating lists alike."""
    assert elo.shared_places([1520, 1500, 1500, 1490, 1490, 1490, 1480]) == [1, 2, 2, 4, 4, 4, 7]
    assert elo.shared_places([1500]) == [1]
    assert elo.shared_places([]) == []
