"""Preisschnapsen through its services and pages, on a real database (RULES.md 5)."""

import datetime
import random
import threading
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Sheet
from scoring.rules import RuleError
from scoring.services import Actor
from tests import factories
from tournaments import bracket_sheet
from tournaments.export import export
from tournaments.forms import local_datetime
from tournaments.models import Pairing, Result, Round, Tournament
from tournaments.prizes import Place
from tournaments.services.cards import sell_cards
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.layout import lower_cards
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state
from tournaments.services.results import correct_result, record_result, void_result
from tournaments.services.sheets import open_match_sheet
from tournaments.simulation import play_open_matches, simulate

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def eight_sold(club):
    """An 8-card tournament with all eight cards sold, one each to P0 … P7."""
    return factories.tournament(club, cards=8, sold=8, prizes=8)


def decide_round(t, rng):
    play_open_matches(t, rng)


def test_a_player_may_hold_at_most_max_cards(db):
    t = factories.tournament(factories.club(), cards=16, max_cards=2, prizes=8)
    factories.sell(t, "Anna", count=2)
    with pytest.raises(RuleError) as error:
        factories.sell(t, "Anna", count=1)
    assert error.value.field == "count"


def test_a_repeated_sale_sells_once(db):
    t = factories.tournament(factories.club(), cards=16, prizes=8)
    key = uuid.uuid4()
    first = sell_cards(t, "Anna", 2, ACTOR, key, paid=True)
    again = sell_cards(t, "Anna", 2, ACTOR, key, paid=True)
    assert [c.pk for c in first] == [c.pk for c in again]
    assert t.card_set.count() == 2


def test_the_draw_refuses_with_half_or_fewer_sold_and_lowering_fixes_it(db):
    t = factories.tournament(factories.club(), cards=32, sold=16, prizes=8)
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR)
    assert error.value.field == "cards"
    assert lower_cards(t) == 16
    t.refresh_from_db()
    round_ = draw_round(t, ACTOR, seed=1)
    assert round_.pot_size == 8


def test_no_card_is_sold_after_round_one_is_drawn(db):
    t = factories.tournament(factories.club(), cards=8, sold=6, prizes=8)
    draw_round(t, ACTOR, seed=3)
    with pytest.raises(RuleError):
        factories.sell(t, "Late")


def test_round_one_byes_are_the_right_pots_leftovers_and_each_round_halves(db):
    t = factories.tournament(factories.club(), cards=16, sold=11, prizes=8)
    draw_round(t, ACTOR, seed=5)
    state = load_state(t)
    pairings = state.pairings[state.current.pk]
    assert len(pairings) == 8
    assert sum(1 for p in pairings if p.kind == "bye") == 16 - 11
    rng = random.Random(1)
    decide_round(t, rng)
    assert len(load_state(t).in_play()) == 8
    draw_round(t, ACTOR, seed=6)
    decide_round(t, rng)
    assert len(load_state(t).in_play()) == 4


def test_the_next_round_waits_for_every_match(db):
    t = factories.tournament(factories.club(), cards=8, sold=8, prizes=8)
    draw_round(t, ACTOR, seed=2)
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR)
    assert (error.value.field, error.value.params) == ("round", {"number": 1, "open": 4})


def first_match(seed=2):
    """An 8-card night, all sold, round 1 drawn: the tournament and its first match."""
    t = factories.tournament(factories.club(), cards=8, sold=8, prizes=8)
    draw_round(t, ACTOR, seed=seed)
    return t, Pairing.objects.filter(tournament=t, kind="match").first()


def test_a_result_is_refused_for_a_card_not_in_the_match(db):
    t, pairing = first_match()
    other = t.card_set.exclude(pk__in=(pairing.left_id, pairing.right_id)).first()
    with pytest.raises(RuleError) as error:
        record_result(pairing, other.pk, "2:0", uuid.uuid4(), ACTOR)
    assert error.value.field == "winner"


def test_a_result_is_refused_with_a_score_its_match_cannot_end_with(db):
    _t, pairing = first_match()
    with pytest.raises(RuleError) as error:
        record_result(pairing, pairing.left_id, "3:0", uuid.uuid4(), ACTOR)
    assert (error.value.field, error.value.params) == ("score", {"n": 2, "scores": "2:0 / 2:1"})


