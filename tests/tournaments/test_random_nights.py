"""Random nights of every format through the services (RULES.md 5, 6): sales and
cancellations, players who leave in any round, categories, one prize per player, lives
bought, money prizes. After every round and at the end, the ledger holds: every card
(or entry) sold has one place once settled and the places have no gap; every prize is
given once, never to a withdrawn card, or waits for a reason; no category prize is
given while a player of the category still plays; the cash report balances to the cent.
"""

import random
import uuid
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from clubs.models import Category, Player
from scoring.services import Actor
from tests import factories
from tournaments import formats
from tournaments.categories import category_lists, money_split
from tournaments.models import Card, Format
from tournaments.prizes import cash
from tournaments.services.cards import cancel_sale, sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.formats import buy_life
from tournaments.services.layout import lower_cards
from tournaments.services.reading import load_state
from tournaments.services.ties import draw_lots
from tournaments.services.withdrawals import withdraw_card

pytestmark = pytest.mark.django_db
ACTOR = Actor()
PRIZES = [{"place": 1, "description": "40 %"}, {"place": 2, "description": "20 %"}] + [
    {"place": p, "description": f"Preis {p}"} for p in range(3, 9)
]


def check(t) -> None:
    """The ledger's promises on ``t`` as it stands now."""
    state = load_state(t)
    ranked = state.ranking()
    # Places: one per placed card, ranges full and disjoint, counted up to the cards.
    taken: list[int] = []
    for first in sorted({r.first for r in ranked}):
        members = [r for r in ranked if r.first == first]
        assert len(members) == members[0].last - first + 1
        taken += range(first, members[0].last + 1)
    assert len(taken) == len(set(taken)) == len(ranked)
    if t.format == Format.CARDS:
        assert not taken or max(taken) == len(state.cards)
    # Prizes: each once, none to a withdrawn card, one per player when asked.
    lines = state.prize_lines
    assert [x.place for x in lines] == [p["place"] for p in PRIZES]
    won = [x for x in lines if x.given]
    assert not any(x.card in state.withdrawn for x in won)
    assert len({x.card for x in won}) == len(won)
    if t.one_prize_per_player:
        assert len({x.player for x in won}) == len(won)
    # Categories: nothing given while a player of the category has a card unplaced.
    placed = {r.card for r in ranked}
    for lst in category_lists(state):
        members = set(lst.category.players.values_list("pk", flat=True))
        playing = {c.player_id for c in state.cards.values() if c.pk not in placed}
        if members & playing:
            assert not any(line.card for line in lst.lines)
    # Cash: the box holds the cards paid at the fee and the lives at the life fee.
    money = cash(t.entry_fee, state.cards.values(), t.life_price)
    paid = sum(1 for c in state.cards.values() if c.paid)
    lives = sum(c.rebuys for c in state.cards.values())
    assert money.in_box == paid * Decimal(t.entry_fee) + lives * t.life_price
    split = money_split(t, money.in_box)
    assert split.prize_money + split.house == money.in_box
    assert split.house >= 0  # shares only: 60 % of the takings at most


def finish(t) -> None:
    """At the end: every card placed, and once the shared ranges are decided by lot
    every prize that has a card that can win it is given."""
    state = load_state(t)
    assert len(state.ranking()) == len(
        [c for c in state.cards.values() if t.format == Format.CARDS or c.withdrawn_round != 0]
    )
    draw_lots(t, ACTOR)
    state = load_state(t)
    lines = state.prize_lines
    assert not any(x.waiting for x in lines)
    eligible = {
        (c.player_id if t.one_prize_per_player else c.pk)
        for c in state.cards.values()
        if c.withdrawn_round is None
    }
    assert [x.place for x in lines if x.given] == list(range(1, min(8, len(eligible)) + 1))


def categories(t, rng):
    """Damen: a random third of the players, with two category prizes."""
    damen = Category.objects.create(club=t.club, name="Damen")
    for player in Player.objects.filter(cards__tournament=t).distinct():
        if rng.random() < 0.33:
            player.categories.add(damen)
    t.category_prizes = [
        {"category": damen.pk, "place": 1, "description": "Blumen"},
        {"category": damen.pk, "place": 2, "description": "€ 0"},
    ]
    t.save(update_fields=["category_prizes"])


