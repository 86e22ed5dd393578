"""Withdrawal of a card whose holder goes home (RULES.md 5.7): the pure rules in
``tournaments.bracket`` and the desk, draw, export and bracket page on a real database."""

import random
import uuid

import pytest
from django.urls import reverse

from clubs.audit import history
from scoring import services as scoring
from scoring.rules import QuickDeal, RuleError
from scoring.services import Actor
from tests import factories
from tournaments import bracket, draw
from tournaments.export import export
from tournaments.models import Card, Pairing, Result
from tournaments.services.cards import sell_cards
from tournaments.services.counts import count_in_play, lower_offer
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.layout import lower_cards
from tournaments.services.reading import load_state
from tournaments.services.results import record_result, void_result
from tournaments.services.sheets import open_match_sheet
from tournaments.services.withdrawals import undo_withdrawal, withdraw_card
from tournaments.simulation import play_open_matches, simulate

pytestmark = pytest.mark.django_db
ACTOR = Actor()


# -- the rule core --------------------------------------------------------------------


def test_rule_5_7_an_open_match_with_a_withdrawn_card_is_a_walkover_for_the_opponent():
    match = bracket.Match(1, "match", 10, 11, withdrawn=frozenset({11}))
    assert (match.decided, match.walkover, match.shown_kind) == (True, True, "walkover")
    assert (match.advancing, match.losers, match.loser) == (10, (11,), 11)
    left_gone = bracket.Match(1, "match", 10, 11, withdrawn=frozenset({10}))
    assert (left_gone.advancing, left_gone.losers) == (11, (10,))


def test_rule_5_7_a_result_recorded_before_the_withdrawal_stands():
    match = bracket.Match(1, "match", 10, 11, winner=11, withdrawn=frozenset({11}))
    assert (match.walkover, match.shown_kind, match.advancing, match.losers) == (
        False,
        "match",
        11,
        (10,),
    )


def test_rule_5_7_both_cards_withdrawn_nobody_advances_and_both_are_out():
    match = bracket.Match(1, "match", 10, 11, withdrawn=frozenset({10, 11}))
    assert (match.decided, match.advancing, match.losers) == (True, None, (10, 11))
    final = bracket.RoundState(3, 1, (match,))
    assert bracket.places([final], []) == {}


def test_rule_5_7_a_withdrawn_card_holding_a_bye_or_a_self_walkover_goes_nowhere():
    bye = bracket.Match(2, "bye", 10, None, withdrawn=frozenset({10}))
    assert (bye.decided, bye.advancing, bye.losers) == (True, None, (10,))
    selfish = bracket.Match(3, "walkover", 12, 13, withdrawn=frozenset({12}))
    assert (selfish.advancing, selfish.losers) == (None, (13, 12))


def test_rule_5_7_a_withdrawn_card_is_not_drawn_in_the_next_round():
    first = bracket.RoundState(
        1,
        2,
        (bracket.Match(1, "match", 1, 2, winner=1), bracket.Match(2, "match", 3, 4, winner=4)),
    )
    assert bracket.cards_in_play([first], [1, 2, 3, 4], {4: 1}) == [1]
    # Withdrawn before round 1 (round 0): not drawn in round 1.
    assert bracket.cards_in_play([], [1, 2, 3, 4, 5], {3: 0}) == [1, 2, 4, 5]
    # Replaying round 2 of a card withdrawn during round 2: it was drawn in round 2.
    assert bracket.cards_in_play([first], [1, 2, 3, 4], {4: 2}) == [1, 4]


def test_rule_5_7_a_withdrawn_card_never_gets_a_bye():
    # Round 2 of 8 cards: pots of 2 hold 4 cards; card 4 withdrawn leaves 3, one bye.
    players = {c: c for c in range(1, 9)}
    first = bracket.RoundState(
        1, 4, tuple(bracket.Match(n, "match", n, n + 4, winner=n) for n in range(1, 5))
    )
    in_play = bracket.cards_in_play([first], sorted(players), {4: 1})
    assert in_play == [1, 2, 3]
    assert bracket.next_pot_size([first], 8, len(in_play)) == 2
    for seed in range(30):
        result = draw.digital_draw(bracket.holders(players, in_play), 2, seed, later_round=True)
        byes = [p.left for p in result.pairings if p.kind is draw.Kind.BYE]
        assert len(byes) == 1 and byes[0] != 4
        assert 4 not in {c for p in result.pairings for c in (p.left, p.right)}


