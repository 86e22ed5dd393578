"""Places and prizes of small and byed nights (RULES.md 5.1, 5.5, 5.8), pure Python.

Nights of 8 cards (the quarter-final is round 1) and of 4 cards (lowered from 8: the
semi-final is round 1) have byes in the rounds that feed the placement matches; every
card sold still gets a place and every prize that has a holder is given. No database.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import bracket, draw, ledger, ranking
from tournaments.bracket import Match, RoundState
from tournaments.ranking import Ranked

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


# --- RULES.md 5.7, 5.8: shared places, withdrawals, prizes passed down into them ------------


def lines_of(rounds, placement, owners, one_each, withdrawn=None, numbers=None, orders=None):
    """The overall prize lines of a night (``ledger.overall``) and its card ranking."""
    groups = bracket.ranking_groups(rounds, placement, sorted(owners), withdrawn, numbers)
    ranked = ranking.card_ranking(*bracket.placed(groups), owners, orders)
    complete = len(ranked) == len(owners)
    return ledger.overall(ranked, PRIZES, one_each, withdrawn or {}, complete), ranked


def test_cards_out_in_the_same_round_share_a_place_range_in_card_order():
    r16 = RoundState(1, 8, tuple(won(n, 10 + n, 30 - n) for n in range(1, 9)))
    quarter = RoundState(2, bracket.QUARTER_FINAL, ())
    numbers = {30 - n: 100 - n for n in range(1, 9)}  # card 29 has the highest number
    sold = sorted(c for m in r16.matches for c in (m.left, m.right))
    assert bracket.ranking_groups([r16, quarter], [], sold, {}, numbers) == [
        bracket.Group(9, 16, (22, 23, 24, 25, 26, 27, 28, 29), False)
    ]
    assert bracket.ranking_groups([r16], [], sold, {}, numbers) == []  # no quarter-final yet


def test_a_player_who_leaves_after_round_2_ranks_after_the_quarter_final_losers():
    # 16 cards; after the round of 16 the holder of cards 1 and 2 (both won) goes home:
    # the quarter-final is drawn with the six cards left, two of them byes.
    r16 = RoundState(1, 8, tuple(won(n, n, 8 + n) for n in range(1, 9)))  # 1..8 win
    quarter = RoundState(
        2, bracket.QUARTER_FINAL, (won(1, 3, 4), won(2, 5, 6), bye(3, 7), bye(4, 8))
    )
    withdrawn = {1: 1, 2: 1}
    semi = RoundState(3, bracket.SEMI_FINAL, (won(1, 3, 5), won(2, 7, 8)))
    final = RoundState(4, bracket.FINAL, (won(1, 3, 7),))
    placement = [Match(4, "match", 4, 6, 4, "5"), Match(3, "match", 5, 8, 5, "3")]
    owners = {c: c for c in range(1, 17)} | {2: 1}
    rounds = [r16, quarter, semi, final]
    groups = bracket.ranking_groups(rounds, placement, sorted(owners), withdrawn)
    assert [(g.first, g.last, g.cards) for g in groups] == [
        (1, 1, (3,)),
        (2, 2, (7,)),
        (3, 4, (5, 8)),
        (5, 6, (4, 6)),
        (7, 8, (1, 2)),  # the leaver's two cards, after the quarter-final's losers
        (9, 16, tuple(range(9, 17))),
    ]
    lines, ranked = lines_of(rounds, placement, owners, False, withdrawn)
    # The leaver wins nothing: prizes 7 and 8 fall into 9-16, open until Stechen or lot.
    assert [(x.place, x.card, x.open, x.range) for x in lines] == [
        (1, 3, "", None),
        (2, 7, "", None),
        (3, 5, "", None),
        (4, 8, "", None),
        (5, 4, "", None),
        (6, 6, "", None),
        (7, None, ledger.SHARED, (9, 16)),
        (8, None, ledger.SHARED, (9, 16)),
    ]
    order = [12, 9, 16, 10, 11, 13, 14, 15]  # a lot for 9-16
    lines, ranked = lines_of(rounds, placement, owners, False, withdrawn, orders={9: order})
    assert [(x.place, x.card, x.first) for x in lines][6:] == [(7, 12, 9), (8, 9, 10)]


def test_one_prize_per_player_passes_past_eight_into_the_shared_range_and_waits_there():
    # Player 1 holds places 1 and 3 to 7: prizes 2 and 3 go to players 2 and 9 (place 8),
    # prizes 4 to 8 fall into the range 9-16: open until the range is decided.
    owners = {1: 1, 2: 2, **{c: 1 for c in range(3, 8)}, 8: 9, **{c: c + 1 for c in range(9, 17)}}
    ranked = [Ranked(p, p, p, owners[p]) for p in range(1, 9)]
    ranked += [Ranked(9, 16, c, owners[c]) for c in range(9, 17)]
    lines = ledger.overall(ranked, PRIZES, True)
    assert [(x.place, x.player, x.finished, x.open) for x in lines] == [
        (1, 1, 1, ""),
        (2, 2, 2, ""),
        (3, 9, 8, ""),
        *[(p, None, None, ledger.SHARED) for p in range(4, 9)],
    ]


def test_a_prize_waits_until_every_place_before_it_is_settled():
    ranked = [Ranked(1, 1, 1, 1), Ranked(2, 2, 2, 1), Ranked(9, 16, 10, 100)]
    lines = ledger.overall(ranked, PRIZES, True)
    assert [(x.place, x.player, x.open) for x in lines] == [(1, 1, "")] + [
        (p, None, ledger.PLAYING) for p in range(2, 9)
    ]


# --- Property: whole nights ---------------------------------------------------------------


def play_night(cards: int, owners: dict[int, int], rng: random.Random, leave: float = 0.0):
    """Every round drawn digitally and every match (main and placement) decided at
    random, placement matches made as the services make them (also once the main draw
    has ended without its final); with chance ``leave``
    before each draw and after it, a card still playing is withdrawn (RULES.md 5.7:
    in the round being played, its open match a walkover). Returns the rounds, the
    placement matches and the withdrawn cards (card -> round)."""
    sold = sorted(owners)
    rounds: list[RoundState] = []
    placement: list[Match] = []
    withdrawn: dict[int, int] = {}

    def leaves():
        playing = sorted(bracket.still_playing(rounds, placement, sold, withdrawn))
        if not rounds:  # before round 1, as long as two cards are left to draw
            playing = [c for c in sold if c not in withdrawn]
            playing = playing if len(playing) > 2 else []
        if playing and rng.random() < leave:
            withdrawn[rng.choice(playing)] = len(rounds)

    def decide(match: Match, main: bool) -> Match:
        number = len(rounds)
        out = frozenset(
            c
            for c in (match.left, match.right)
            if c in withdrawn and (not main or withdrawn[c] == number)
        )
        winner = (
            rng.choice((match.left, match.right)) if match.kind == "match" and not out else None
        )
        return Match(match.number, match.kind, match.left, match.right, winner, match.label, out)

    def make_placement():
        while due := bracket.placement_due(
            rounds, placement, bracket.finished(rounds, sold, withdrawn)
        ):
            made = []
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
                    made.append(Match(number, kind, left, right, None, label))
            leaves()
            placement.extend(decide(m, main=False) for m in made)

    while True:
        leaves()
        in_play = bracket.cards_in_play(rounds, sold, withdrawn)
        pot = bracket.next_pot_size(rounds, cards, len(in_play) if rounds else None)
        if pot is None or (rounds and len(in_play) < 2):
            make_placement()  # a finalist withdrawn after his semi-final: 3/4 due now
            break
        if not rounds and len(in_play) <= pot:  # lowered, as the desk offers (RULES.md 5.1)
            pot = draw.smallest_cards(len(in_play)) // 2
        holders = bracket.holders(owners, in_play)
        result = draw.digital_draw(holders, pot, rng.getrandbits(32), bool(rounds))
        drawn = [Match(p.number, str(p.kind), p.left, p.right) for p in result.pairings]
        rounds.append(RoundState(len(rounds) + 1, pot, tuple(drawn)))
        leaves()
        rounds[-1] = RoundState(len(rounds), pot, tuple(decide(m, True) for m in drawn))
        make_placement()
    return rounds, placement, withdrawn


nights = st.sampled_from([2, 4, 8, 16, 32]).flatmap(
    lambda cards: st.tuples(
        st.just(cards),
        st.integers(cards // 2 + 1, cards),
        st.integers(1, 3),
        st.integers(0, 2**32),
        st.sampled_from([0.0, 0.0, 0.2, 0.5]),
    )
)


@settings(max_examples=200, deadline=None)
@given(nights, st.booleans())
def test_every_card_sold_gets_one_place_and_every_prize_with_a_holder_is_given(night, one_each):
    cards, sold, most, seed, leave = night
    rng = random.Random(seed)
    owners: dict[int, int] = {}
    player = 0
    while len(owners) < sold:
        player += 1
        for _ in range(min(rng.randint(1, most), sold - len(owners))):
            owners[len(owners) + 1] = player
    rounds, placement, withdrawn = play_night(cards, owners, rng, leave)
    lines, ranked = lines_of(rounds, placement, owners, one_each, withdrawn)
    # Every card sold holds one place; the places run from 1 to the cards sold, no gap.
    assert sorted(r.card for r in ranked) == sorted(owners)
    covered: list[int] = []
    for first in sorted({r.first for r in ranked}):
        members = [r for r in ranked if r.first == first]
        assert len(members) == members[0].last - first + 1
        covered += range(first, members[0].last + 1)
    assert covered == list(range(1, sold + 1))
    # Every prize is given once, to a card that can win it, or waits for a shared range.
    assert [x.place for x in lines] == [p for p, _d in PRIZES]
    given_ = [x for x in lines if x.given]
    assert not any(x.card in withdrawn for x in given_)
    assert len({x.card for x in given_}) == len(given_)
    if one_each:
        assert len({x.player for x in given_}) == len(given_)
    assert all(x.open in (ledger.SHARED, ledger.NOBODY) for x in lines if not x.given)
    eligible = {(owners[c] if one_each else c) for c in owners if c not in withdrawn}
    assert len(lines) == 8
    if not any(x.waiting for x in lines):
        assert len(given_) == min(8, len(eligible))
    # Decided by lot, every range: each prize that has a card that can win it is given.
    orders = {
        first: ranking.lot_order([r.card for r in ranked if r.first == first], seed)
        for first in {r.first for r in ranked if r.first != r.last}
    }
    decided, _ranked = lines_of(rounds, placement, owners, one_each, withdrawn, orders=orders)
    assert [x.place for x in decided if x.given] == list(range(1, min(8, len(eligible)) + 1))
    assert all(x.given or x.open == ledger.NOBODY for x in decided)
