"""Faults of the tournament desk, on a real database (RULES.md 5.1, 5.5, 5.6, 5.8):
lowering the cards of a small night, places and prizes of nights with byes, the desk
during a draw at the venue, undoing one pull, and the confirmations of risky taps."""

import uuid

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from clubs.models import AuditEntry
from scoring.rules import RuleError
from tests import factories
from tests.tournaments.test_tournaments import ACTOR
from tournaments import ledger
from tournaments.export import export
from tournaments.models import Card, Pairing, Pull, Round
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.layout import lower_cards
from tournaments.services.physical_draws import add_pull, start_physical_draw, undo_last_pull
from tournaments.services.reading import load_state, physical_session
from tournaments.services.results import record_result

pytestmark = pytest.mark.django_db


def numbered(state, places):
    return {place: state.cards[card].number for place, card in places.items()}


def prize_list(state):
    return [(a.place, state.cards[a.card].player.name, a.finished) for a in state.awards()]


def url(name, t, **kwargs):
    return reverse(name, kwargs={"slug": t.club.slug, "tournament_id": t.pk, **kwargs})


@pytest.fixture
def organiser(client):
    return factories.signed_in_club(client)


# --- RULES.md 5.1: 3 cards sold of 8 -------------------------------------------------------


def test_three_cards_sold_of_eight_the_desk_offers_four_and_lowering_lays_out_four(
    client, organiser
):
    t = factories.tournament(organiser, cards=8, prizes=8)
    for name in ("Anna", "Ben", "Clara"):
        factories.sell(t, name)
    html = client.get(url("tournament", t)).content.decode()
    assert (
        "Erst 3 von 8 Karten verkauft: die Auslosung braucht mehr als die Hälfte. "
        "Die Kartenzahl auf 4 senken." in html
    )
    assert "Auf 4 Karten senken" in html
    assert "auslosen</button>" not in html
    client.post(url("lower_cards", t))
    t.refresh_from_db()
    assert t.cards == 4
    entry = AuditEntry.objects.get(scope="tournament", scope_id=t.pk, action="cards lowered")
    assert (entry.before, entry.after) == ({"cards": 8, "sold": 3}, {"cards": 4, "sold": 3})
    html = client.get(url("tournament", t)).content.decode()
    assert '<button class="won" name="mode" value="digital">Halbfinale auslosen</button>' in html
    assert "senken" not in html
    client.post(url("draw_next", t), {"mode": "digital"})
    assert Round.objects.get(tournament=t).pot_size == 2


@pytest.mark.parametrize("sold", [0, 1])
def test_fewer_than_two_cards_sold_the_desk_says_how_many_to_sell(client, organiser, sold):
    t = factories.tournament(organiser, cards=8, sold=sold, prizes=8)
    html = client.get(url("tournament", t)).content.decode()
    assert (
        f"Verkaufte Karten: {sold}. Eine Auslosung braucht mindestens 2: "
        f"noch {2 - sold} verkaufen, dann kann sie beginnen." in html
    )
    assert "senken" not in html
    assert "auslosen</button>" not in html
    with pytest.raises(RuleError) as error:
        lower_cards(t, ACTOR)
    assert error.value.params["more"] == 2 - sold


def test_lowering_is_refused_when_more_than_half_are_sold(db):
    t = factories.tournament(factories.club(), cards=8, sold=5, prizes=8)
    with pytest.raises(RuleError) as error:
        lower_cards(t, ACTOR)
    assert error.value.params == {"sold": 5, "cards": 8}
    t.refresh_from_db()
    assert t.cards == 8