def test_rule_5_7_the_pot_halves_again_when_withdrawals_leave_too_few_cards():
    quarter = bracket.RoundState(2, 4, ())
    assert bracket.next_pot_size([quarter], 16, 8) == 2  # as without withdrawals
    assert bracket.next_pot_size([quarter], 16, 2) == 1  # straight to the final
    assert bracket.next_pot_size([quarter], 16, 1) is None  # one card left: no round
    assert bracket.next_pot_size([quarter], 16) == 2


def test_rule_5_7_placement_matches_need_their_whole_field():
    semi = bracket.RoundState(
        3,
        2,
        (
            bracket.Match(1, "match", 1, 2, withdrawn=frozenset({1, 2})),
            bracket.Match(2, "match", 3, 4, winner=3),
        ),
    )
    final = bracket.RoundState(4, 1, (bracket.Match(1, "bye", 3, None),))
    assert [label for label, _ in bracket.placement_due([semi, final], [])] == []


# -- the desk, the draw, the export -----------------------------------------------------


def withdraw_url(t, card):
    return reverse(
        "withdraw_card",
        kwargs={"slug": t.club.slug, "tournament_id": t.pk, "card_id": card.pk},
    )


def test_a_card_withdrawn_before_the_next_draw_is_not_drawn_and_is_listed(client):
    club = factories.signed_in_club(client)
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    play_open_matches(t, random.Random(1))
    state = load_state(t)
    gone = state.cards[sorted(state.in_play())[0]]
    page = client.get(withdraw_url(t, gone))
    assert f"Karte {gone.number} ({gone.player.name}) zurückziehen?" in page.content.decode()
    response = client.post(withdraw_url(t, gone))
    assert response.status_code == 302
    assert Card.objects.get(pk=gone.pk).withdrawn_round == 1
    draw_round(t, ACTOR, seed=2)
    state = load_state(t)
    second = state.pairings[state.rounds[1].pk]
    assert gone.pk not in {c for p in second for c in (p.left_id, p.right_id)}
    byes = [p for p in second if p.kind == "bye"]
    assert len(byes) == 1 and byes[0].left_id != gone.pk
    assert state.rounds[1].pot_size == 2
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    assert "zurückgezogen in Runde 1" in desk.content.decode()
    exported = export(t)
    assert exported["withdrawn"] == [
        {"card": gone.number, "player": gone.player.name, "withdrawn_round": 1}
    ]
    # It keeps its round-1 result.
    first = [p for p in exported["rounds"][0]["pairings"] if p["winner_card"] == gone.number]
    assert len(first) == 1 and first[0]["score"] in ("2:0", "2:1")
    bracket_page = client.get(reverse("bracket", kwargs={"token": t.public_token}))
    assert f"{gone.player.name} <small>#{gone.number}</small> (Runde 1)" in (
        bracket_page.content.decode()
    )


def test_a_card_withdrawn_after_the_draw_gives_its_opponent_a_walkover(client):
    club = factories.signed_in_club(client)
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    gone = Card.objects.get(pk=pairing.right_id)
    client.post(withdraw_url(t, gone))
    state = load_state(t)
    match = state.matches[pairing.pk]
    assert (match.walkover, match.advancing) == (True, pairing.left_id)
    exported = export(t)["rounds"][0]["pairings"][pairing.number - 1]
    left = Card.objects.get(pk=pairing.left_id)
    assert (exported["kind"], exported["winner_card"], exported["score"]) == (
        "walkover",
        left.number,
        None,
    )
    assert exported["withdrawn"] == [gone.number]
    with pytest.raises(RuleError) as refused:
        pairing.tournament = t
        record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    assert refused.value.params == {"name": gone.player.name, "card": gone.number}
    round_page = client.get(
        reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    )
    assert round_page.context["rows"][pairing.number - 1].kind == "walkover"
    assert f'name="winner" value="{gone.pk}"' not in round_page.content.decode()
    # The round is decided once the other three are: the opponent is drawn on.
    play_open_matches(t, random.Random(3))
    draw_round(t, ACTOR, seed=4)
    state = load_state(t)
    drawn = {c for p in state.pairings[state.rounds[1].pk] for c in (p.left_id, p.right_id)}
    assert pairing.left_id in drawn and gone.pk not in drawn


