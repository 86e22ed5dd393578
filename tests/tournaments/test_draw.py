"""The two-pot draw of a Preisschnapsen (RULES.md 5.1, 5.2, 5.4, 5.5).

The small examples are worked out by hand from RULES.md: the pulls are typed in as at
the venue, so the expected pairings follow from the rules alone. The properties check
every digital draw against the rules pull by pull with a checker written from RULES.md
(not from the engine), and play whole nights round after round. No database.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import RuleError
from tournaments.draw import (
    Draw,
    DrawError,
    DrawSession,
    Holder,
    Kind,
    Pairing,
    Pot,
    Pull,
    canonical,
    check_can_draw_round_one,
    digital_draw,
    draw_order,
    order_from_pulls,
    physical_order,
    placement_pairs,
    replay,
    smallest_cards,
)

PROPERTY = settings(max_examples=100, deadline=None)
CARD_COUNTS = [8, 16, 32, 64, 128, 256, 512, 1024]

# Players of the hand-worked examples; card ids are 10 and up.
ANNA, BEN, CLARA, DORA, EMIL = 1, 2, 3, 4, 5

M, B, W = Kind.MATCH, Kind.BYE, Kind.WALKOVER
L, R = Pot.LEFT, Pot.RIGHT


def pairs(draw: Draw) -> list[tuple[int, int | None, int | None, Kind]]:
    return [(p.number, p.left, p.right, p.kind) for p in draw.pairings]


# --- RULES.md 5.1: how many cards ------------------------------------------------------------


@pytest.mark.parametrize(
    ("sold", "cards"),
    [(0, 2), (1, 2), (3, 4), (5, 8), (8, 8), (9, 16), (16, 16), (17, 32), (400, 512), (1000, 1024)],
)
def test_smallest_cards_is_the_next_power_of_two_and_at_least_two(sold, cards):
    assert smallest_cards(sold) == cards


def test_draws_with_more_than_half_sold():
    check_can_draw_round_one(32, 17)
    check_can_draw_round_one(32, 32)
    check_can_draw_round_one(8, 5)
    check_can_draw_round_one(1024, 513)


def test_refuses_with_half_or_fewer_sold_and_offers_a_lower_count():
    with pytest.raises(DrawError) as caught:
        check_can_draw_round_one(64, 20)
    error = caught.value
    assert isinstance(error, RuleError)
    assert error.field == "cards"
    assert error.params["offer"] == 32
    assert str(error) == (
        "cards: Only 20 of 64 cards are sold: the draw needs more than half. "
        "Lower the number of cards to 32."
    )
    # Exactly half is refused too; all 16 sold fill 16 cards without a bye.
    with pytest.raises(DrawError) as caught:
        check_can_draw_round_one(32, 16)
    assert caught.value.params["offer"] == 16


def test_refuses_too_few_for_even_the_smallest_draw():
    with pytest.raises(DrawError) as caught:
        check_can_draw_round_one(16, 1)
    assert caught.value.field == "cards"
    assert "offer" not in caught.value.params
    assert "at least 2" in str(caught.value)


@pytest.mark.parametrize("cards", [0, 1, 12, 48, 2048])
def test_card_count_must_be_a_power_of_two_from_2_to_1024(cards):
    with pytest.raises(DrawError) as caught:
        check_can_draw_round_one(cards, cards)
    assert caught.value.field == "cards"
    assert "power of two from 2 to 1024" in str(caught.value)


def test_refuses_more_sold_than_laid_out():
    with pytest.raises(DrawError, match="17 cards are sold but only 16 are laid out"):
        check_can_draw_round_one(16, 17)


def test_session_refuses_a_card_count_that_does_not_fit_the_pots():
    with pytest.raises(DrawError) as caught:
        DrawSession([Holder(ANNA, (10, 11)), Holder(BEN, (12, 13))], 4)
    assert caught.value.field == "cards"
    assert caught.value.params == {"count": 4, "pot_size": 4, "most": 8}
    with pytest.raises(DrawError):
        DrawSession([Holder(p, (p,)) for p in range(9)], 4)


def test_a_player_or_card_listed_twice_is_a_bug():
    with pytest.raises(ValueError, match="player 1"):
        DrawSession([Holder(ANNA, (10,)), Holder(ANNA, (11,)), Holder(BEN, (12,))], 2)
    with pytest.raises(ValueError, match="card 10"):
        DrawSession([Holder(ANNA, (10,)), Holder(BEN, (10,)), Holder(CLARA, (12,))], 2)


# --- RULES.md 5.2: round 1, hand-worked -------------------------------------------------------


def test_left_pot_first_then_right():
    holders = [Holder(ANNA, (10,)), Holder(BEN, (11,)), Holder(CLARA, (12,)), Holder(DORA, (13,))]
    session = DrawSession(holders + [Holder(EMIL, (14,))], 4)
    assert session.next_turn() == (ANNA, 10, L)
    assert session.allowed() == [1, 2, 3, 4]
    session.pull(3)
    assert session.allowed() == [1, 2, 4]
    for number in (1, 4, 2):
        session.pull(number)
    assert session.next_turn() == (EMIL, 14, R)
    assert session.allowed() == [1, 2, 3, 4]


def test_right_pot_leftovers_are_byes():
    # N = 8 cards laid out, 5 sold: pots 1..4. Anna L3, Ben L1, Clara L4, Dora L2, Emil R2.
    holders = [Holder(p, (c,)) for p, c in [(ANNA, 10), (BEN, 11), (CLARA, 12), (DORA, 13)]]
    draw = replay(holders + [Holder(EMIL, (14,))], 4, [3, 1, 4, 2, 2])
    assert pairs(draw) == [
        (1, 11, None, B),
        (2, 13, 14, M),
        (3, 10, None, B),
        (4, 12, None, B),
    ]
    assert [p.advancing for p in draw.pairings] == [11, None, 10, 12]
    assert draw.pulls[-1] == Pull(EMIL, 14, R, 2, False)


def test_own_left_number_on_the_right_is_put_back():
    # Pots 1..4. Ben L1, Clara L2, Dora L3, Anna's first card L4 (the left pot is empty),
    # Anna's second card pulls 4 on the right: hers on the left, put back; pulls 1: kept.
    # Emil then pulls the 4 that went back.
    holders = [
        Holder(BEN, (12,)),
        Holder(CLARA, (13,)),
        Holder(DORA, (14,)),
        Holder(ANNA, (10, 11)),
        Holder(EMIL, (15,)),
    ]
    session = DrawSession(holders, 4)
    for number in (1, 2, 3, 4):
        session.pull(number)
    assert session.next_turn() == (ANNA, 11, R)
    assert session.pull(4) == Pull(ANNA, 11, R, 4, True)
    assert session.next_turn() == (ANNA, 11, R)  # the same card draws again
    assert session.allowed() == [1, 2, 3, 4]  # the 4 is back in the pot
    assert session.pull(1) == Pull(ANNA, 11, R, 1, False)
    assert session.pull(4) == Pull(EMIL, 15, R, 4, False)
    assert session.done
    assert session.next_turn() is None
    assert session.allowed() == []
    draw = session.result()
    assert pairs(draw) == [
        (1, 12, 11, M),
        (2, 13, None, B),
        (3, 14, None, B),
        (4, 10, 15, M),
    ]
    assert len(draw.pulls) == 7
    assert [p.put_back for p in draw.pulls] == [False] * 4 + [True, False, False]


def test_meets_himself_only_when_nothing_else_is_left():
    # A later round, pots 1..2, four cards: Ben L1, Anna L2 with card 10. Anna's card 11
    # pulls 2 (hers, and Ben's 1 is still there): put back; then 1: a match with Ben.
    # Anna's card 12 pulls 2: hers, and nothing else is left: she keeps it (walkover).
    holders = [Holder(BEN, (13,)), Holder(ANNA, (10, 11, 12))]
    draw = replay(holders, 2, [1, 2, 2, 1, 2])
    assert [(p.card, p.pot, p.number, p.put_back) for p in draw.pulls] == [
        (13, L, 1, False),
        (10, L, 2, False),
        (11, R, 2, True),
        (11, R, 1, False),
        (12, R, 2, False),
    ]
    assert pairs(draw) == [(1, 13, 11, M), (2, 10, 12, W)]
    assert draw.pairings[1].advancing == 10  # she gives up the right-hand card 12


def test_meets_himself_when_every_right_number_is_his():
    # Anna holds three of four cards and draws first: L1, L2, then on the right both
    # numbers are hers; whatever she pulls she keeps. Ben gets the other.
    draw = replay([Holder(ANNA, (10, 11, 12)), Holder(BEN, (13,))], 2, [1, 2, 1, 2])
    assert [p.put_back for p in draw.pulls] == [False] * 4
    assert pairs(draw) == [(1, 10, 12, W), (2, 11, 13, M)]


def test_the_final_between_two_cards_of_one_player_is_a_walkover():
    draw = replay([Holder(ANNA, (10, 11))], 1, [1, 1])
    assert pairs(draw) == [(1, 10, 11, W)]


def test_physical_pull_not_in_pot_says_why():
    session = DrawSession([Holder(p, (10 + p,)) for p in range(5)], 4)
    with pytest.raises(DrawError) as caught:
        session.pull(5)
    assert caught.value.field == "number"
    assert str(caught.value) == (
        "number: 5 is not a number of the left pot: it holds the numbers 1 to 4."
    )
    with pytest.raises(DrawError, match="0 is not a number of the left pot"):
        session.pull(0)
    with pytest.raises(DrawError, match="Enter a whole number from 1 to 4"):
        session.pull("3")  # type: ignore[arg-type]
    session.pull(3)
    with pytest.raises(DrawError) as caught:
        session.pull(3)
    assert str(caught.value) == "number: 3 is no longer in the left pot: it has already been drawn."
    for number in (1, 2, 4):
        session.pull(number)
    with pytest.raises(DrawError, match="9 is not a number of the right pot"):
        session.pull(9)
    session.pull(2)
    assert session.done
    with pytest.raises(DrawError, match="The draw is complete"):
        session.pull(1)
    assert len(session.pulls) == 5  # refused pulls leave no trace


def test_right_pot_already_drawn_says_so():
    holders = [Holder(ANNA, (10,)), Holder(BEN, (11,)), Holder(CLARA, (12,)), Holder(DORA, (13,))]
    session = DrawSession(holders, 2)
    session.pull(1)
    session.pull(2)
    session.pull(2)
    with pytest.raises(DrawError) as caught:
        session.pull(2)
    assert caught.value.template.startswith("%(number)s is no longer in the right pot")


def test_typed_in_draw_names_the_pull_at_fault():
    holders = [Holder(p, (10 + p,)) for p in range(5)]
    with pytest.raises(DrawError) as caught:
        replay(holders, 4, [1, 2, 2, 3])
    assert caught.value.index == 2
    assert str(caught.value) == (
        "pull 3, number: 2 is no longer in the left pot: it has already been drawn."
    )


def test_result_before_everyone_has_drawn_is_refused():
    holders = [Holder(p, (10 + p,)) for p in range(5)]
    with pytest.raises(DrawError, match="2 cards still have to draw"):
        replay(holders, 4, [1, 2, 3])


# --- RULES.md 5.2 and 5.4: the draw order -----------------------------------------------------


def test_multi_card_holders_draw_first_in_later_rounds():
    holders = canonical(
        [Holder(p, (10 * p,)) for p in range(1, 7)]
        + [Holder(7, (70, 71)), Holder(8, (80, 81, 82)), Holder(9, (90, 91))]
    )
    for seed in range(50):
        order = draw_order(holders, random.Random(seed), later_round=True)
        assert {h.player for h in order[:3]} == {7, 8, 9}
        assert sorted(order, key=lambda h: h.player) == holders


def test_round_one_order_is_shuffled_without_preference():
    holders = [Holder(1, (10, 11)), Holder(2, (20,)), Holder(3, (30,)), Holder(4, (40,))]
    firsts = {draw_order(holders, random.Random(s), later_round=False)[0].player for s in range(60)}
    assert firsts == {1, 2, 3, 4}


def test_several_cards_draw_in_a_row_in_card_order():
    holders = [Holder(2, (22, 21)), Holder(1, (13, 11, 12)), Holder(3, (30,))]
    draw = digital_draw(holders, 4, seed=5, later_round=False)
    kept = [(p.player, p.card) for p in draw.pulls if not p.put_back]
    by_player = [player for player, _ in kept]
    # each player's turns are one block, his cards ascending
    assert len([i for i in range(1, 6) if by_player[i] != by_player[i - 1]]) == 2
    for player, cards in [(1, [11, 12, 13]), (2, [21, 22])]:
        assert [c for p, c in kept if p == player] == cards


def test_the_venue_calls_holders_up_by_player_id_several_cards_first_later():
    holders = [Holder(3, (31,)), Holder(2, (22, 21)), Holder(1, (11,)), Holder(4, (41, 40))]
    assert physical_order(holders, later_round=False) == [
        Holder(1, (11,)),
        Holder(2, (21, 22)),
        Holder(3, (31,)),
        Holder(4, (40, 41)),
    ]
    assert physical_order(holders, later_round=True) == [
        Holder(2, (21, 22)),
        Holder(4, (40, 41)),
        Holder(1, (11,)),
        Holder(3, (31,)),
    ]


# --- RULES.md 5.6: seeds and replays ----------------------------------------------------------


def test_same_seed_same_draw_in_any_input_order():
    holders = [Holder(p, tuple(range(10 * p, 10 * p + 1 + p % 3))) for p in range(1, 12)]
    draw = digital_draw(holders, 16, seed=42, later_round=False)
    shuffled = [Holder(h.player, tuple(reversed(h.cards))) for h in reversed(holders)]
    assert digital_draw(shuffled, 16, seed=42, later_round=False) == draw
    assert digital_draw(holders, 16, seed=43, later_round=False) != draw


def test_digital_draw_of_a_known_seed_does_not_change():
    # Pinned: a stored seed must replay to the same draw after any upgrade.
    holders = [Holder(p, (10 * p,)) for p in range(1, 7)]
    draw = digital_draw(holders, 4, seed=7, later_round=False)
    assert draw == replay(order_from_pulls(draw.pulls), 4, [p.number for p in draw.pulls])
    assert pairs(draw) == PINNED_SEED_7


PINNED_SEED_7 = [(1, 60, 20, M), (2, 40, 10, M), (3, 30, None, B), (4, 50, None, B)]


def test_put_backs_and_walkovers_happen_in_digital_draws():
    # Later rounds with pots of 2 and 4 and up to 3 cards a player: both occur, so the
    # properties below are not vacuous. (Multi-card holders drawing first keeps
    # walkovers to the last small pots.)
    draws = [
        digital_draw(make_holders(random.Random(seed), 2 * pot, 3), pot, seed, later_round=True)
        for pot in (2, 4)
        for seed in range(100)
    ]
    assert any(p.put_back for d in draws for p in d.pulls)
    assert any(p.kind is W for d in draws for p in d.pairings)
    assert all(p.kind is not B for d in draws for p in d.pairings)


# --- RULES.md 5.5: placement ------------------------------------------------------------------


def test_quarter_final_losers_are_paired_by_a_draw():
    cards = [40, 10, 30, 20]
    seen = set()
    for seed in range(60):
        (a, b), (c, d) = placement_pairs(cards, seed)
        assert sorted([a, b, c, d]) == [10, 20, 30, 40]
        assert a < b and c < d and a < c
        assert placement_pairs(cards, seed) == ((a, b), (c, d))
        seen.add(((a, b), (c, d)))
    assert len(seen) == 3


def test_placement_avoids_a_player_meeting_himself_when_it_can():
    owners = {10: ANNA, 20: ANNA, 30: BEN, 40: CLARA}
    for seed in range(30):
        for x, y in placement_pairs([10, 20, 30, 40], seed, owners):
            assert owners[x] != owners[y]
    with pytest.raises(ValueError):
        placement_pairs([10, 20], 1)
    with pytest.raises(ValueError):
        placement_pairs([10, 20, 30, 30], 1)


# --- Properties -------------------------------------------------------------------------------


def make_holders(rng: random.Random, cards: int, most: int) -> list[Holder]:
    """``cards`` card ids spread over players with 1 .. ``most`` cards each; ids scattered."""
    card_ids = rng.sample(range(1, 20 * cards), cards)
    player_ids = rng.sample(range(1, 20 * cards), cards)
    holders = []
    while card_ids:
        take = min(rng.randint(1, most), len(card_ids))
        holders.append(Holder(player_ids.pop(), tuple(card_ids[:take])))
        del card_ids[:take]
    rng.shuffle(holders)
    return holders


def check_draw(holders: list[Holder], pot_size: int, seed: int, later_round: bool) -> Draw:
    """Draws digitally and checks the draw against RULES.md 5.2 / 5.4 pull by pull."""
    draw = digital_draw(holders, pot_size, seed, later_round)
    order = order_from_pulls(draw.pulls)

    # The order is the one draw_order gives; everyone draws for every card.
    assert order == draw_order(canonical(holders), random.Random(seed), later_round)
    assert canonical(order) == canonical(holders)
    if later_round:
        sizes = [len(h.cards) > 1 for h in order]
        assert sizes == sorted(sizes, reverse=True)

    owner = {card: h.player for h in holders for card in h.cards}
    turns = iter([(h.player, card) for h in order for card in h.cards])
    left_pot, right_pot = set(range(1, pot_size + 1)), set(range(1, pot_size + 1))
    on_left: dict[int, tuple[int, int]] = {}
    on_right: dict[int, tuple[int, int]] = {}
    turn = next(turns)
    for pull in draw.pulls:
        assert (pull.player, pull.card) == turn
        if left_pot:
            assert pull.pot is Pot.LEFT and not pull.put_back
            left_pot.remove(pull.number)
            on_left[pull.number] = turn
        else:
            assert pull.pot is Pot.RIGHT and pull.number in right_pot
            own = on_left[pull.number][0] == pull.player
            no_choice = all(on_left[n][0] == pull.player for n in right_pot)
            assert pull.put_back == (own and not no_choice)
            if pull.put_back:
                continue
            right_pot.remove(pull.number)
            on_right[pull.number] = turn
        turn = next(turns, None)
    assert turn is None

    # One pairing per number; kinds as the rules say.
    assert [p.number for p in draw.pairings] == list(range(1, pot_size + 1))
    for p in draw.pairings:
        assert p.left == on_left[p.number][1]
        if p.kind is Kind.BYE:
            assert p.right is None and p.number in right_pot
        else:
            assert p.right == on_right[p.number][1]
            same = owner[p.left] == owner[p.right]
            assert same == (p.kind is Kind.WALKOVER)
    # Byes are exactly the right pot's leftovers.
    assert {p.number for p in draw.pairings if p.kind is Kind.BYE} == right_pot
    # Every card in play appears in exactly one pairing.
    placed = [c for p in draw.pairings for c in (p.left, p.right) if c is not None]
    assert sorted(placed) == sorted(owner)
    # A walkover's player had no other choice at his pull (checked above: a kept own
    # number means every remaining right number was his).
    # The draw replays from its record.
    assert replay(order, pot_size, [p.number for p in draw.pulls]) == draw
    return draw


def advance(draw: Draw, holders: list[Holder], rng: random.Random) -> list[Holder]:
    """The holders of the next round: random winners of the matches, byes and walkovers."""
    owner = {card: h.player for h in holders for card in h.cards}
    advancing = []
    for p in draw.pairings:
        if p.kind is Kind.MATCH:
            advancing.append(rng.choice([p.left, p.right]))
        else:
            advancing.append(p.left)
    cards: dict[int, list[int]] = {}
    for card in advancing:
        cards.setdefault(owner[card], []).append(card)
    return [Holder(player, tuple(c)) for player, c in cards.items()]


round_one = st.sampled_from(CARD_COUNTS).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.integers(n // 2 + 1, n),
        st.integers(1, 3),
        st.integers(0, 2**32 - 1),
        st.integers(0, 2**32 - 1),
    )
)


@PROPERTY
@given(round_one)
def test_round_one_obeys_the_rules(case):
    n, sold, most, shape_seed, seed = case
    holders = make_holders(random.Random(shape_seed), sold, most)
    draw = check_draw(holders, n // 2, seed, later_round=False)
    assert digital_draw(holders, n // 2, seed, later_round=False) == draw
    byes = sum(p.kind is Kind.BYE for p in draw.pairings)
    assert byes == n - sold


@PROPERTY
@given(round_one)
def test_every_round_halves_the_cards_until_one_is_left(case):
    n, sold, most, shape_seed, seed = case
    rng = random.Random(shape_seed)
    holders = make_holders(rng, sold, most)
    pot_size, later_round = n // 2, False
    while True:
        draw = check_draw(holders, pot_size, seed + pot_size, later_round)
        holders = advance(draw, holders, rng)
        in_play = sum(len(h.cards) for h in holders)
        assert in_play == pot_size  # one card out of every pairing
        if in_play == 1:
            break
        pot_size, later_round = pot_size // 2, True
    assert pot_size == 1


@PROPERTY
@given(
    st.sampled_from([1, 2, 4, 8, 16, 32]),
    st.integers(1, 4),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
)
def test_later_rounds_with_few_players_obey_the_rules(pot_size, most, shape_seed, seed):
    # Few players with many cards: put-backs and walkovers are common here.
    holders = make_holders(random.Random(shape_seed), 2 * pot_size, most)
    draw = check_draw(holders, pot_size, seed, later_round=True)
    assert not any(p.kind is Kind.BYE for p in draw.pairings)


def test_pairing_advancing_card():
    assert Pairing(1, 10, 11, Kind.MATCH).advancing is None
    assert Pairing(1, 10, None, Kind.BYE).advancing == 10
    assert Pairing(1, 10, 11, Kind.WALKOVER).advancing == 10


# --- Speed ------------------------------------------------------------------------------------


def test_a_1024_card_round_one_with_400_players_pairs_every_card_once():
    """The size of the largest night; its time is measured by ``make bench``, not here."""
    rng = random.Random(1)
    holders = [Holder(p, (3 * p, 3 * p + 1, 3 * p + 2)) for p in range(224)]
    holders += [Holder(p, (3 * p, 3 * p + 1)) for p in range(224, 400)]
    assert sum(len(h.cards) for h in holders) == 1024
    rng.shuffle(holders)
    draw = digital_draw(holders, 512, seed=2024, later_round=False)
    assert len(draw.pairings) == 512
    cards = [c for p in draw.pairings for c in (p.left, p.right) if c is not None]
    assert sorted(cards) == sorted(c for h in holders for c in h.cards)
