"""Faults of the tournament desk, on a real database (RULES.md 5.1, 5.5, 5.6, 5.8):
lowering the cards of a small night, places and prizes of nights with byes, the desk
during a draw at the venue, undoing one pull, and the confirmations of risky taps."""

import uuid

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from scoring.rules import RuleError
from tests import factories
from tests.test_tournaments import ACTOR, new_tournament, sell
from tournaments import services
from tournaments.models import Round

pytestmark = pytest.mark.django_db


def left_wins(t):
    """Decide every open match (main and placement, as they become due): the left card wins 2:0."""
    while True:
        state = services.load_state(t)
        pairings = list(state.placement)
        if state.current is not None:
            pairings += state.pairings[state.current.pk]
        open_ = [p for p in pairings if p.kind == "match" and p.pk not in state.results]
        if not open_:
            return
        for pairing in open_:
            pairing.tournament = t
            services.record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)


def numbered(state, places):
    return {place: state.cards[card].number for place, card in places.items()}


def prize_list(state):
    return [(a.place, state.cards[a.card].player.name, a.finished) for a in state.awards()]


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


@pytest.fixture
def organiser(client):
    club = factories.club()
    client.force_login(factories.user(club, "organiser"))
    return club


# --- RULES.md 5.1: 3 cards sold of 8 -------------------------------------------------------


def test_three_cards_sold_of_eight_the_desk_offers_four_and_lowering_lays_out_four(
    client, organiser
):
    t = new_tournament(organiser, cards=8)
    for name in ("Anna", "Ben", "Clara"):
        sell(t, name)
    html = client.get(url("tournament", t)).content.decode()
    assert (
        "Erst 3 von 8 Karten verkauft: die Auslosung braucht mehr als die Hälfte. "
        "Die Kartenzahl auf 4 senken." in html
    )
    assert "Auf 4 Karten senken" in html
    assert "Runde 1 auslosen" not in html
    client.post(url("lower_cards", t))
    t.refresh_from_db()
    assert t.cards == 4
    entry = AuditEntry.objects.get(scope="tournament", scope_id=t.pk, action="cards lowered")
    assert (entry.before, entry.after) == ({"cards": 8, "sold": 3}, {"cards": 4, "sold": 3})
    html = client.get(url("tournament", t)).content.decode()
    assert "Runde 1 auslosen" in html
    assert "senken" not in html
    client.post(url("draw_next", t), {"mode": "digital"})
    assert Round.objects.get(tournament=t).pot_size == 2


@pytest.mark.parametrize("sold", [0, 1])
def test_fewer_than_two_cards_sold_the_desk_says_how_many_to_sell(client, organiser, sold):
    t = new_tournament(organiser, cards=8)
    for i in range(sold):
        sell(t, f"P{i}")
    html = client.get(url("tournament", t)).content.decode()
    assert (
        f"Verkaufte Karten: {sold}. Eine Auslosung braucht mindestens 2: "
        f"noch {2 - sold} verkaufen, dann kann sie beginnen." in html
    )
    assert "senken" not in html
    assert "Runde 1 auslosen" not in html
    with pytest.raises(RuleError) as error:
        services.lower_cards(t, ACTOR)
    assert error.value.params["more"] == 2 - sold


def test_lowering_is_refused_when_more_than_half_are_sold(db):
    t = new_tournament(factories.club(), cards=8)
    for i in range(5):
        sell(t, f"P{i}")
    with pytest.raises(RuleError) as error:
        services.lower_cards(t, ACTOR)
    assert error.value.params == {"sold": 5, "cards": 8}
    t.refresh_from_db()
    assert t.cards == 8


def test_a_four_card_night_of_three_cards_places_all_three_and_gives_three_prizes(db):
    t = new_tournament(factories.club(), cards=8)
    for name in ("Anna", "Ben", "Clara"):
        sell(t, name)
    assert services.lower_cards(t, ACTOR) == 4
    t.refresh_from_db()
    services.draw_round(t, ACTOR, seed=1)  # semi-final: Ben #2 - Anna #1, Clara #3 bye
    left_wins(t)
    services.draw_round(t, ACTOR, seed=2)  # final: Ben #2 - Clara #3
    left_wins(t)
    state = services.load_state(t)
    assert [r.pot_size for r in state.rounds] == [2, 1]
    assert state.placement == []  # one semi-final loser: 3rd without a match
    assert numbered(state, state.places()) == {1: 2, 2: 3, 3: 1}
    assert prize_list(state) == [(1, "Ben", 1), (2, "Clara", 2), (3, "Anna", 3)]


def test_a_two_card_night_is_its_final(db):
    t = new_tournament(factories.club(), cards=8)
    sell(t, "Anna")
    sell(t, "Ben")
    assert services.lower_cards(t, ACTOR) == 2
    t.refresh_from_db()
    services.draw_round(t, ACTOR, seed=1)
    left_wins(t)
    state = services.load_state(t)
    final = state.pairings[state.current.pk]
    assert [(p.kind, state.cards[p.left_id].number) for p in final] == [("match", 2)]
    assert numbered(state, state.places()) == {1: 2, 2: 1}


def test_the_simulate_command_plays_a_four_card_night(db):
    from tournaments.simulation import simulate

    t = simulate(factories.club(), cards=4, players=3, max_cards=1, seed=3)
    state = services.load_state(t)
    assert t.cards == 4
    assert sorted(state.places()) == list(range(1, len(state.cards) + 1))


# --- RULES.md 5.5, 5.8: an 8-card night with a bye in round 1 --------------------------------


def test_an_eight_card_night_with_a_bye_places_every_card_and_gives_every_prize(db):
    t = new_tournament(factories.club(), cards=8, one_prize_per_player=True)
    sell(t, "Anna", 2)  # cards 1 and 2
    for name in ("Ben", "Clara", "Dora", "Emil", "Franz"):
        sell(t, name)
    services.draw_round(t, ACTOR, seed=1)  # 5-6, 3 bye, 7-1, 4-2: losers 6, 1, 2
    left_wins(t)
    services.draw_round(t, ACTOR, seed=2)
    left_wins(t)
    services.draw_round(t, ACTOR, seed=3)
    left_wins(t)
    state = services.load_state(t)
    n = {c.pk: c.number for c in state.cards.values()}
    # Three quarter-final losers: the draw gives one of Anna's cards the bye (she does
    # not meet herself); left wins, so she meets herself for 5/6 (a walkover).
    rows = [(p.label, p.kind, n[p.left_id], p.right_id and n[p.right_id]) for p in state.placement]
    anna = {rows[0][2], rows[1][2]}
    assert anna == {1, 2}
    assert [(label, kind) for label, kind, _l, _r in rows] == [
        ("5-8", "match"),
        ("5-8", "bye"),
        ("3", "match"),
        ("5", "walkover"),
    ]
    assert rows[0][3] == 6 and rows[1][3] is None and rows[2][2:] == (7, 5)
    places = numbered(state, state.places())
    assert places == {1: 4, 2: 3, 3: 7, 4: 5, 5: places[5], 6: places[6], 7: 6}
    assert {places[5], places[6]} == {1, 2}
    # Anna's 6th place passes prize 6 to Emil (7th); six players, six prizes.
    assert prize_list(state) == [
        (1, "Clara", 1),
        (2, "Ben", 2),
        (3, "Franz", 3),
        (4, "Dora", 4),
        (5, "Anna", 5),
        (6, "Emil", 7),
    ]