def test_a_four_card_night_of_three_cards_places_all_three_and_gives_three_prizes(db):
    t = factories.tournament(factories.club(), cards=8, prizes=8)
    for name in ("Anna", "Ben", "Clara"):
        factories.sell(t, name)
    assert lower_cards(t, ACTOR) == 4
    t.refresh_from_db()
    draw_round(t, ACTOR, seed=1)  # semi-final: Ben #2 - Anna #1, Clara #3 bye
    factories.left_wins(t)
    draw_round(t, ACTOR, seed=2)  # final: Ben #2 - Clara #3
    factories.left_wins(t)
    state = load_state(t)
    assert [r.pot_size for r in state.rounds] == [2, 1]
    assert state.placement == []  # one semi-final loser: 3rd without a match
    assert numbered(state, state.places()) == {1: 2, 2: 3, 3: 1}
    assert prize_list(state) == [(1, "Ben", 1), (2, "Clara", 2), (3, "Anna", 3)]


def test_a_two_card_night_is_its_final(db):
    t = factories.tournament(factories.club(), cards=8, prizes=8)
    factories.sell(t, "Anna")
    factories.sell(t, "Ben")
    assert lower_cards(t, ACTOR) == 2
    t.refresh_from_db()
    draw_round(t, ACTOR, seed=1)
    factories.left_wins(t)
    state = load_state(t)
    final = state.pairings[state.current.pk]
    assert [(p.kind, state.cards[p.left_id].number) for p in final] == [("match", 2)]
    assert numbered(state, state.places()) == {1: 2, 2: 1}


@pytest.mark.parametrize(("cards", "players"), [(4, 3), (2, 2)])
def test_the_simulate_command_plays_a_lowered_night(db, cards, players):
    import io
    import json

    from django.core.management import call_command

    out = io.StringIO()
    call_command(
        "tournament",
        "simulate",
        "--cards",
        cards,
        "--players",
        players,
        "--max-cards",
        1,
        stdout=out,
    )
    night = json.loads(out.getvalue())
    assert night["cards"] == cards
    assert [r["pot_size"] for r in night["rounds"]] == [
        cards // 2**k for k in range(1, cards.bit_length())
    ]
    sold = sum(len(p["cards"]) for p in night["players"])
    assert [(r["place"], r["to"]) for r in night["ranking"]] == [(p, p) for p in range(1, sold + 1)]
    given = [p["place"] for p in night["prizes"] if p["open"] == ""]
    assert given == list(range(1, sold + 1))
    assert all(p["open"] == "nobody" for p in night["prizes"][sold:])  # no card left


# --- RULES.md 5.5, 5.8: an 8-card night with a bye in round 1 --------------------------------


def test_an_eight_card_night_with_a_bye_places_every_card_and_gives_every_prize(db):
    t = factories.tournament(factories.club(), cards=8, one_prize_per_player=True, prizes=8)
    factories.sell(t, "Anna", count=2)  # cards 1 and 2
    for name in ("Ben", "Clara", "Dora", "Emil", "Franz"):
        factories.sell(t, name)
    draw_round(t, ACTOR, seed=1)  # 5-6, 3 bye, 7-1, 4-2: losers 6, 1, 2
    factories.left_wins(t)
    draw_round(t, ACTOR, seed=2)
    factories.left_wins(t)
    draw_round(t, ACTOR, seed=3)
    factories.left_wins(t)
    state = load_state(t)
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


# --- RULES.md 5.6: a draw at the venue in progress --------------------------------------------


def five_sold(club):
    """Cards 1 … 5 sold to P0 … P4: the venue calls P0 … P4 up in this order."""
    return factories.tournament(club, cards=8, sold=5, prizes=8)


def test_the_desk_offers_no_draw_while_a_draw_at_the_venue_is_typed_in(client, organiser):
    t = five_sold(organiser)
    client.post(url("draw_next", t), {"mode": "physical"})
    round_ = Round.objects.get(tournament=t)
    add_pull(t, round_.pk, 3, ACTOR)
    html = client.get(url("tournament", t)).content.decode()
    assert "Viertelfinale wird vor Ort ausgelost." in html
    physical = url("physical_draw", t)
    assert f'<a class="button" href="{physical}">Auslosung läuft: weiter eintragen</a>' in html
    for offer in ("auslosen</button>", "Auslosung vor Ort eintragen"):
        assert offer not in html
    with pytest.raises(RuleError):  # the service refuses as the page does
        draw_round(t, ACTOR)