def test_a_withdrawn_card_with_a_bye_goes_nowhere(db):
    t = factories.night(factories.club(), cards=8, sold=5)  # three byes in round 1
    draw_round(t, ACTOR, seed=1)
    bye = Pairing.objects.filter(tournament=t, kind="bye").order_by("number").first()
    withdraw_card(t, bye.left_id, ACTOR)
    play_open_matches(t, random.Random(1))
    state = load_state(t)
    assert bye.left_id not in state.in_play()
    assert len(state.in_play()) == 3
    draw_round(t, ACTOR, seed=2)
    state = load_state(t)
    drawn = {c for p in state.pairings[state.rounds[1].pk] for c in (p.left_id, p.right_id)}
    assert bye.left_id not in drawn


def test_both_cards_of_a_match_withdrawn_leave_no_one_to_advance(db):
    t = factories.night(factories.club())
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    withdraw_card(t, pairing.left_id, ACTOR)
    withdraw_card(t, pairing.right_id, ACTOR)
    exported = export(t)["rounds"][0]["pairings"][pairing.number - 1]
    numbers = sorted(
        Card.objects.filter(pk__in=(pairing.left_id, pairing.right_id)).values_list(
            "number", flat=True
        )
    )
    assert (exported["kind"], exported["winner_card"], exported["withdrawn"]) == (
        "walkover",
        None,
        numbers,
    )
    play_open_matches(t, random.Random(2))
    state = load_state(t)
    assert len(state.in_play()) == 3 and state.next_pot_size() == 2


def first_match_decided(club):
    """A 16-card night (round 1 is no quarter-final), all sold, round 1 drawn, its first
    match won by the left card 2:0: the tournament and that match."""
    t = factories.night(club, cards=16, sold=16)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    pairing.tournament = t
    record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    return t, pairing


def test_a_card_that_is_out_cannot_be_withdrawn(db):
    t, pairing = first_match_decided(factories.club())
    loser = Card.objects.select_related("player").get(pk=pairing.right_id)
    with pytest.raises(RuleError) as refused:
        withdraw_card(t, loser.pk, ACTOR)
    assert refused.value.template == (
        "Card %(card)s (%(name)s) has no match ahead: it is out already."
    )
    assert refused.value.params == {"card": loser.number, "name": loser.player.name}


def test_a_card_withdrawn_already_cannot_be_withdrawn_again(db):
    t, pairing = first_match_decided(factories.club())
    withdraw_card(t, pairing.left_id, ACTOR)
    with pytest.raises(RuleError) as again:
        withdraw_card(t, pairing.left_id, ACTOR)
    assert again.value.template == "Card %(card)s is withdrawn already."
    assert again.value.params == {"card": Card.objects.get(pk=pairing.left_id).number}


def test_a_withdrawal_is_undone_while_no_round_was_drawn_after_it_and_both_are_in_history(
    client,
):
    club = factories.signed_in_club(client)
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    gone = Card.objects.get(pk=pairing.right_id)
    withdraw_card(t, gone.pk, ACTOR)
    response = client.post(withdraw_url(t, gone), {"undo": "1"})
    assert response.status_code == 302
    state = load_state(t)
    assert state.matches[pairing.pk].decided is False
    assert Card.objects.get(pk=gone.pk).withdrawn_round is None
    actions = [e.action for e in history("tournament", t.pk)]
    assert actions.count("card withdrawn") == 1 and actions.count("withdrawal undone") == 1
    # Withdrawn again, then round 2 is drawn without it: no undo any more.
    withdraw_card(t, gone.pk, ACTOR)
    play_open_matches(t, random.Random(1))
    draw_round(t, ACTOR, seed=2)
    response = client.post(withdraw_url(t, gone), {"undo": "1"})
    assert response.status_code == 400
    assert (
        f"Runde 2 wurde ohne Karte {gone.number} ausgelost: zuerst diese Auslosung zurücknehmen."
        in response.content.decode()
    )
    assert Card.objects.get(pk=gone.pk).withdrawn_round == 1


def test_a_withdrawal_closes_the_match_sheet(db):
    factories.presets()
    t = factories.night(factories.club())
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    pairing.tournament = t
    sheet = open_match_sheet(pairing, ACTOR)
    gone = Card.objects.select_related("player").get(pk=pairing.left_id)
    withdraw_card(t, gone.pk, ACTOR)
    with pytest.raises(RuleError) as refused:
        scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), scoring.Actor(None, True))
    assert refused.value.params == {"name": gone.player.name, "card": gone.number}
    undo_withdrawal(t, gone.pk, ACTOR)
    scoring.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), scoring.Actor(None, True))


