"""Leben (RULES.md 5.10), the pure core: the fresh draw of each round from one pot, the
fair byes, lives, the final of the last two and the places in reverse order of going
out. No database."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.leben import Played, next_round_alive, pair_round, standing


def play_event(size: int, lives: int, seed: int, check=None) -> tuple[list[Played], object]:
    """A whole event by chance: every round drawn by ``pair_round``, every match won at
    random; ``check(alive, byes, pairs, bye)`` is called after each draw."""
    rng = random.Random(seed)
    entries = {e: lives for e in range(1, size + 1)}
    rounds: list[Played] = []
    while True:
        result = standing(entries, rounds)
        alive = next_round_alive(result, rounds)
        if alive is None:
            return rounds, result
        byes = result.byes()
        pairs, bye = pair_round(alive, byes, rng.getrandbits(32))
        if check:
            check(alive, byes, pairs, bye)
        rounds.append(
            Played(
                len(rounds) + 1,
                tuple((a, b, rng.choice((a, b))) for a, b in pairs),
                bye,
            )
        )


@settings(max_examples=1000, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 120), lives=st.integers(1, 3))
def test_no_second_bye_while_an_alive_player_has_none(seed, size, lives):
    def check(alive, byes, pairs, bye):
        drawn = [e for pair in pairs for e in pair] + ([bye] if bye is not None else [])
        assert sorted(drawn) == sorted(alive)  # every alive player once, nobody else
        assert (bye is None) == (len(alive) % 2 == 0)
        if bye is not None:
            assert byes.get(bye, 0) == min(byes.get(e, 0) for e in alive)

    rounds, result = play_event(size, lives, seed, check)
    assert result.finished
    places = sorted((line.place, line.place_to) for line in result.lines.values())
    covered = sorted(p for first, last in set(places) for p in range(first, last + 1))
    assert covered == list(range(1, size + 1))  # every place given once, ranges shared
    assert result.lines[result.winner].place == 1


def test_a_loss_costs_a_life_and_at_zero_the_player_is_out():
    rounds = [Played(1, ((1, 2, 1), (3, 4, 3))), Played(2, ((1, 3, 3), (2, 4, 4)))]
    result = standing({1: 2, 2: 2, 3: 2, 4: 2}, rounds)
    assert {e: line.left for e, line in result.lines.items()} == {1: 1, 2: 0, 3: 2, 4: 1}
    assert result.lines[2].out_round == 2
    assert result.alive == [1, 3, 4]
    assert not result.finished


def test_a_bye_counts_as_a_win_and_costs_no_life():
    result = standing({1: 1, 2: 1, 3: 1}, [Played(1, ((1, 2, 1),), bye=3)])
    assert result.lines[3].byes == 1 and result.lines[3].left == 1
    assert result.alive == [1, 3]


def test_the_last_two_play_the_final_whatever_lives_they_have():
    rounds = [Played(1, ((1, 2, 1),), bye=3), Played(2, ((1, 3, 3),))]
    result = standing({1: 3, 2: 1, 3: 3}, rounds)
    assert result.finished and result.winner == 3
    assert (result.lines[1].place, result.lines[1].place_to) == (2, 2)
    assert (result.lines[2].place, result.lines[2].place_to) == (3, 3)


def test_players_out_in_the_same_round_share_a_place_range():
    # Round 1: 2 and 4 lose their only life; round 2: 5 v 6 with 1 and 3 ... a field of 6.
    rounds = [
        Played(1, ((1, 2, 1), (3, 4, 3), (5, 6, 5))),
    ]
    result = standing(dict.fromkeys(range(1, 7), 1), rounds)
    assert {e: (result.lines[e].place, result.lines[e].place_to) for e in (2, 4, 6)} == {
        2: (4, 6),
        4: (4, 6),
        6: (4, 6),
    }
    assert result.lines[1].place is None  # still in


def test_one_left_alive_wins_without_a_final():
    result = standing({1: 1, 2: 1}, [Played(1, ((1, 2, 2),))])
    assert result.finished and result.winner == 2
    assert next_round_alive(result, [Played(1, ((1, 2, 2),))]) is None


def test_no_round_is_drawn_while_matches_are_open():
    rounds = [Played(1, ((1, 2, None), (3, 4, 3)))]
    result = standing(dict.fromkeys(range(1, 5), 2), rounds)
    assert next_round_alive(result, rounds) is None


def test_the_draw_replays_from_its_seed_and_ignores_the_order_given():
    byes = {3: 1}
    assert pair_round([5, 1, 4, 2, 3], byes, 99) == pair_round([1, 2, 3, 4, 5], byes, 99)
    pairs, bye = pair_round([1, 2, 3, 4, 5], byes, 99)
    assert bye != 3  # 3 had a bye, the others none


def test_the_bye_is_drawn_among_those_with_the_fewest_byes():
    seen = {pair_round(range(1, 6), {1: 1, 2: 1}, s)[1] for s in range(200)}
    assert seen == {3, 4, 5}


def test_a_round_needs_two_players():
    with pytest.raises(ValueError):
        pair_round([7], {}, 1)