def test_the_last_pull_is_undone_kept_and_the_same_card_pulls_again(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    add_pull(t, round_.pk, 1, ACTOR)  # P0 left 1
    add_pull(t, round_.pk, 2, ACTOR)  # P1 left 2: typed wrongly, 4 was pulled
    undone = undo_last_pull(t, round_.pk, ACTOR)
    assert (undone.index, undone.number, undone.undone_at is not None) == (1, 2, True)
    entry = AuditEntry.objects.get(scope="tournament", scope_id=t.pk, action="pull undone")
    assert entry.before == {
        "round": 1,
        "pull": 2,
        "player": "P1",
        "card": 2,
        "pot": "left",
        "number": 2,
        "put_back": False,
    }
    state = load_state(t)
    session = physical_session(state, state.in_progress)
    assert [p.number for p in session.pulls] == [1]
    assert state.cards[session.next_turn()[1]].number == 2  # P1 pulls again
    assert session.allowed() == [2, 3, 4]
    for number in (4, 2, 3, 1):  # P1 L4, P2 L2, P3 L3, P4 right 1
        add_pull(t, round_.pk, number, ACTOR)
    state = load_state(t)
    n = {c.pk: c.number for c in state.cards.values()}
    assert [
        (p.number, p.kind, n[p.left_id], p.right_id and n[p.right_id])
        for p in state.pairings[round_.pk]
    ] == [(1, "match", 1, 5), (2, "bye", 3, None), (3, "bye", 4, None), (4, "bye", 2, None)]
    rows = list(Pull.objects.filter(round=round_).values_list("index", "number", "undone_at"))
    assert [(i, number, at is not None) for i, number, at in rows] == [
        (0, 1, False),
        (1, 2, True),
        (1, 4, False),
        (2, 2, False),
        (3, 3, False),
        (4, 1, False),
    ]
    exported = export(t)["rounds"][0]["pulls"]
    assert [(p["card"], p["pot"], p["number"]) for p in exported] == [
        (1, "left", 1),
        (2, "left", 4),
        (3, "left", 2),
        (4, "left", 3),
        (5, "right", 1),
    ]


def test_two_live_pulls_at_one_place_of_the_order_are_refused_by_the_database(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    first = add_pull(t, round_.pk, 1, ACTOR)
    card = Card.objects.get(pk=first.card)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pull.objects.create(
            round=round_, index=0, player=card.player, card=card, pot="left", number=2
        )


def test_undoing_a_pull_needs_a_pull_of_the_draw_at_the_venue(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    with pytest.raises(RuleError) as error:
        undo_last_pull(t, round_.pk, ACTOR)
    assert (error.value.field, error.value.template) == ("round", "No number has been pulled yet.")


def test_a_digital_draw_is_not_undone_pull_by_pull(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    undo_draw(t, round_.pk, ACTOR)
    digital = draw_round(t, ACTOR, seed=1)
    with pytest.raises(RuleError) as error:  # a digital draw is undone as a whole
        undo_last_pull(t, digital.pk, ACTOR)
    assert error.value.template == "Only the latest draw at the venue can be undone pull by pull."


def test_undoing_the_pull_that_completed_the_draw_opens_the_draw_again(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    for number in (1, 2, 3, 4, 1):  # P4 right 1: typed wrongly, 3 was pulled
        add_pull(t, round_.pk, number, ACTOR)
    made = list(Pairing.objects.filter(round=round_))
    undo_last_pull(t, round_.pk, ACTOR)
    state = load_state(t)
    assert state.in_progress.pk == round_.pk
    assert state.pairings[round_.pk] == []
    assert all(p.voided_at for p in Pairing.objects.filter(pk__in=[p.pk for p in made]))
    entry = AuditEntry.objects.get(scope="tournament", scope_id=t.pk, action="pull undone")
    assert entry.after == {"draw_reopened": True, "pairings_undone": 4}
    add_pull(t, round_.pk, 3, ACTOR)
    state = load_state(t)
    n = {c.pk: c.number for c in state.cards.values()}
    assert [
        (p.number, p.kind, n[p.left_id], p.right_id and n[p.right_id])
        for p in state.pairings[round_.pk]
    ] == [(1, "bye", 1, None), (2, "bye", 2, None), (3, "match", 3, 5), (4, "bye", 4, None)]


def test_a_result_on_the_completed_draw_keeps_its_last_pull(db):
    t = five_sold(factories.club())
    round_ = start_physical_draw(t, ACTOR)
    for number in (1, 2, 3, 4, 1):
        add_pull(t, round_.pk, number, ACTOR)
    match = Pairing.objects.select_related("tournament").get(round=round_, kind="match")
    record_result(match, match.left_id, "2:0", uuid.uuid4(), ACTOR)
    with pytest.raises(RuleError) as error:
        undo_last_pull(t, round_.pk, ACTOR)
    assert error.value.params == {"number": 1, "list": "1"}
    assert Pull.objects.live().filter(round=round_).count() == 5


def test_the_physical_draw_page_undoes_the_last_pull_after_a_confirmation(client, organiser):
    t = five_sold(organiser)
    round_ = start_physical_draw(t, ACTOR)
    add_pull(t, round_.pk, 1, ACTOR)
    add_pull(t, round_.pk, 2, ACTOR)
    undo = url("undo_pull", t, round_id=round_.pk)
    page = client.get(url("physical_draw", t)).content.decode()
    assert f'<a href="{undo}">Letzte Ziehung zurücknehmen</a>' in page
    ask = client.get(undo).content.decode()
    assert "<h1>Ziehung 2 zurücknehmen?</h1>" in ask
    assert "<p>P1 (Karte 2): linker Topf 2.</p>" in ask
    assert '<input type="hidden" name="confirm" value="1">' in ask
    second = Pull.objects.live().get(round=round_, index=1)
    assert f'<input type="hidden" name="pull" value="{second.pk}">' in ask
    assert client.post(undo).status_code == 200  # no confirm: asks again
    assert client.post(undo, {"confirm": "1"}).status_code == 200  # no pull named: asks again
    assert Pull.objects.live().filter(round=round_).count() == 2
    response = client.post(undo, {"confirm": "1", "pull": second.pk})
    assert response["Location"] == url("physical_draw", t)
    assert [p.number for p in Pull.objects.live().filter(round=round_)] == [1]
    page = client.get(url("physical_draw", t))
    assert page.context["turn_card"].number == 2


def test_the_desk_offers_to_undo_the_pull_that_completed_a_draw_at_the_venue(client, organiser):
    t = five_sold(organiser)
    round_ = start_physical_draw(t, ACTOR)
    for number in (1, 2, 3, 4, 1):
        add_pull(t, round_.pk, number, ACTOR)
    undo = url("undo_pull", t, round_id=round_.pk)
    html = client.get(url("tournament", t)).content.decode()
    assert f'<a href="{undo}">Letzte Ziehung zurücknehmen</a>' in html
    ask = client.get(undo).content.decode()
    assert "<h1>Ziehung 5 zurücknehmen?</h1>" in ask
    assert "<p>P4 (Karte 5): rechter Topf 1.</p>" in ask
    assert "Diese Ziehung hat die Auslosung abgeschlossen" in ask
    fifth = Pull.objects.live().get(round=round_, index=4)
    response = client.post(undo, {"confirm": "1", "pull": fifth.pk})
    assert response["Location"] == url("physical_draw", t)
    assert client.get(url("physical_draw", t)).context["turn_card"].number == 5


# --- Confirmations: undoing a draw, taking back "paid" -----------------------------------------


def test_undoing_a_draw_asks_first_and_works_without_javascript(client, organiser):
    t = five_sold(organiser)
    round_ = draw_round(t, ACTOR, seed=1)
    undo = url("undo_draw", t, round_id=round_.pk)
    html = client.get(url("tournament", t)).content.decode()
    assert f'<a href="{undo}">Diese Auslosung zurücknehmen</a>' in html
    ask = client.get(undo).content.decode()
    assert "<h1>Die Auslosung der Runde 1 zurücknehmen?</h1>" in ask
    assert "Ja, Auslosung zurücknehmen" in ask
    assert client.post(undo).status_code == 200
    round_.refresh_from_db()
    assert round_.undone_at is None
    assert client.post(undo, {"confirm": "1"})["Location"] == url("tournament", t)
    round_.refresh_from_db()
    assert round_.undone_at is not None


def test_marking_paid_is_one_tap_and_taking_it_back_asks_first(client, organiser):
    t = factories.tournament(organiser, cards=8, prizes=8)
    anna = factories.sell(t, "Anna")[0]  # sold paid
    ben = sell_cards(t, "Ben", 1, ACTOR, uuid.uuid4(), paid=False)[0]
    paid_url = url("mark_paid", t, card_id=anna.pk)
    html = client.get(url("tournament", t)).content.decode()
    assert f'<a href="{paid_url}?paid=0">ja</a>' in html
    ask = client.get(paid_url, {"paid": "0"}).content.decode()
    assert "<h1>Karte 1 von Anna: nicht bezahlt?</h1>" in ask
    assert "€ 10,00 stehen in der Kassa als offen" in ask
    assert '<input type="hidden" name="paid" value="0">' in ask
    assert client.post(paid_url, {"paid": "0"}).status_code == 200
    assert Card.objects.get(pk=anna.pk).paid is True
    client.post(paid_url, {"paid": "0", "confirm": "1"})
    assert Card.objects.get(pk=anna.pk).paid is False
    # Marking as paid: one tap, no question; a GET never writes.
    client.get(url("mark_paid", t, card_id=ben.pk), {"paid": "1"})
    assert Card.objects.get(pk=ben.pk).paid is False
    response = client.post(url("mark_paid", t, card_id=ben.pk), {"paid": "1"})
    assert response.status_code == 302
    assert Card.objects.get(pk=ben.pk).paid is True
    changes = AuditEntry.objects.filter(scope="tournament", action="card paid").order_by("id")
    assert [(e.before, e.after) for e in changes] == [
        ({"card": 1, "paid": True}, {"card": 1, "paid": False}),
        ({"card": 2, "paid": False}, {"card": 2, "paid": True}),
    ]


# --- Printouts of a small night and of a draw with an undone pull ------------------------------


def test_a_four_card_night_prints_its_bracket_prizes_and_a_draw_list_without_undone_pulls(
    client, organiser
):
    from tests.base.test_printing import pdf_of, text_of

    t = factories.tournament(organiser, cards=8, prizes=8)
    for name in ("Anna", "Ben", "Clara"):
        factories.sell(t, name)
    lower_cards(t, ACTOR)
    t.refresh_from_db()
    round_ = start_physical_draw(t, ACTOR)
    add_pull(t, round_.pk, 2, ACTOR)  # Anna left 2
    add_pull(t, round_.pk, 1, ACTOR)  # Ben left 1
    add_pull(t, round_.pk, 1, ACTOR)  # Clara right 1, typed wrongly: 2 was pulled
    assert load_state(t).current.drawn_at is not None  # Clara's pull completed it
    undo_last_pull(t, round_.pk, ACTOR)
    add_pull(t, round_.pk, 2, ACTOR)  # Clara right 2: Anna - Clara, Ben bye
    factories.left_wins(t)
    draw_round(t, ACTOR, seed=1)
    factories.left_wins(t)
    places = numbered(load_state(t), load_state(t).places())
    assert (sorted(places), {places[1], places[2]}, places[3]) == ([1, 2, 3], {1, 2}, 3)
    draw_list = text_of(pdf_of(client.get(url("print_draw", t, number=1))))
    assert draw_list.count("Clara") == 2  # the pull and the pairing; the undone pull is gone
    bracket = text_of(pdf_of(client.get(url("print_bracket", t))))
    assert all(name in bracket for name in ("Anna", "Ben", "Clara"))
    prizes = text_of(pdf_of(client.get(url("print_prizes", t))))
    assert all(f"P{p}" in prizes for p in (1, 2, 3))


def test_every_card_is_ranked_and_one_prize_each_reaches_into_the_shared_range(db):
    from tournaments.models import Tournament
    from tournaments.simulation import simulate

    # 10 cards of 16 sold to five players: round 1 has six byes, its two losers share 9-10.
    t = simulate(factories.club(), cards=16, players=5, max_cards=3, seed=1)
    Tournament.objects.filter(pk=t.pk).update(one_prize_per_player=True)
    t.refresh_from_db()
    exported = export(t)
    ranking = [(r["place"], r["to"]) for r in exported["ranking"]]
    assert ranking == [(p, p) for p in range(1, 9)] + [(9, 10), (9, 10)]
    assert sorted(r["card"] for r in exported["ranking"]) == list(range(1, 11))
    shared = [r for r in exported["ranking"] if r["place"] == 9]
    assert shared[0]["card"] < shared[1]["card"]  # card order within a shared range
    state = load_state(t)
    awards = state.awards()
    assert [a.place for a in awards] == [1, 2, 3, 4, 5]
    assert {a.player for a in awards} == {c.player_id for c in state.cards.values()}
    # Prize 5 passed past place 8 into 9-10, where one card of a player without a prize
    # is: it is his whatever the order in the range; prizes 6 to 8 have nobody left.
    fifth = awards[4]
    assert fifth.finished == 9
    in_range = {
        c.player_id for c in state.cards.values() if c.number in {r["card"] for r in shared}
    }
    assert {fifth.player} == in_range - {a.player for a in awards[:4]}
    assert [x.open for x in state.prize_lines[5:]] == [ledger.NOBODY] * 3


@pytest.mark.parametrize(
    ("role", "code"), [("member", 403), ("scorer", 403), ("organiser", 200), ("owner", 200)]
)
def test_the_confirmation_pages_are_for_organisers(client, role, code):
    club = factories.club()
    t = five_sold(club)
    round_ = start_physical_draw(t, ACTOR)
    add_pull(t, round_.pk, 1, ACTOR)
    card = Card.objects.get(tournament=t, number=1)  # sold paid
    client.force_login(factories.user(club, role=role))
    pages = [
        url("undo_draw", t, round_id=round_.pk),
        url("undo_pull", t, round_id=round_.pk),
        url("mark_paid", t, card_id=card.pk) + "?paid=0",
    ]
    assert [client.get(page).status_code for page in pages] == [code] * 3
    assert [client.post(page).status_code for page in pages] == [code] * 3
    assert Pull.objects.live().filter(round=round_).count() == 1
    assert Card.objects.get(pk=card.pk).paid is True


# --- a stale page at the draw at the venue never writes another pull (issue section 2) -----

NAMES = ["Anna", "Ben", "Clara", "Dominik", "Emil"]


def venue_night(club, pulled):
    """5 cards of 8 sold, one each to Anna (card 1) … Emil (card 5); a draw at the venue
    with the left numbers ``pulled`` typed in (card 1 pulls first)."""
    t = factories.tournament(club, cards=8, prizes=8)
    for name in NAMES:
        factories.sell(t, name)
    round_ = start_physical_draw(t, ACTOR)
    for number in pulled:
        add_pull(t, round_.pk, number, ACTOR)
    return t, round_


def live_pulls(round_):
    """(pull, card number, pot, number) of the live pulls, in order."""
    return [
        (p.index + 1, p.card.number, p.pot, p.number)
        for p in Pull.objects.live().filter(round=round_).select_related("card").order_by("index")
    ]


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def test_a_second_tap_on_undo_pull_undoes_only_the_pull_it_asked_about(client, organiser):
    t, round_ = venue_night(organiser, [1, 2, 3, 4])
    undo = url("undo_pull", t, round_id=round_.pk)
    ask = client.get(undo).content.decode()
    assert "<h1>Ziehung 4 zurücknehmen?</h1>" in ask
    assert "<p>Dominik (Karte 4): linker Topf 4.</p>" in ask
    fourth = Pull.objects.live().get(round=round_, index=3)
    sent = {"confirm": "1", "pull": fourth.pk}
    first = client.post(undo, sent, follow=True)
    assert messages_of(first) == ["Die letzte Ziehung ist zurückgenommen: bitte neu eintragen."]
    assert live_pulls(round_) == [(1, 1, "left", 1), (2, 2, "left", 2), (3, 3, "left", 3)]
    again = client.post(undo, sent, follow=True)  # the double tap, or the second screen
    assert again.redirect_chain == [(url("physical_draw", t), 302)]
    assert messages_of(again) == [
        "Ziehung 4 ist schon zurückgenommen; die letzte ist jetzt Ziehung 3 (Clara, Karte 3: 3)."
    ]
    assert live_pulls(round_) == [(1, 1, "left", 1), (2, 2, "left", 2), (3, 3, "left", 3)]
    assert again.context["turn_card"].number == 4
    assert AuditEntry.objects.filter(scope_id=t.pk, action="pull undone").count() == 1


def test_an_old_undo_confirmation_undoes_no_pull_typed_in_since(client, organiser):
    t, round_ = venue_night(organiser, [1, 2, 3, 4])
    undo = url("undo_pull", t, round_id=round_.pk)
    fourth = Pull.objects.live().get(round=round_, index=3)
    undo_last_pull(t, round_.pk, ACTOR, pull=fourth.pk)  # the other screen
    add_pull(t, round_.pk, 4, ACTOR)  # Dominik's 4 typed in again: a new pull 4
    response = client.post(undo, {"confirm": "1", "pull": fourth.pk}, follow=True)
    assert messages_of(response) == [
        "Ziehung 4 ist schon zurückgenommen; die letzte ist jetzt Ziehung 4 (Dominik, Karte 4: 4)."
    ]
    assert live_pulls(round_)[-1] == (4, 4, "left", 4)
    third = Pull.objects.live().get(round=round_, index=2)
    response = client.post(undo, {"confirm": "1", "pull": third.pk}, follow=True)  # asked: 3
    assert messages_of(response) == [
        "Ziehung 4 ist jetzt die letzte (Dominik, Karte 4: 4): diese Seite war veraltet, "
        "nichts wurde zurückgenommen."
    ]
    assert [p[:2] for p in live_pulls(round_)] == [(1, 1), (2, 2), (3, 3), (4, 4)]


def test_undoing_a_pull_undone_already_says_so_when_no_pull_is_left(db):
    t, round_ = venue_night(factories.club(), [1])
    first = Pull.objects.live().get(round=round_)
    undo_last_pull(t, round_.pk, ACTOR, pull=first.pk)
    with pytest.raises(RuleError) as error:
        undo_last_pull(t, round_.pk, ACTOR, pull=first.pk)
    assert (error.value.template, error.value.params) == (
        "Pull %(asked)s is undone already; no pull is left.",
        {"asked": 1},
    )
    assert live_pulls(round_) == []


def test_a_pull_typed_on_a_stale_screen_is_refused_and_the_page_shows_the_turn_now(
    client, organiser
):
    t, round_ = venue_night(organiser, [1, 2])
    physical = url("physical_draw", t)
    page = client.get(physical)  # both organiser screens show this page
    second = Pull.objects.live().get(round=round_, index=1)
    assert page.context["turn_card"].number == 3
    assert "Als Nächstes: Clara (Karte 3)" in page.content.decode()
    assert f'<input type="hidden" name="seen" value="{second.pk}">' in page.content.decode()
    a = client.post(physical, {"number": 3, "seen": second.pk})  # screen A: Clara pulled 3
    assert a.status_code == 302
    b = client.post(physical, {"number": 4, "seen": second.pk})  # screen B, not reloaded
    assert b.status_code == 200
    html = b.content.decode()
    assert (
        "Inzwischen wurde Ziehung 3 eingetragen: Clara (Karte 3) zog 3; "
        "jetzt ist Dominik (Karte 4) dran." in html
    )
    assert live_pulls(round_) == [(1, 1, "left", 1), (2, 2, "left", 2), (3, 3, "left", 3)]
    third = Pull.objects.live().get(round=round_, index=2)
    assert b.context["turn_card"].number == 4  # the page shows the turn as it is now
    assert "Als Nächstes: Dominik (Karte 4)" in html
    assert f'<input type="hidden" name="seen" value="{third.pk}">' in html
    assert client.post(physical, {"number": 4, "seen": third.pk}).status_code == 302
    assert live_pulls(round_)[-1] == (4, 4, "left", 4)  # now it is Dominik's, as typed


def test_a_pull_typed_after_another_screen_undid_the_last_is_refused(client, organiser):
    t, round_ = venue_night(organiser, [1, 2, 3])
    physical = url("physical_draw", t)
    third = Pull.objects.live().get(round=round_, index=2)
    undo_last_pull(t, round_.pk, ACTOR, pull=third.pk)  # the other screen
    response = client.post(physical, {"number": 4, "seen": third.pk})
    assert (
        "Inzwischen wurde Ziehung 3 (Clara, Karte 3: 3) zurückgenommen; "
        "jetzt ist Clara (Karte 3) dran." in response.content.decode()
    )
    assert live_pulls(round_) == [(1, 1, "left", 1), (2, 2, "left", 2)]
    missing = client.post(physical, {"number": 3})  # a form without its state
    assert (
        "Diese Seite war veraltet: die Ziehung für die angezeigte Karte noch einmal eintragen."
        in missing.content.decode()
    )
    assert live_pulls(round_) == [(1, 1, "left", 1), (2, 2, "left", 2)]
    add_pull(t, round_.pk, 3, ACTOR, seen=Pull.objects.live().get(round=round_, index=1).pk)
    assert live_pulls(round_)[-1] == (3, 3, "left", 3)


def test_a_pull_typed_after_the_draw_was_completed_elsewhere_is_not_recorded(client, organiser):
    t, round_ = venue_night(organiser, [1, 2, 3, 4])
    fourth = Pull.objects.live().get(round=round_, index=3)
    add_pull(t, round_.pk, 1, ACTOR, seen=fourth.pk)  # Emil right 1: complete
    response = client.post(url("physical_draw", t), {"number": 2, "seen": fourth.pk}, follow=True)
    assert response.redirect_chain == [(url("tournament", t), 302)]
    assert messages_of(response) == [
        "Die Auslosung ist schon abgeschlossen: diese Ziehung wurde nicht eingetragen."
    ]
    assert len(live_pulls(round_)) == 5


def test_the_service_refuses_a_pull_from_a_page_that_showed_no_pull_yet(db):
    t, round_ = venue_night(factories.club(), [1])
    with pytest.raises(RuleError) as error:
        add_pull(t, round_.pk, 2, ACTOR, seen=0)
    assert error.value.field == "number"
    assert error.value.params == {
        "pull": 1,
        "name": "Anna",
        "card": 1,
        "number": 1,
        "next": "Ben",
        "next_card": 2,
    }
    assert live_pulls(round_) == [(1, 1, "left", 1)]
