"""The ledger of a night: who holds each prize, overall and per category, or why it is
open (RULES.md 5.5, 5.7-5.9), pure Python: exact values and hypothesis properties."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import ledger
from tournaments.ranking import Ranked

PRIZES = [(p, f"P{p}") for p in range(1, 9)]


def singles(*players: int) -> list[Ranked]:
    """A ranking of cards 10, 11, … at places 1, 2, … held by ``players``."""
    return [Ranked(i + 1, i + 1, 10 + i, p) for i, p in enumerate(players)]


def given_lines(lines):
    return [(x.place, x.card) for x in lines if x.given]


# --- Overall (RULES.md 5.5, 5.7, 5.8) ------------------------------------------------------


def test_a_withdrawn_card_wins_nothing_and_every_prize_below_moves_down():
    ranked = singles(1, 2, 3, 4, 5)
    lines = ledger.overall(ranked, PRIZES[:4], False, withdrawn={11}, complete=True)
    assert [(x.place, x.card, x.finished) for x in lines] == [
        (1, 10, 1),
        (2, 12, 3),
        (3, 13, 4),
        (4, 14, 5),
    ]


def test_one_prize_per_player_leaves_a_gap_in_the_prize_list_alone():
    ranked = singles(1, 2, 3)
    lines = ledger.overall(ranked, [(1, "Korb"), (3, "Wein")], True, complete=True)
    assert [(x.place, x.finished, x.player) for x in lines] == [(1, 1, 1), (3, 3, 3)]


def test_a_prize_past_the_last_card_has_nobody_and_is_not_open():
    lines = ledger.overall(singles(1, 2), PRIZES[:3], False, complete=True)
    assert [(x.place, x.open) for x in lines] == [(1, ""), (2, ""), (3, ledger.NOBODY)]
    assert not lines[2].waiting
    lines = ledger.overall(singles(1, 2), PRIZES[:3], False, complete=False)
    assert lines[2].open == ledger.PLAYING and lines[2].waiting


def test_a_range_of_withdrawn_cards_is_passed_over():
    ranked = singles(1, 2) + [Ranked(3, 4, 12, 3), Ranked(3, 4, 13, 4), Ranked(5, 5, 14, 5)]
    lines = ledger.overall(ranked, PRIZES[:3], False, withdrawn={12, 13}, complete=True)
    assert given_lines(lines) == [(1, 10), (2, 11), (3, 14)]


def test_a_prize_in_a_shared_range_is_open_until_the_range_is_decided():
    ranked = singles(1, 2) + [Ranked(3, 5, c, c) for c in (20, 21, 22)]
    lines = ledger.overall(ranked, PRIZES[:4], False, complete=True)
    assert [(x.place, x.card, x.open, x.range) for x in lines] == [
        (1, 10, "", None),
        (2, 11, "", None),
        (3, None, ledger.SHARED, (3, 5)),
        (4, None, ledger.SHARED, (3, 5)),
    ]
    decided = singles(1, 2) + [Ranked(3, 3, 22, 22), Ranked(4, 4, 20, 20), Ranked(5, 5, 21, 21)]
    lines = ledger.overall(decided, PRIZES[:4], False, complete=True)
    assert given_lines(lines) == [(1, 10), (2, 11), (3, 22), (4, 20)]


def test_a_shared_range_whose_cards_all_win_lets_the_prizes_below_it_go_on():
    # Places 3-4 shared by cards 20 and 21; prizes 3 and 4 both open there, prize 5 is
    # the card at place 5 whichever of them takes which.
    ranked = singles(1, 2) + [Ranked(3, 4, 20, 20), Ranked(3, 4, 21, 21), Ranked(5, 5, 30, 30)]
    lines = ledger.overall(ranked, PRIZES[:5], False, complete=True)
    assert [(x.place, x.card, x.open) for x in lines][2:] == [
        (3, None, ledger.SHARED),
        (4, None, ledger.SHARED),
        (5, 30, ""),
    ]


def test_with_one_prize_per_player_a_shared_range_partly_prized_leaves_the_rest_open():
    # Range 2-3: players 5 and 6; prize 2 is open there; prize 3 would go to one of them
    # too, but player 5's other card is at place 4: who gets prize 3 depends on the range.
    ranked = singles(1) + [Ranked(2, 3, 20, 5), Ranked(2, 3, 21, 6), Ranked(4, 4, 22, 5)]
    lines = ledger.overall(ranked, [(1, "A"), (2, "B"), (4, "D")], True, complete=True)
    assert [(x.place, x.open) for x in lines] == [(1, ""), (2, ledger.SHARED), (4, ledger.SHARED)]


# --- Categories (RULES.md 5.9) -------------------------------------------------------------


def overall_given(*pairs):
    return [ledger.PrizeLine(i + 1, "", card, player) for i, (card, player) in enumerate(pairs)]


def test_a_category_list_goes_down_the_ranking_skipping_overall_winners():
    ranked = singles(1, 2, 3, 4, 5, 6)
    women = {2, 4, 5, 6}
    won = overall_given((10, 1), (11, 2))
    prizes = [(1, "Blumen"), (2, "Buch")]
    lines = ledger.category(ranked, prizes, women, set(), won, with_overall=False)
    assert [(x.place, x.player, x.first) for x in lines] == [(1, 4, 4), (2, 5, 5)]
    lines = ledger.category(ranked, prizes, women, set(), won, with_overall=True)
    assert [(x.place, x.player) for x in lines] == [(1, 2), (2, 4)]


def test_a_player_takes_a_category_prize_once_by_his_best_card_that_can_win():
    ranked = [Ranked(1, 1, 10, 7), Ranked(2, 2, 11, 7), Ranked(3, 3, 12, 8)]
    lines = ledger.category(ranked, [(1, "A"), (2, "B")], {7, 8}, set(), [], True)
    assert [(x.place, x.player, x.card) for x in lines] == [(1, 7, 10), (2, 8, 12)]
    lines = ledger.category(ranked, [(1, "A")], {7, 8}, set(), [], True, withdrawn={10})
    assert [(x.player, x.card) for x in lines] == [(7, 11)]


def test_a_category_prize_is_open_while_a_player_of_the_category_is_still_in_play():
    # After round 1: a woman out in round 1 is not "Damen 1." while another woman plays.
    ranked = [Ranked(17, 32, 40, 2)]
    lines = ledger.category(ranked, [(1, "Blumen")], {2, 3}, {3}, [], True)
    assert [(x.place, x.card, x.open) for x in lines] == [(1, None, ledger.PLAYING)]


def test_a_category_prize_waits_for_an_open_overall_prize_when_winners_are_skipped():
    ranked = singles(1, 2, 3)
    waiting = [ledger.PrizeLine(1, "", open=ledger.PLAYING)]
    lines = ledger.category(ranked, [(1, "A")], {3}, set(), waiting, with_overall=False)
    assert lines[0].open == ledger.PLAYING
    lines = ledger.category(ranked, [(1, "A")], {3}, set(), waiting, with_overall=True)
    assert (lines[0].card, lines[0].open) == (12, "")


def test_two_players_of_a_category_in_one_shared_range_wait_for_the_range():
    ranked = singles(1, 2) + [Ranked(3, 6, 20 + i, p) for i, p in enumerate((7, 8, 9, 10))]
    lines = ledger.category(ranked, [(1, "A"), (2, "B")], {7, 9}, set(), [], True)
    assert [(x.place, x.open, x.range) for x in lines] == [
        (1, ledger.SHARED, (3, 6)),
        (2, ledger.SHARED, (3, 6)),
    ]
    # Alone of the category in the range: it is hers whatever the order.
    lines = ledger.category(ranked, [(1, "A")], {1, 7}, set(), [], True)
    assert [(x.place, x.player) for x in lines] == [(1, 1)]
    lines = ledger.category(ranked, [(1, "A"), (2, "B")], {1, 7}, set(), [], True)
    assert [(x.place, x.player, x.first, x.last) for x in lines] == [(1, 1, 1, 1), (2, 7, 3, 6)]


# --- Properties ----------------------------------------------------------------------------


@st.composite
def rankings(draw_):
    """A whole ranking: ranges of 1 to 4 cards, owners among a few players, some cards
    withdrawn; and a shuffle of the cards within every range."""
    sizes = draw_(st.lists(st.integers(1, 4), min_size=1, max_size=10))
    ranked, first, card = [], 1, 100
    for size in sizes:
        for _ in range(size):
            ranked.append(Ranked(first, first + size - 1, card, draw_(st.integers(1, 8))))
            card += 1
        first += size
    withdrawn = set(draw_(st.lists(st.sampled_from([r.card for r in ranked]), max_size=4)))
    shuffled = []
    for start in sorted({r.first for r in ranked}):
        members = [r for r in ranked if r.first == start]
        shuffled += draw_(st.permutations(members))
    prizes = draw_(st.lists(st.integers(1, 12), min_size=1, max_size=8, unique=True))
    return ranked, shuffled, withdrawn, [(p, f"P{p}") for p in prizes]


@settings(max_examples=400)
@given(rankings(), st.booleans())
def test_no_prize_goes_by_the_order_of_cards_within_a_shared_range(case, one_each):
    ranked, shuffled, withdrawn, prizes = case
    lines = ledger.overall(ranked, prizes, one_each, withdrawn, complete=True)
    assert lines == ledger.overall(shuffled, prizes, one_each, withdrawn, complete=True)
    assert [x.place for x in lines] == sorted(p for p, _d in prizes)
    won = [x for x in lines if x.given]
    assert not any(x.card in withdrawn for x in won)
    assert len({x.card for x in won}) == len(won)
    if one_each:
        assert len({x.player for x in won}) == len(won)
    # No range shared: every prize goes where the plain rule puts it.
    if all(r.first == r.last for r in ranked):
        assert not any(x.waiting for x in lines)


@settings(max_examples=300)
@given(rankings(), st.sets(st.integers(1, 8)), st.booleans())
def test_a_category_list_never_goes_by_card_order_and_gives_each_player_once(
    case, members, with_overall
):
    ranked, shuffled, withdrawn, prizes = case
    top = ledger.overall(ranked, PRIZES, True, withdrawn, complete=True)
    lines = ledger.category(ranked, prizes, members, set(), top, with_overall, withdrawn)
    again = ledger.category(shuffled, prizes, members, set(), top, with_overall, withdrawn)
    assert lines == again
    won = [x for x in lines if x.given]
    assert len({x.player for x in won}) == len(won)
    assert all(x.player in members and x.card not in withdrawn for x in won)
    overall_winners = {x.player for x in top if x.given}
    assert with_overall or not any(x.player in overall_winners for x in won)