def test_a_withdrawn_quarter_final_loser_gives_a_walkover_in_the_placement_match(db):
    t = simulate(factories.club(), cards=16, players=16, max_cards=1, seed=5, stop_after=3)
    state = load_state(t)
    first, second = [p for p in state.placement if p.label == "5-8"]
    for pairing in (first, second):
        pairing.tournament = t
        void_result(pairing, ACTOR)
    withdraw_card(t, first.right_id, ACTOR)
    second.tournament = t
    record_result(second, second.left_id, "2:1", uuid.uuid4(), ACTOR)
    state = load_state(t)
    five = next(p for p in state.placement if p.label == "5")
    seven = next(p for p in state.placement if p.label == "7")
    assert {five.left_id, five.right_id} == {first.left_id, second.left_id}
    assert {seven.left_id, seven.right_id} == {first.right_id, second.right_id}
    # The withdrawn card is in the match for 7: a walkover for the other.
    assert state.matches[seven.pk].advancing == second.right_id
    assert Result.objects.live().filter(pairing=first).count() == 0


def test_a_card_withdrawn_before_round_one_is_not_drawn_and_not_counted_as_sold(db):
    t = factories.night(factories.club(), cards=8, sold=5)
    gone = Card.objects.filter(tournament=t).order_by("number").first()
    withdraw_card(t, gone.pk, ACTOR)
    assert Card.objects.get(pk=gone.pk).withdrawn_round == 0
    with pytest.raises(RuleError) as refused:  # 4 of 8 left in: not more than half
        draw_round(t, ACTOR, seed=1)
    assert refused.value.field == "cards"
    undo_withdrawal(t, gone.pk, ACTOR)
    withdraw_card(t, gone.pk, ACTOR)
    sell_cards(t, "Neu", 1, ACTOR, uuid.uuid4(), paid=True)
    draw_round(t, ACTOR, seed=1)
    drawn = {c for p in Pairing.objects.filter(tournament=t) for c in (p.left_id, p.right_id)}
    assert gone.pk not in drawn
    assert len(drawn - {None}) == 5


def test_undoing_the_draw_of_the_withdrawal_round_keeps_the_card_out(db):
    t = factories.night(factories.club())
    draw_round(t, ACTOR, seed=1)
    play_open_matches(t, random.Random(1))
    second = draw_round(t, ACTOR, seed=2)
    pairing = Pairing.objects.filter(round=second, kind="match").order_by("number").first()
    withdraw_card(t, pairing.left_id, ACTOR)
    undo_draw(t, second.pk, ACTOR)  # a walkover is no result: the undo is allowed
    assert Card.objects.get(pk=pairing.left_id).withdrawn_round == 1
    draw_round(t, ACTOR, seed=2)
    state = load_state(t)
    drawn = {c for p in state.pairings[state.rounds[1].pk] for c in (p.left_id, p.right_id)}
    assert pairing.left_id not in drawn and len(drawn - {None}) == 3


def test_the_withdraw_page_names_the_match_that_becomes_a_walkover(client):
    club = factories.signed_in_club(client)
    t = factories.night(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    gone = Card.objects.select_related("player").get(pk=pairing.left_id)
    other = Card.objects.select_related("player").get(pk=pairing.right_id)
    html = client.get(withdraw_url(t, gone)).content.decode()
    assert f"Partie {pairing.number}: {gone.player.name} – {other.player.name}" in html
    client.force_login(factories.user(club, role="scorer"))
    assert client.post(withdraw_url(t, gone)).status_code == 403
    assert Card.objects.get(pk=gone.pk).withdrawn_round is None


def test_rule_5_7_only_a_card_with_a_match_ahead_can_be_withdrawn():
    quarter = bracket.RoundState(
        1, 4, tuple(bracket.Match(n, "match", n, n + 4, winner=n) for n in range(1, 5))
    )
    semi = bracket.RoundState(
        2, 2, (bracket.Match(1, "match", 1, 2, winner=1), bracket.Match(2, "match", 3, 4))
    )
    sold = list(range(1, 9))
    # The semi-final is open: its four cards, and the quarter-final losers (5 to 8 ahead).
    assert bracket.still_playing([quarter, semi], [], sold) == set(range(1, 9))
    final = bracket.RoundState(3, 1, (bracket.Match(1, "match", 1, 3, winner=3),))
    semi = bracket.RoundState(
        2, 2, (bracket.Match(1, "match", 1, 2, winner=1), bracket.Match(2, "match", 3, 4, winner=3))
    )
    placement = [
        bracket.Match(1, "match", 5, 6, winner=5, label="5-8"),
        bracket.Match(2, "match", 7, 8, winner=7, label="5-8"),
        bracket.Match(3, "match", 2, 4, winner=2, label="3"),
        bracket.Match(4, "match", 5, 7, winner=5, label="5"),
        bracket.Match(5, "match", 6, 8, label="7"),
    ]
    # The final is decided: only the open match for 7/8 is still to play.
    assert bracket.still_playing([quarter, semi, final], placement, sold) == {6, 8}
    assert bracket.still_playing([quarter, semi, final], placement, sold, {6: 3}) == {8}


# -- before round 1, every count is of the cards in play (RULES.md 5.1, 5.7) -----------------


def desk_url(t, name="tournament"):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk})


