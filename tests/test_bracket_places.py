"""Places and prizes of small and byed nights (RULES.md 5.1, 5.5, 5.8), pure Python.

Nights of 8 cards (the quarter-final is round 1) and of 4 cards (lowered from 8: the
semi-final is round 1) have byes in the rounds that feed the placement matches; every
card sold still gets a place and every prize that has a holder is given. No database.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import bracket, draw
from tournaments.bracket import Match, RoundState
from tournaments.prizes import award

PRIZES = [(p, f"P{p}") for p in range(1, 9)]


def qf(*matches: Match) -> RoundState:
    return RoundState(1, bracket.QUARTER_FINAL, matches)


def won(number: int, left: int, right: int, winner: int | None = None) -> Match:
    return Match(number, "match", left, right, left if winner is None else winner)


def bye(number: int, card: int, label: str = "") -> Match:
    return Match(number, "bye", card, None, None, label)


# --- RULES.md 5.1: lowering ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("sold", "cards"), [(2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (400, 512)]
)
def test_lowering_offers_the_smallest_power_of_two_that_holds_the_cards_sold(sold, cards):
    assert draw.smallest_cards(sold) == cards


def test_three_cards_sold_of_eight_are_offered_four():
    with pytest.raises(draw.DrawError) as caught:
        draw.check_can_draw_round_one(8, 3)
    assert caught.value.params["offer"] == 4
    assert str(caught.value) == (
        "cards: Only 3 of 8 cards are sold: the draw needs more than half. "
        "Lower the number of cards to 4."
    )
    draw.check_can_draw_round_one(4, 3)
    draw.check_can_draw_round_one(2, 2)


@pytest.mark.parametrize("sold", [0, 1])
def test_fewer_than_two_cards_sold_say_how_many_more_to_sell(sold):
    with pytest.raises(draw.DrawError) as caught:
        draw.check_can_draw_round_one(8, sold)
    assert "offer" not in caught.value.params
    assert str(caught.value) == (
        f"cards: Cards sold: {sold}. A draw needs at least 2: sell {2 - sold} more to start."
    )


# --- RULES.md 5.5: placement matches with byes -------------------------------------------


def test_three_quarter_final_losers_draw_one_5_to_8_match_and_a_bye():
    # 7 of 8 cards: one bye in round 1; cards 1, 3, 5 won, 7 had the bye.
    quarter = qf(won(1, 1, 2), won(2, 3, 4), won(3, 5, 6), bye(4, 7))
    semi = RoundState(2, bracket.SEMI_FINAL, ())
    assert bracket.placement_due([quarter, semi], []) == [("5-8", (2, 4, 6))]
    assert draw.placement_pairs([2, 4, 6], seed=1) in (
        ((2, 4), (6, None)),
        ((2, 6), (4, None)),
        ((4, 6), (2, None)),
    )
    firsts = [Match(1, "match", 2, 4, 4, "5-8"), bye(2, 6, "5-8")]
    assert bracket.placement_due([quarter, semi], firsts) == [("5", (4, 6))]
    five = Match(4, "match", 4, 6, 6, "5")
    assert bracket.places([quarter, semi], [*firsts, five]) == {5: 6, 6: 4, 7: 2}


def test_the_5_to_8_bye_is_drawn_and_can_fall_to_any_of_the_three_losers():
    seen = {draw.placement_pairs([2, 4, 6], seed)[1][0] for seed in range(40)}
    assert seen == {2, 4, 6}


def test_the_5_to_8_bye_goes_so_that_nobody_meets_himself():
    owners = {2: 1, 4: 1, 6: 2}
    for seed in range(20):
        (a, b), (c, _none) = draw.placement_pairs([2, 4, 6], seed, owners)
        assert owners[a] != owners[b]
        assert c in (2, 4)


def test_two_quarter_final_losers_play_for_5_and_6_at_once():
    quarter = qf(won(1, 1, 2), won(2, 3, 4), bye(3, 5), bye(4, 6))
    semi = RoundState(2, bracket.SEMI_FINAL, ())
    assert bracket.placement_due([quarter, semi], []) == [("5", (2, 4))]
    five = Match(4, "match", 2, 4, 4, "5")
    assert bracket.places([quarter, semi], [five]) == {5: 4, 6: 2}


def test_a_lone_quarter_final_loser_is_fifth_without_a_match():
    quarter = qf(won(1, 1, 2), bye(2, 3), bye(3, 4), bye(4, 5))
    assert bracket.places([quarter], []) == {}  # the semi-final is not drawn yet
    semi = RoundState(2, bracket.SEMI_FINAL, ())
    assert bracket.placement_due([quarter, semi], []) == []
    assert bracket.places([quarter, semi], []) == {5: 2}


def test_a_four_card_night_with_three_sold_places_three_cards():
    semi = RoundState(1, bracket.SEMI_FINAL, (won(1, 1, 2, winner=2), bye(2, 3)))
    final = RoundState(2, bracket.FINAL, (won(1, 2, 3, winner=3),))
    assert bracket.placement_due([semi, final], []) == []
    assert bracket.places([semi, final], []) == {1: 3, 2: 2, 3: 1}


def test_a_two_card_night_is_its_final():
    final = RoundState(1, bracket.FINAL, (won(1, 1, 2, winner=2),))
    assert bracket.placement_due([final], []) == []
    assert bracket.places([final], []) == {1: 2, 2: 1}


# --- RULES.md 5.8: shared places; prizes passed down into them -----------------------------


def test_cards_out_in_the_same_round_share_a_place_range_in_card_order():
    r16 = RoundState(1, 8, tuple(won(n, 10 + n, 30 - n) for n in range(1, 9)))
    quarter = RoundState(2, bracket.QUARTER_FINAL, ())
    numbers = {30 - n: 100 - n for n in range(1, 9)}  # card 29 has the highest number
    assert bracket.shared_places([r16, quarter], numbers) == [
        (9, 16, card) for card in (22, 23, 24, 25, 26, 27, 28, 29)
    ]
    assert bracket.shared_places([r16], numbers) == []  # the quarter-final is not drawn


def test_one_prize_per_player_passes_past_eight_into_the_shared_range():
    # Player 1 holds places 1 and 3 to 8: prizes 2 and 3 go to players 2 and 9, then
    # the range 9-16 (players 10, 11 … in card order) takes prizes 4 to 8.
    places = {1: (1, 1), 2: (2, 2), **{p: (p, 1) for p in range(3, 8)}, 8: (8, 9)}
    shared = [(9, 100 + i, 10 + i) for i in range(8)]
    awards = award(places, PRIZES, True, shared)
    assert [(a.place, a.player, a.finished) for a in awards] == [
        (1, 1, 1),
        (2, 2, 2),
        (3, 9, 8),
        (4, 10, 9),
        (5, 11, 9),
        (6, 12, 9),
        (7, 13, 9),
        (8, 14, 9),
    ]


def test_a_shared_range_waits_until_every_place_before_it_is_known():
    places = {1: (1, 1), 2: (2, 1)}
    shared = [(9, 100, 10)]
    awards = award(places, PRIZES, True, shared)
    assert [(a.place, a.player) for a in awards] == [(1, 1)]


# --- Property: whole nights ---------------------------------------------------------------


def play_night(cards: int, owners: dict[int, int], rng: random.Random):
    """Every round drawn digitally and every match (main and placement) decided at
    random, placement matches made as the services make them."""
    sold = sorted(owners)
    rounds: list[RoundState] = []
    placement: list[Match] = []

    def decide(number, kind, left, right, label=""):
        winner = rng.choice((left, right)) if kind == "match" else None
        return Match(number, kind, left, right, winner, label)

    def make_placement():
        while due := bracket.placement_due(rounds, placement):
            for label, due_cards in due:
                if label == "5-8":
                    pairs = draw.placement_pairs(list(due_cards), rng.getrandbits(32), owners)
                    numbers = (1, 2)
                else:
                    pairs, numbers = (tuple(due_cards),), ({"3": 3, "5": 4, "7": 5}[label],)
                for number, (left, right) in zip(numbers, pairs, strict=True):
                    if right is None:
                        kind = "bye"
                    elif owners[left] == owners[right]:
                        kind = "walkover"
                    else:
                        kind = "match"
                    placement.append(decide(number, kind, left, right, label))

    while (pot := bracket.next_pot_size(rounds, cards)) is not None:
        holders = bracket.holders(owners, bracket.cards_in_play(rounds, sold))
        result = draw.digital_draw(holders, pot, rng.getrandbits(32), bool(rounds))
        matches = tuple(decide(p.number, str(p.kind), p.left, p.right) for p in result.pairings)
        rounds.append(RoundState(len(rounds) + 1, pot, matches))
        make_placement()
    return rounds, placement


nights = st.sampled_from([2, 4, 8, 16]).flatmap(
    lambda cards: st.tuples(
        st.just(cards),
        st.integers(cards // 2 + 1, cards),
        st.integers(1, 3),
        st.integers(0, 2**32),
    )
)


@settings(max_examples=150, deadline=None)
@given(nights, st.booleans())
def test_every_card_sold_gets_a_place_and_every_prize_with_a_holder_is_given(night, one_each):
    cards, sold, most, seed = night
    rng = random.Random(seed)
    owners: dict[int, int] = {}
    player = 0
    while len(owners) < sold:
        player += 1
        for _ in range(min(rng.randint(1, most), sold - len(owners))):
            owners[len(owners) + 1] = player
    rounds, placement = play_night(cards, owners, rng)
    places = bracket.places(rounds, placement)
    shared = bracket.shared_places(rounds)
    assert sorted(places) == list(range(1, min(sold, 8) + 1))
    placed = list(places.values()) + [card for _f, _l, card in shared]
    assert sorted(placed) == sorted(owners)  # each card sold exactly once
    # On 16 cards the round-1 losers share 9 to S; smaller nights place every card alone.
    assert [(f, last) for f, last, _c in shared] == [(9, sold)] * (sold - 8 if cards == 16 else 0)
    awards = award(
        {p: (c, owners[c]) for p, c in places.items()},
        PRIZES,
        one_each,
        [(f, c, owners[c]) for f, _l, c in shared],
    )
    players = len(set(owners.values()))
    expected = min(8, players) if one_each else min(8, sold)
    assert [a.place for a in awards] == list(range(1, expected + 1))
    if one_each:
        assert len({a.player for a in awards}) == expected