def decided_first_match():
    """``first_match`` with round 1 decided: the tournament, the match, its live result
    and the card that lost it."""
    t, pairing = first_match()
    decide_round(t, random.Random(3))
    first = Result.objects.live().get(pairing=pairing)
    loser = pairing.right_id if first.winner_id == pairing.left_id else pairing.left_id
    return t, pairing, first, loser


def test_another_result_for_a_decided_match_is_refused(db):
    _t, pairing, first, loser = decided_first_match()
    with pytest.raises(RuleError) as error:  # a different result needs a correction
        record_result(pairing, loser, "2:1", uuid.uuid4(), ACTOR)
    assert error.value.field == "pairing"
    assert Result.objects.live().get(pairing=pairing).pk == first.pk


def test_a_correction_voids_the_result_and_keeps_it(db):
    _t, pairing, _first, loser = decided_first_match()
    correct_result(pairing, loser, "2:1", uuid.uuid4(), ACTOR)
    assert Result.objects.filter(pairing=pairing).count() == 2
    assert Result.objects.live().get(pairing=pairing).winner_id == loser


def test_a_correction_is_refused_once_the_next_round_is_drawn(db):
    t, pairing, first, loser = decided_first_match()
    draw_round(t, ACTOR, seed=4)
    with pytest.raises(RuleError) as error:
        correct_result(pairing, loser, "2:0", uuid.uuid4(), ACTOR)
    # names round 2, whose draw must be undone
    assert (error.value.field, error.value.params) == ("pairing", {"number": 2})
    assert Result.objects.live().get(pairing=pairing).pk == first.pk


def test_a_draw_without_results_can_be_undone_and_stays_in_the_history(db):
    t = factories.tournament(factories.club(), cards=8, sold=8, prizes=8)
    first = draw_round(t, ACTOR, seed=2)
    undo_draw(t, first.pk, ACTOR)
    draw_round(t, ACTOR, seed=9)
    assert Round.objects.filter(tournament=t).count() == 2
    assert Round.objects.get(pk=first.pk).undone_at is not None


def test_a_draw_with_results_is_not_undone(db):
    t = factories.tournament(factories.club(), cards=8, sold=8, prizes=8)
    round_ = draw_round(t, ACTOR, seed=9)
    decide_round(t, random.Random(1))
    with pytest.raises(RuleError) as error:
        undo_draw(t, round_.pk, ACTOR)
    assert (error.value.field, error.value.params) == ("round", {"number": 1, "list": "1, 2, 3, 4"})
    assert Round.objects.get(pk=round_.pk).undone_at is None


def test_a_physical_draw_checks_every_pull(db):
    t = factories.tournament(factories.club(), cards=8, sold=5, prizes=8)
    round_ = start_physical_draw(t, ACTOR)
    with pytest.raises(RuleError) as error:
        add_pull(t, round_.pk, 5, ACTOR)  # the left pot holds 1 to 4
    assert error.value.field == "number"
    for number in (1, 2, 3, 4, 1):
        add_pull(t, round_.pk, number, ACTOR)
    state = load_state(t)
    assert state.in_progress is None
    kinds = sorted(p.kind for p in state.pairings[round_.pk])
    assert kinds == ["bye", "bye", "bye", "match"]


def test_a_whole_night_gives_eight_places_and_prizes(db):
    club = factories.club()
    t = simulate(club, cards=16, players=9, max_cards=3, seed=11)
    state = load_state(t)
    places = state.places()
    assert sorted(places) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert len(set(places.values())) == 8
    assert [a.place for a in state.awards()] == [1, 2, 3, 4, 5, 6, 7, 8]
    exported = export(t)
    assert [r["pot_size"] for r in exported["rounds"]] == [8, 4, 2, 1]
    assert all(p["winner_card"] for r in exported["rounds"] for p in r["pairings"])


def test_one_prize_per_player_passes_a_lower_prize_on(db):
    club = factories.club()
    # Two players with three cards each: someone is bound to hold two places.
    t = simulate(club, cards=8, players=3, max_cards=3, seed=2)
    Tournament.objects.filter(pk=t.pk).update(one_prize_per_player=True)
    t.refresh_from_db()
    state = load_state(t)
    awards = state.awards()
    players = [state.cards[a.card].player_id for a in awards]
    assert len(players) == len(set(players))
    assert [a.finished for a in awards] == sorted(a.finished for a in awards)