def test_a_withdrawal_after_lowering_offers_the_next_lowering_and_the_draw_starts(client):
    club = factories.signed_in_club(client)
    t = factories.night(club, cards=8, sold=3)
    client.post(desk_url(t, "lower_cards"))
    t.refresh_from_db()
    assert t.cards == 4
    gone = Card.objects.get(tournament=t, number=3)
    withdraw_card(t, gone.pk, ACTOR)
    desk = client.get(desk_url(t))
    assert (desk.context["draw_refusal"], desk.context["lower_to"]) == (
        "Erst 2 von 4 Karten verkauft: die Auslosung braucht mehr als die Hälfte. "
        "Die Kartenzahl auf 2 senken.",
        2,
    )
    assert lower_offer(t, count_in_play(t)) == 2
    lowered = client.post(desk_url(t, "lower_cards"), follow=True)
    assert [str(m) for m in lowered.context["messages"]] == ["Jetzt sind 2 Karten aufgelegt."]
    t.refresh_from_db()
    assert t.cards == 2
    assert (lowered.context["draw_refusal"], lowered.context["lower_to"]) == (None, None)
    round_ = draw_round(t, ACTOR, seed=1)
    numbers = {c.pk: c.number for c in Card.objects.filter(tournament=t)}
    assert [
        (p.kind, sorted([numbers[p.left_id], numbers[p.right_id]]))
        for p in Pairing.objects.filter(round=round_)
    ] == [("match", [1, 2])]


def test_lowering_counts_the_cards_in_play_not_the_cards_sold(db):
    t = factories.night(factories.club(), cards=8, sold=5)
    withdraw_card(t, Card.objects.get(tournament=t, number=5).pk, ACTOR)
    assert lower_cards(t, ACTOR) == 4  # 4 in play of 8: not more than half
    draw_round(t, ACTOR, seed=1)
    t = factories.night(factories.club(), cards=8, sold=6)
    withdraw_card(t, Card.objects.get(tournament=t, number=6).pk, ACTOR)
    with pytest.raises(RuleError) as refused:  # 5 in play of 8: the draw starts as it is
        lower_cards(t, ACTOR)
    assert refused.value.params == {"sold": 5, "cards": 8}
    t.refresh_from_db()
    assert t.cards == 8


def test_a_card_withdrawn_before_round_one_frees_its_place_for_a_sale(db):
    t = factories.night(factories.club(), cards=8, sold=8)
    gone = Card.objects.get(tournament=t, number=2)
    withdraw_card(t, gone.pk, ACTOR)
    (sold,) = sell_cards(t, "Neu", 1, ACTOR, uuid.uuid4(), paid=True)
    assert sold.number == 9  # numbers go on after every card sold
    with pytest.raises(RuleError) as refused:
        sell_cards(t, "Noch", 1, ACTOR, uuid.uuid4(), paid=True)
    assert refused.value.params == {"left": 0, "cards": 8}
    with pytest.raises(RuleError) as refused:  # its place is taken: it cannot come back
        undo_withdrawal(t, gone.pk, ACTOR)
    assert refused.value.template == (
        "Card %(card)s cannot come back: all %(cards)s cards laid out are in play."
    )
    assert refused.value.params == {"card": 2, "cards": 8}
    assert Card.objects.get(pk=gone.pk).withdrawn_round == 0
    round_ = draw_round(t, ACTOR, seed=1)
    drawn = {c for p in Pairing.objects.filter(round=round_) for c in (p.left_id, p.right_id)}
    assert gone.pk not in drawn and len(drawn - {None}) == 8
