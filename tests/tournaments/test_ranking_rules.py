"""The whole ranking, the lots and the draw's commitment (RULES.md 5.8, 5.12), pure
Python: exact values and hypothesis properties."""

import hashlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import draw, ranking, verify

# A 16-card night: places 1-8 decided one by one, cards 9..16 out in the round of 16.
PLACES = {p: p for p in range(1, 9)}  # place -> card (card p holds place p)
SHARED = [(9, 16, card) for card in range(9, 17)]
OWNERS = {card: 100 + card for card in range(1, 17)}


def test_cards_out_in_the_same_round_share_their_range():
    ranked = ranking.card_ranking(PLACES, SHARED, OWNERS)
    assert [(r.first, r.last, r.card) for r in ranked] == [(p, p, p) for p in range(1, 9)] + [
        (9, 16, c) for c in range(9, 17)
    ]


def test_an_order_from_stechen_or_lots_gives_each_card_of_the_range_its_place():
    order = [14, 9, 16, 10, 11, 12, 13, 15]
    ranked = ranking.card_ranking(PLACES, SHARED, OWNERS, {9: order})
    assert [(r.first, r.last, r.card) for r in ranked[8:]] == [
        (9 + i, 9 + i, card) for i, card in enumerate(order)
    ]


def test_an_order_that_is_not_the_ranges_cards_leaves_it_shared():
    for wrong in ([9, 10], [9, 9, 10, 11, 12, 13, 14, 15], [*range(9, 16), 3]):
        ranked = ranking.card_ranking(PLACES, SHARED, OWNERS, {9: wrong})
        assert {(r.first, r.last) for r in ranked[8:]} == {(9, 16)}


def test_lots_replay_from_their_seed_to_the_same_order():
    assert ranking.lot_order([12, 9, 15, 10], 7) == ranking.lot_order([9, 10, 12, 15], 7)
    # Pinned: random.Random(seed).random() is the same sequence on every Python version.
    assert ranking.lot_order([9, 10, 12, 15], 7) == [12, 15, 9, 10]


@given(st.lists(st.integers(1, 1024), min_size=1, max_size=40, unique=True), st.integers(0, 2**48))
def test_lots_are_a_permutation_of_the_range(cards, seed):
    order = ranking.lot_order(cards, seed)
    assert sorted(order) == sorted(cards)
    assert order == ranking.lot_order(list(reversed(cards)), seed)


@st.composite
def nights(draw_):
    """A finished night's places: 2**k cards, the first 8 (or fewer) one by one, the
    rest in ranges of rounds of 16, 32 … with their losers; owners at random."""
    size = draw_(st.sampled_from([2, 4, 8, 16, 32, 64]))
    singles = min(size, 8)
    places = {p: p for p in range(1, singles + 1)}
    shared = []
    first = 9
    while first <= size:
        last = 2 * first - 2
        shared += [(first, last, c) for c in range(first, last + 1)]
        first = last + 1
    owners = {c: draw_(st.integers(1, max(1, size // 2))) for c in range(1, size + 1)}
    orders = {}
    for start in sorted({f for f, _l, _c in shared}):
        if draw_(st.booleans()):
            members = [c for f, _l, c in shared if f == start]
            orders[start] = ranking.lot_order(members, draw_(st.integers(0, 1000)))
    return places, shared, owners, orders


@settings(max_examples=200)
@given(nights())
def test_every_card_and_player_has_a_place_and_the_ranges_fill_every_place(night):
    places, shared, owners, orders = night
    ranked = ranking.card_ranking(places, shared, owners, orders)
    assert sorted(r.card for r in ranked) == sorted(owners)
    covered = sorted(p for r in ranked for p in range(r.first, r.last + 1) if r.first == r.last)
    covered += sorted({p for r in ranked if r.first != r.last for p in range(r.first, r.last + 1)})
    assert sorted(covered) == list(range(1, len(owners) + 1))


def test_the_commitment_is_the_sha256_of_the_documented_text():
    holders = [("Anna", [1, 5]), ("Ben", [2])]
    text = verify.commitment_text("ab" * 16, 42, 1, 2, holders)
    assert json.loads(text) == {
        "v": "bummerl-draw-1",
        "nonce": "ab" * 16,
        "seed": 42,
        "round": 1,
        "pot_size": 2,
        "holders": [["Anna", [1, 5]], ["Ben", [2]]],
    }
    assert verify.commit("ab" * 16, 42, 1, 2, holders) == hashlib.sha256(text.encode()).hexdigest()
    assert verify.commit("ab" * 16, 43, 1, 2, holders) != verify.commit(
        "ab" * 16, 42, 1, 2, holders
    )


def _exported_round(holders, pot_size, seed, number=1, nonce="00" * 16):
    ids = verify._holders([{"player": n, "cards": c} for n, c in holders])
    result = draw.digital_draw(ids[0], pot_size, seed, later_round=number > 1)
    names, numbers = ids[1], ids[2]

    def ref(card):
        return None if card is None else {"card": numbers[card], "player": "?"}

    return {
        "number": number,
        "pot_size": pot_size,
        "seed": seed,
        "nonce": nonce,
        "commitment": verify.commit(nonce, seed, number, pot_size, holders),
        "holders": [{"player": n, "cards": c} for n, c in holders],
        "pulls": [
            {
                "player": names[p.player],
                "card": numbers[p.card],
                "pot": str(p.pot),
                "number": p.number,
                "put_back": p.put_back,
            }
            for p in result.pulls
        ],
        "pairings": [
            {"number": p.number, "left": ref(p.left), "right": ref(p.right), "kind": str(p.kind)}
            for p in result.pairings
        ],
    }


HOLDERS = [("Anna", [1, 6]), ("Ben", [2]), ("Clara", [3, 7]), ("Dora", [4]), ("Emil", [5])]


@settings(max_examples=50)
@given(st.integers(0, 2**48))
def test_a_replayed_draw_checks_out_and_any_change_is_found(seed):
    round_ = _exported_round(HOLDERS, 4, seed)
    assert verify.check_round(round_).ok
    other = dict(round_, seed=seed + 1)
    check = verify.check_round(other)
    assert check.commitment is False and not check.ok
    swapped = json.loads(json.dumps(round_))
    swapped["pairings"][0]["left"], swapped["pairings"][1]["left"] = (
        swapped["pairings"][1]["left"],
        swapped["pairings"][0]["left"],
    )
    check = verify.check_round(swapped)
    assert check.commitment is True and check.replay is False
    assert check.problems == ["pairing 1 differs from the replay"]


def test_a_lot_with_another_order_than_its_seed_gives_is_found():
    order = ranking.lot_order([9, 10, 11, 12], 5)
    assert verify.check_lot({"first": 9, "seed": 5, "order": order}).ok
    moved = order[1:] + order[:1]
    check = verify.check_lot({"first": 9, "seed": 5, "order": moved})
    assert (check.ok, check.problems) == (
        False,
        ["the order differs from the lots drawn with its seed"],
    )