def test_two_organisers_drawing_at_once_leave_one_draw(transactional_db):
    club = factories.club()
    t = factories.tournament(club, cards=16, sold=12, prizes=8)
    errors = []

    def draw():
        try:
            draw_round(t, ACTOR)
        except RuleError as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=draw) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Round.objects.live().filter(tournament=t).count() == 1
    assert len(errors) == 2


def test_simultaneous_results_for_one_match_leave_one(transactional_db):
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    pairing = (
        Pairing.objects.select_related("tournament").filter(tournament=t, kind="match").first()
    )
    outcomes = []

    def enter(winner):
        try:
            record_result(pairing, winner, "2:0", uuid.uuid4(), ACTOR)
            outcomes.append("ok")
        except RuleError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=enter, args=(w,))
        for w in (pairing.left_id, pairing.right_id, pairing.left_id)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert Result.objects.live().filter(pairing=pairing).count() == 1
    assert "refused" in outcomes


def test_a_start_time_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="missing"):
        local_datetime(datetime.date(2026, 3, 29), datetime.time(2, 30))


def test_a_start_time_that_happens_twice_is_refused():
    with pytest.raises(ValueError, match="ambiguous"):
        local_datetime(datetime.date(2026, 10, 25), datetime.time(2, 30))


def test_an_ordinary_start_time_on_the_day_the_clocks_change_is_taken():
    assert local_datetime(datetime.date(2026, 10, 25), datetime.time(19, 0)).hour == 19


def test_the_tournament_form_names_the_dst_problem(client):
    club = factories.signed_in_club(client)
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": "Nacht",
            "day": "2026-03-29",
            "time": "02:30",
            "cards": 16,
            "max_cards": 3,
            "match_bummerl": 2,
            "entry_fee": "10",
            "prizes": "1: Korb",
        },
    )
    assert response.status_code == 200
    assert "time" in response.context["form"].errors


def test_the_live_bracket_is_public_and_flat_in_queries(client):
    club = factories.club()
    small = simulate(club, cards=8, players=6, max_cards=2, seed=1, name="small")
    large = simulate(club, cards=64, players=40, max_cards=3, seed=2, name="large")
    counts = []
    for t in (small, large):
        url = reverse("bracket", kwargs={"token": t.public_token})
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[1] <= 12
    assert counts[0] == counts[1]
    html = response.content.decode()
    assert "Geschenkkorb" in html  # the prize list is shown once known


def test_the_match_link_records_a_result_without_an_account(client):
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    url = reverse("match_link", kwargs={"token": pairing.token})
    assert client.get(url).status_code == 200
    response = client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.right_id, "score": "2:1", "seen": "none"}
    )
    assert response.status_code == 302
    result = Result.objects.get(pairing=pairing)
    assert result.via_link and result.winner_id == pairing.right_id


def test_the_organiser_desk_sells_and_draws(client):
    club = factories.signed_in_club(client)
    t = factories.tournament(club, cards=8, prizes=8)
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    assert client.get(desk).status_code == 200
    sell_url = reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk})
    for name in ("Anna", "Ben", "Clara", "Dora", "Emil"):
        client.post(sell_url, {"key": str(uuid.uuid4()), "name": name, "count": 1, "paid": "on"})
    assert t.card_set.count() == 5
    client.post(
        reverse("draw_next", kwargs={"slug": club.slug, "tournament_id": t.pk}), {"mode": "digital"}
    )
    assert Round.objects.filter(tournament=t).count() == 1
    page = client.get(
        reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    )
    assert page.status_code == 200
    assert len(page.context["rows"]) == 4


def test_head_on_the_live_bracket_and_the_desk_answers_like_get(client):
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    bracket = reverse("bracket", kwargs={"token": t.public_token})
    client.force_login(factories.user(club, role="member"))
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    for url in (bracket, desk):
        get, head = client.get(url), client.head(url)
        assert (head.status_code, head.content) == (200, b"")
        assert head["Content-Type"] == get["Content-Type"] == "text/html; charset=utf-8"
    polled = client.head(bracket, headers={"HX-Request": "true"})
    assert (polled.status_code, polled.content) == (200, b"")