def leaves(t, rng, chance):
    """With ``chance``, a card still playing is withdrawn (RULES.md 5.7)."""
    state = load_state(t)
    if t.format == Format.CARDS:
        playing = sorted(state.still_playing() if state.rounds else state.in_play())
        if not state.rounds and len(playing) <= 2:
            return
    else:
        playing = sorted(formats.withdrawable(state, formats.board(state)))
        if len(playing) <= 2:
            return
    if playing and rng.random() < chance:
        withdraw_card(t, rng.choice(playing), ACTOR)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from([2, 4, 8, 16, 32, 128]),
    st.integers(0, 2**32),
    st.booleans(),
    st.sampled_from([0.0, 0.3, 0.6]),
)
# Found by this test: a "5-8" pairing of a withdrawn card beside one of a player's two
# cards against each other, both decided as they were made, never got the matches for 5
# and 7 (no result was entered to ask for them), and three cards stayed without a place.
@example(128, 16909828, False, 0.6)
def test_a_random_card_night_keeps_every_place_prize_and_euro(cards, seed, one_each, chance):
    rng = random.Random(seed)
    t = factories.tournament(
        factories.club(), cards=max(cards, 8), sold=0, one_prize_per_player=one_each, prizes=PRIZES
    )
    target = rng.randint(cards // 2 + 1, cards)
    player = 0
    while Card.objects.filter(tournament=t).count() < target:
        player += 1
        count = min(rng.randint(1, 3), target - Card.objects.filter(tournament=t).count())
        sold = sell_cards(
            t, f"Spieler {player:03}", count, ACTOR, uuid.uuid4(), paid=rng.random() < 0.8
        )
        if rng.random() < 0.1:
            cancel_sale(t, sold[0].pk, ACTOR)  # a typo (RULES.md 5.1)
    categories(t, rng)
    leaves(t, rng, chance)
    if load_state(t).tournament.cards > cards or len(load_state(t).in_play()) <= t.cards // 2:
        lower_cards(t, ACTOR)
        t.refresh_from_db()
    while load_state(t).next_pot_size() is not None:
        draw_round(t, ACTOR, seed=rng.getrandbits(32))
        leaves(t, rng, chance)
        cards_ = sorted(load_state(t).cards)
        factories.play(t, rng=rng, favour=frozenset(rng.sample(cards_, min(3, len(cards_)))))
        check(t)
        leaves(t, rng, chance / 2)
    factories.play(t, rng=rng)
    check(t)
    finish(t)


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.sampled_from([Format.LEBEN, Format.POINTS]),
    st.integers(2, 24),
    st.integers(0, 2**32),
    st.sampled_from([0.0, 0.3]),
)
def test_a_random_leben_or_points_night_keeps_every_place_prize_and_euro(
    format, players, seed, chance
):
    rng = random.Random(seed)
    t = factories.tournament(
        factories.club(),
        cards=players,
        sold=0,
        max_cards=1,
        format=format,
        lives=2,
        rebuy_until=2 if format == Format.LEBEN else None,
        rounds_planned=3 if format == Format.POINTS else None,
        prizes=PRIZES,
    )
    for i in range(players):
        sell_cards(t, f"Spieler {i + 1:02}", 1, ACTOR, uuid.uuid4(), paid=rng.random() < 0.8)
    categories(t, rng)
    while (board := formats.board(load_state(t))).next_round is not None:
        if format == Format.LEBEN and board.next_round <= 2:
            for line in board.lines:
                if (
                    line.out_round in (None, board.next_round - 1)
                    and line.lives_left < 2
                    and line.card.withdrawn_round is None
                    and rng.random() < 0.3
                ):
                    buy_life(t, line.card.pk, ACTOR, line.card.rebuys)
        draw_round(t, ACTOR, seed=rng.getrandbits(32))
        leaves(t, rng, chance)
        factories.play(t, rng=rng)
        check(t)
    check(t)
    finish(t)