def test_the_live_and_the_printed_bracket_show_the_same_columns(client):
    club = factories.club()
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1, name="small")
    live = client.get(reverse("bracket", kwargs={"token": t.public_token})).context["columns"]
    printed = bracket_sheet.bracket_context(t)["columns"]
    assert live == printed
    assert [c.title for c in printed] == ["Viertelfinale", "Halbfinale", "Finale", "Platzierung"]
    labels = [[str(row.label) for row in c.rows] for c in printed]
    assert labels == [["1", "2", "3", "4"], ["1", "2"], ["1"], ["3", "5"]]
    assert [row.label for row in printed[-1].rows] == [Place.THIRD, Place.FIFTH]


def test_the_printed_bracket_before_the_draw_is_blank_down_to_the_final(db):
    t = factories.tournament(factories.club(), cards=16, prizes=8)
    columns = bracket_sheet.bracket_context(t)["columns"]
    assert [c.title for c in columns] == ["Achtelfinale", "Viertelfinale", "Halbfinale", "Finale"]
    assert [[row.label for row in c.rows] for c in columns] == [
        [1, 2, 3, 4, 5, 6, 7, 8],
        [1, 2, 3, 4],
        [1, 2],
        [1],
    ]


def test_the_desk_cash_counts_cards_sold_paid_and_open_in_euros(client):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=3, entry_fee=Decimal("12.50"))
    sell_cards(t, "Unbezahlt", 2, ACTOR, uuid.uuid4(), paid=False)
    client.force_login(factories.user(club, role="member"))
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    cash = desk.context["cash"]
    assert (cash.sold, cash.paid, cash.open) == (5, 3, 2)
    assert (cash.paid_amount, cash.open_amount) == (Decimal("37.50"), Decimal("25.00"))
    assert desk.context["players_in"] == 4


def test_a_match_played_on_a_score_sheet_records_its_result(client):
    from scoring import services as scoring
    from scoring.rules import QuickDeal

    factories.presets()
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    response = client.post(reverse("match_sheet", kwargs={"token": pairing.token}))
    sheet = Pairing.objects.get(pk=pairing.pk).sheet
    assert response["Location"] == f"/e/{sheet.entry_token}/"
    # Seat 1 (the right card) wins 3+3+1 = 7 twice while seat 0 scores nothing: two
    # Schneider, but in tournament play a Schneider counts one Bummerl, so 2:0.
    for entry in [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)] * 2:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    result = Result.objects.live().get(pairing=pairing)
    assert (result.winner_id, result.score) == (pairing.right_id, "2:0")


def test_a_correction_on_the_match_sheet_changes_the_match_result(client):
    from scoring import services as scoring
    from scoring.models import Deal
    from scoring.rules import QuickDeal

    factories.presets()
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    sheet = open_match_sheet(pairing, ACTOR)
    for entry in [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)] * 2:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    last = Deal.objects.filter(sheet=sheet).order_by("-position").first()
    # Once the result stands only an organiser changes the sheet; the Partie is open again.
    organiser = scoring.Actor(factories.user(club, role="organiser"), organiser=True)
    scoring.void_deal(sheet, last.pk, organiser)
    assert not Result.objects.live().filter(pairing=pairing).exists()
    # The left card now wins two Bummerl (the right one won the first): 2:1.
    for entry in [QuickDeal(0, 3), QuickDeal(0, 3), QuickDeal(0, 1)] * 2:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    result = Result.objects.live().get(pairing=pairing)
    assert (result.winner_id, result.score) == (pairing.left_id, "2:1")


def test_every_stored_digital_draw_replays_from_its_seed(db):
    from tournaments import bracket, draw

    t = simulate(factories.club(), cards=32, players=14, max_cards=3, seed=21)
    state = load_state(t)
    players = {pk: c.player_id for pk, c in state.cards.items()}
    previous: list = []
    for round_, round_state in zip(state.rounds, state.round_states, strict=True):
        in_play = bracket.cards_in_play(previous, sorted(state.cards))
        replayed = draw.digital_draw(
            bracket.holders(players, in_play), round_.pot_size, round_.seed, round_.number > 1
        )
        stored = [(p.number, p.kind, p.left_id, p.right_id) for p in state.pairings[round_.pk]]
        assert [(p.number, str(p.kind), p.left, p.right) for p in replayed.pairings] == stored
        previous.append(round_state)


def test_where_do_i_play_finds_a_name_without_umlauts(client):
    club = factories.signed_in_club(client, role="member")
    t = factories.tournament(club, cards=8, prizes=8)
    for name in ("Jürgen Öller", "Anna", "Ben", "Clara", "Dora", "Emil"):
        factories.sell(t, name)
    draw_round(t, ACTOR, seed=3)
    url = reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    rows = client.get(url, {"player": "jurgen oller"}).context["rows"]
    assert len(rows) == 1
    assert "Jürgen Öller" in (
        rows[0].left.player.name,
        rows[0].right and rows[0].right.player.name,
    )


def _night_to_the_semi_final(club):
    """16 cards, 16 players, drawn to the semi-final; both "5-8" matches decided, so the
    matches for 5 and 7 exist, still open."""
    t = simulate(club, cards=16, players=16, max_cards=1, seed=5, stop_after=3)
    for pairing in load_state(t).placement:
        if pairing.label == "5-8" and not pairing.results.live().exists():
            pairing.tournament = t
            record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    return t


def test_voiding_a_5_to_8_result_makes_the_matches_for_5_and_7_again(db):
    t = _night_to_the_semi_final(factories.club())
    state = load_state(t)
    first, second = [p for p in state.placement if p.label == "5-8"]
    assert {p.label for p in state.placement} >= {"5", "7"}
    first.tournament = t
    void_result(first, ACTOR)
    assert not Pairing.objects.live().filter(tournament=t, label__in=("5", "7")).exists()
    old = Result.objects.filter(pairing=first).order_by("-id").first()
    other = first.left_id if old.winner_id == first.right_id else first.right_id
    record_result(first, other, "2:1", uuid.uuid4(), ACTOR)
    winner_second = Result.objects.live().get(pairing=second).winner_id
    five = Pairing.objects.live().get(tournament=t, label="5")
    assert {five.left_id, five.right_id} == {other, winner_second}


def test_a_link_holder_cannot_correct_and_a_member_cannot_print_the_links(client):
    club = factories.club()
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    pairing = (
        Pairing.objects.select_related("tournament").filter(tournament=t, kind="match").first()
    )
    live = record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    url = reverse("match_link", kwargs={"token": pairing.token})
    client.post(
        url,
        {
            "key": str(uuid.uuid4()),
            "winner": pairing.right_id,
            "score": "2:1",
            "correct": "1",
            "seen": live.pk,
        },
    )
    assert Result.objects.live().get(pairing=pairing).winner_id == pairing.left_id
    client.force_login(factories.user(club, role="member"))
    sheets = reverse(
        "print_match_sheets", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1}
    )
    assert client.get(sheets).status_code == 403


def test_an_organiser_can_void_a_result_so_a_draw_can_be_undone(client):
    club = factories.signed_in_club(client)
    t = eight_sold(club)
    draw_round(t, ACTOR, seed=1)
    decide_round(t, random.Random(2))
    second = draw_round(t, ACTOR, seed=3)
    pairing = Pairing.objects.filter(round=second, kind="match").first()
    live = record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), ACTOR)
    with pytest.raises(RuleError):
        undo_draw(t, second.pk, ACTOR)
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    client.post(url, {"void": "1", "seen": live.pk})
    undo_draw(t, second.pk, ACTOR)
    assert Round.objects.get(pk=second.pk).undone_at is not None


def test_a_match_link_of_an_undone_draw_opens_nothing(client):
    club = factories.club()
    t = eight_sold(club)
    round_ = draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(round=round_, kind="match").first()
    undo_draw(t, round_.pk, ACTOR)
    opened = client.post(reverse("match_sheet", kwargs={"token": pairing.token}))
    assert opened.status_code == 410
    assert pairing.sheet_id is None and Sheet.objects.count() == 0
    page = client.get(reverse("match_link", kwargs={"token": pairing.token}))
    assert page.status_code == 410
    assert "Diese Partie von Test gibt es nicht mehr" in page.content.decode()


@pytest.mark.parametrize(
    "day, time, prizes, field",
    [
        ("2026-12-01", "19:00", "²: Wein", "prizes"),
        ("0001-01-01", "00:30", "", "day"),
        ("9999-12-31", "23:59", "", "day"),
    ],
)
def test_odd_dates_and_prize_lines_are_form_errors(client, day, time, prizes, field):
    club = factories.signed_in_club(client)
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": "N",
            "day": day,
            "time": time,
            "cards": 16,
            "max_cards": 3,
            "match_bummerl": 2,
            "entry_fee": "10",
            "prizes": prizes,
        },
    )
    assert response.status_code == 200
    assert field in response.context["form"].errors
