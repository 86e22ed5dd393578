"""Leben (RULES.md 5.10) and the points event with dänische Wertung (RULES.md 6) through
their services and pages, on a real database: the same rounds, pairings and results as
a card night, the standings board instead of a bracket, export and simulation."""

import json
import random
import uuid

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.rules import RuleError
from scoring.services import Actor
from tests import factories
from tournaments import formats
from tournaments.export import export
from tournaments.models import Pairing, Result, Round, Tournament
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.formats import buy_life, can_buy_life, set_team
from tournaments.services.physical_draws import start_physical_draw
from tournaments.services.reading import load_state
from tournaments.services.results import correct_result, void_result
from tournaments.services.ties import draw_lots
from tournaments.simulation import play_open_matches, simulate_format

pytestmark = pytest.mark.django_db
ACTOR = Actor()
PRIZES = [{"place": i, "description": f"P{i}"} for i in range(1, 9)]


def board(t):
    return formats.board(load_state(t))


def card(t, name):
    return t.card_set.get(player__name=name)


# Leben ---------------------------------------------------------------------------------


def test_a_leben_tournament_takes_any_number_of_players_and_one_entry_each(db):
    t = factories.leben_night(factories.club(), players=5, lives=2, prizes=PRIZES)
    assert (t.format, t.cards, t.max_cards, t.lives) == ("leben", 5, 1, 2)
    with pytest.raises(RuleError) as error:
        factories.tournament(factories.club(), cards=5, sold=0, format="leben", lives=4)
    assert error.value.field == "lives"


def test_leben_rounds_pair_the_alive_with_one_bye_and_a_loss_costs_a_life(db):
    t = factories.leben_night(factories.club(), players=5, lives=2, prizes=PRIZES)
    round_ = draw_round(t, ACTOR, seed=11)
    pairings = list(Pairing.objects.filter(round=round_).order_by("number"))
    assert [p.kind for p in pairings] == ["match", "match", "bye"]
    assert round_.pot_size == 3  # the round's pairings, as a card round's
    drawn = sorted(c for p in pairings for c in (p.left_id, p.right_id) if c)
    assert drawn == sorted(t.card_set.values_list("pk", flat=True))
    for p in pairings[:2]:
        factories.win(p, winner=p.left_id)
    lines = {line.card.pk: line for line in board(t).lines}
    assert sorted(line.lives_left for line in lines.values()) == [1, 1, 2, 2, 2]
    bye = pairings[2].left_id
    assert lines[bye].byes == 1 and lines[bye].lives_left == 2


def test_leben_places_in_reverse_order_of_going_out_and_the_final_of_the_last_two(db):
    t = factories.leben_night(factories.club(), players=4, lives=1, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=3)
    a, b = Pairing.objects.filter(round=first, kind="match").order_by("number")
    factories.win(a, winner=a.left_id)
    factories.win(b, winner=b.left_id)
    lines = {line.card.pk: line for line in board(t).lines}
    assert (lines[a.right_id].place, lines[a.right_id].place_to) == (3, 4)
    assert (lines[b.right_id].place, lines[b.right_id].place_to) == (3, 4)
    final = draw_round(t, ACTOR, seed=4)
    (match,) = Pairing.objects.filter(round=final)
    assert {match.left_id, match.right_id} == {a.left_id, b.left_id}
    factories.win(match, winner=match.right_id, score="2:1")
    result = board(t)
    assert result.finished and result.next_round is None
    places = {line.card.pk: (line.place, line.place_to) for line in result.lines}
    assert places[match.right_id] == (1, 1) and places[match.left_id] == (2, 2)
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR, seed=5)
    assert error.value.field == "round"
    document = export(t)
    assert document["format"] == "leben"
    assert [(r["place"], r["to"]) for r in document["ranking"]] == [(1, 1), (2, 2), (3, 4), (3, 4)]
    # 3-4 shared: prizes 3 and 4 wait for a Stechen or lot, never by card number (5.8)
    assert [(p["place"], p["card"], p["open"], p["range"]) for p in document["prizes"]][2:4] == [
        (3, None, "shared", [3, 4]),
        (4, None, "shared", [3, 4]),
    ]
    assert {p["open"] for p in document["prizes"][4:]} == {"nobody"}  # four players
    (lot,) = draw_lots(t, ACTOR)
    numbers = {c.pk: c.number for c in t.card_set.all()}
    document = export(t)
    assert [(p["place"], p["card"], p["open"]) for p in document["prizes"]][2:4] == [
        (3, numbers[lot.order[0]], ""),
        (4, numbers[lot.order[1]], ""),
    ]
    assert [p["place"] for p in document["prizes"] if p["card"]] == [1, 2, 3, 4]


def test_leben_no_next_round_while_a_match_is_open_and_undo_keeps_the_history(db):
    t = factories.leben_night(factories.club(), players=4, lives=2, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=1)
    a, b = Pairing.objects.filter(round=first).order_by("number")
    factories.win(a, winner=a.left_id)
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR, seed=2)
    assert "open" in str(error.value)
    with pytest.raises(RuleError):
        undo_draw(t, first.pk, ACTOR)  # a result stands
    void_result(a, ACTOR)
    undo_draw(t, first.pk, ACTOR)
    assert Round.objects.get(pk=first.pk).undone_at is not None
    again = draw_round(t, ACTOR, seed=1)
    assert again.number == 1
    assert Round.objects.filter(tournament=t).count() == 2  # the undone draw is kept


def test_leben_correcting_a_result_moves_the_lost_life(db):
    t = factories.leben_night(factories.club(), players=4, lives=2, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=1)
    a = Pairing.objects.filter(round=first).order_by("number").first()
    factories.win(a, winner=a.left_id)
    correct_result(a, a.right_id, "2:1", uuid.uuid4(), ACTOR)
    lines = {line.card.pk: line for line in board(t).lines}
    assert (lines[a.left_id].lives_left, lines[a.right_id].lives_left) == (1, 2)
    assert Result.objects.filter(pairing=a).count() == 2  # the first result is kept, voided


def test_leben_has_no_draw_at_the_venue(db):
    t = factories.leben_night(factories.club(), players=4, prizes=PRIZES)
    with pytest.raises(RuleError):
        start_physical_draw(t, ACTOR)


def test_a_life_is_bought_until_the_round_set_and_only_once_per_tap(db):
    t = factories.leben_night(factories.club(), players=4, lives=1, rebuy_until=2, prizes=PRIZES)
    anna = card(t, "P0")
    with pytest.raises(RuleError) as error:
        buy_life(t, anna.pk, ACTOR, seen=0)  # never above 1 life (RULES.md 5.10)
    assert "the most lives allowed left (1 of 1)" in str(error.value)
    first = draw_round(t, ACTOR, seed=2)
    for p in Pairing.objects.filter(round=first, kind="match"):
        factories.win(p, winner=p.left_id)
    out = next(line for line in board(t).lines if line.out_round == 1)
    buy_life(t, out.card.pk, ACTOR, seen=0)  # out in round 1: back in before round 2
    with pytest.raises(RuleError) as error:
        buy_life(t, out.card.pk, ACTOR, seen=0)  # the same page tapped twice
    assert "meanwhile" in str(error.value)
    assert out.card.pk in formats.leben_standing(load_state(t)).alive
    second = draw_round(t, ACTOR, seed=3)
    for p in Pairing.objects.filter(round=second, kind="match"):
        factories.win(p, winner=p.left_id)
    with pytest.raises(RuleError) as error:
        buy_life(t, out.card.pk, ACTOR, seen=1)  # round 3 is past rebuy_until
    assert error.value.field == "card" and "no longer" in str(error.value)


def _buyers(t):
    """The cards ``can_buy_life`` lets buy a life now, checked against ``buy_life`` (which
    is tried on each and rolled back)."""
    from django.db import transaction

    state = load_state(t)
    allowed = {pk for pk, c in state.cards.items() if can_buy_life(state, c)}
    for pk, c in state.cards.items():
        try:
            with transaction.atomic():
                buy_life(t, pk, ACTOR, seen=c.rebuys)
                raise _Bought
        except _Bought:
            assert pk in allowed
        except RuleError:
            assert pk not in allowed
    return allowed


class _Bought(Exception):
    pass


def test_the_desk_offers_a_life_exactly_to_those_buy_life_sells_one(db, client):
    t = factories.leben_night(factories.club(), players=4, lives=2, rebuy_until=2, prizes=PRIZES)
    assert _buyers(t) == set()  # everyone has both lives
    first = draw_round(t, ACTOR, seed=2)
    assert _buyers(t) == set()  # the round is open
    for p in Pairing.objects.filter(round=first, kind="match"):
        factories.win(p, winner=p.left_id)
    losers = {p.right_id for p in Pairing.objects.filter(round=first, kind="match")}
    assert _buyers(t) == losers
    client.force_login(factories.user(t.club))
    page = client.get(reverse("tournament", kwargs={"slug": t.club.slug, "tournament_id": t.pk}))
    assert page.context["life_buyers"] == losers
    for pk in losers:
        assert reverse("buy_life", args=[t.club.slug, t.pk, pk]) in page.content.decode()


# Punkteschnapsen -----------------------------------------------------------------------


def test_points_event_pairs_by_the_standing_after_round_one(db):
    t = factories.points_night(factories.club(), players=4, rounds=2, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=5)
    a, b = Pairing.objects.filter(round=first).order_by("number")
    factories.win(a, winner=a.left_id, score="2:0")
    factories.win(b, winner=b.left_id, score="2:1")
    table = board(t).lines
    assert [(line.points, line.bummerl_diff) for line in table] == [
        (2, 2),
        (2, 1),
        (1, -1),
        (0, -2),
    ]
    second = draw_round(t, ACTOR, seed=6)
    x, y = Pairing.objects.filter(round=second).order_by("number")
    assert (x.left_id, x.right_id) == (a.left_id, b.left_id)  # 1st v 2nd
    assert (y.left_id, y.right_id) == (b.right_id, a.right_id)  # 3rd v 4th
    factories.win(x, winner=x.right_id, score="2:1")
    factories.win(y, winner=y.left_id, score="2:0")
    result = board(t)
    assert result.finished and result.next_round is None
    # b.left 2+2 = 4 (+2); a.left 2+1 = 3 (+1) and b.right 1+2 = 3 (+1) never met: they
    # share place 2 (listed in card order); a.right 0 (-4).
    got = [(line.card.pk, line.points, line.bummerl_diff, line.place) for line in result.lines]
    tied = sorted([a.left_id, b.right_id], key=lambda pk: t.card_set.get(pk=pk).number)
    assert got == [
        (b.left_id, 4, 2, 1),
        (tied[0], 3, 1, 2),
        (tied[1], 3, 1, 2),
        (a.right_id, 0, -4, 4),
    ]


def test_points_event_gives_the_bye_to_the_last_placed_without_one(db):
    t = factories.points_night(factories.club(), players=5, rounds=3, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=1)
    first_bye = Pairing.objects.get(round=first, kind="bye").left_id
    for p in Pairing.objects.filter(round=first, kind="match"):
        factories.win(p, winner=p.left_id)
    state = load_state(t)
    table = formats.danish_standing(state)
    expected = [line.entry for line in table if line.entry != first_bye][-1]
    second = draw_round(t, ACTOR, seed=2)
    assert Pairing.objects.get(round=second, kind="bye").left_id == expected
    line = next(x for x in board(t).lines if x.card.pk == first_bye)
    assert (line.points, line.byes) == (2, 1)  # a bye scores a won match 2:0


def test_points_teams_are_ranked_by_the_sum_of_points(db):
    t = factories.points_night(factories.club(), players=4, rounds=1, team_size=2, prizes=PRIZES)
    cards = list(t.card_set.order_by("number"))
    for c, team in zip(cards, ["Rot", "Rot", "Blau", "Blau"], strict=True):
        set_team(t, c.pk, team, ACTOR)
    with pytest.raises(RuleError) as error:
        set_team(t, cards[0].pk, "Blau", ACTOR)
    assert error.value.field == "team"
    first = draw_round(t, ACTOR, seed=3)
    for p in Pairing.objects.filter(round=first):
        factories.win(p, winner=p.left_id, score="2:1")
    teams = board(t).teams
    sums = {}
    for line in board(t).lines:
        sums[line.card.team] = sums.get(line.card.team, 0) + line.points
    assert {team.name: team.points for team in teams} == sums
    assert export(t)["teams"][0]["points"] == max(sums.values())


def test_points_event_stops_after_its_rounds(db):
    t = factories.points_night(factories.club(), players=4, rounds=1, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=1)
    play_open_matches(t, random.Random(1))
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR, seed=2)
    assert "decided" in str(error.value)
    assert first.number == 1


# Pages ---------------------------------------------------------------------------------


def test_the_desk_creates_a_leben_tournament_and_draws_it(client):
    club = factories.club()
    client.force_login(factories.user(club))
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": "Leben-Abend",
            "day": "2026-12-04",
            "time": "19:00",
            "cards": 64,
            "max_cards": 3,
            "match_bummerl": 2,
            "entry_fee": "5",
            "prizes": "1: Korb",
            "format": "leben",
            "players": 40,
            "lives": 2,
            "rebuy_until": 2,
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Leben-Abend")
    assert (t.format, t.cards, t.max_cards, t.lives, t.rebuy_until) == ("leben", 40, 1, 2, 2)
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    for name in ("Anna", "Ben", "Clara"):
        client.post(
            reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk}),
            {"key": str(uuid.uuid4()), "name": name, "count": 1, "paid": "on"},
        )
    page = client.get(desk).content.decode()
    assert 'id="board"' in page and "Anna" in page
    assert 'value="physical"' not in page  # drawn digitally only
    response = client.post(
        reverse("draw_next", kwargs={"slug": club.slug, "tournament_id": t.pk}), {"round": "1"}
    )
    assert response.status_code == 302
    round_page = client.get(response.url).content.decode()
    assert "bye (Freilos)" in round_page or "Freilos" in round_page
    pairing = Pairing.objects.get(tournament=t, kind="match")
    response = client.post(
        reverse(
            "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
        ),
        {"key": str(uuid.uuid4()), "winner": pairing.left_id, "score": "2:1", "seen": "none"},
    )
    assert response.status_code == 302
    assert Result.objects.get(pairing=pairing).winner_id == pairing.left_id
    buy = reverse(
        "buy_life",
        kwargs={"slug": club.slug, "tournament_id": t.pk, "card_id": pairing.right_id},
    )
    client.post(buy, {"seen": "0"})
    client.post(buy, {"seen": "0"})  # a double tap buys one life
    assert t.card_set.get(pk=pairing.right_id).rebuys == 1


def test_the_match_link_records_a_points_result(client):
    t = factories.points_night(factories.club(), players=4, rounds=2, prizes=PRIZES)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    url = reverse("match_link", kwargs={"token": pairing.token})
    response = client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.right_id, "score": "2:1", "seen": "none"}
    )
    assert response.status_code == 302
    line = next(x for x in board(t).lines if x.card.pk == pairing.right_id)
    assert (line.points, line.bummerl_diff) == (2, 1)


@pytest.mark.parametrize("kind", ["leben", "points"])
def test_the_standings_board_is_public_and_flat_in_queries(client, kind):
    club = factories.club()
    counts = []
    for players in (6, 60):
        t = simulate_format(club, kind, players, seed=players, rounds=3, stop_after=2)
        url = reverse("bracket", kwargs={"token": t.public_token})
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))
        html = response.content.decode()
        assert 'id="board"' in html and "Spieler 1 " in html
        assert "/e/" not in html and "/m/" not in html  # no private links
    assert counts[0] == counts[1] <= 6


def test_the_printed_standings_and_round_sheets(client):
    club = factories.club()
    t = simulate_format(club, "points", 6, seed=1, rounds=2)
    client.force_login(factories.user(club))
    url = reverse("print_standings", kwargs={"slug": club.slug, "tournament_id": t.pk})
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    sheets = reverse("print_draw", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 2})
    assert client.get(sheets).status_code == 200
    bracket = reverse("print_bracket", kwargs={"slug": club.slug, "tournament_id": t.pk})
    assert client.get(bracket)["Location"] == url  # no bracket: the standings


# Simulation and export -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["leben", "points", "cards"])
def test_simulate_plays_a_whole_event_of_each_format(capsys, kind):
    args = ["tournament", "simulate", "--format", kind, "--players", "13", "--seed", "4"]
    if kind == "cards":
        args += ["--cards", "16"]
    call_command(*args, "--rebuy-until", "2", "--team-size", "3")
    document = json.loads(capsys.readouterr().out)
    assert document["rounds"] and document["prizes"]
    if kind == "cards":
        assert "format" not in document
        return
    assert document["format"] == kind and document["finished"]
    assert len(document["standings"]) == 13
    assert document["standings"][0]["place"] == 1
    if kind == "points":
        assert document["rounds_planned"] == 5 and len(document["rounds"]) == 5
        assert sum(len(team["players"]) for team in document["teams"]) == 13
    else:
        winner = document["standings"][0]
        assert winner["lives_left"] >= 1
        assert all(line["lives_left"] == 0 for line in document["standings"][1:])


def test_the_desk_and_the_board_of_a_leben_night_read_german(client):
    club = factories.club()
    t = simulate_format(club, "leben", 7, seed=2, rebuy_until=3, stop_after=1)
    client.force_login(factories.user(club))
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    html = desk.content.decode()
    for german in ("Wertung", "Leben", "Freilose", "Drucken / PDF: Wertung"):
        assert german in html
    for english in ("Lives", "Byes", "Standings", "pairings"):
        assert english not in html
    board_html = client.get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert "Wertung nach Runde 1" in board_html


def test_game_points_of_a_match_sheet_break_a_tie_of_points_and_bummerl(db):
    from scoring import services as scoring
    from scoring.rules import QuickDeal
    from tournaments.services.sheets import open_match_sheet

    factories.presets()
    t = factories.points_night(factories.club(), players=4, rounds=2, prizes=PRIZES)
    first = draw_round(t, ACTOR, seed=1)
    on_sheet, at_desk = Pairing.objects.filter(round=first).order_by("number")
    sheet = open_match_sheet(on_sheet, ACTOR)
    # The right card wins 3+3+1 = 7 twice, the left scores nothing: 2:0, 14 game points.
    for entry in [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)] * 2:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    factories.win(at_desk, winner=at_desk.left_id, score="2:0")
    got = [
        (line.card.pk, line.points, line.bummerl_diff, line.game_diff, line.place)
        for line in board(t).lines
    ]
    assert got == [
        (on_sheet.right_id, 2, 2, 14, 1),
        (at_desk.left_id, 2, 2, 0, 2),
        (at_desk.right_id, 0, -2, 0, 3),
        (on_sheet.left_id, 0, -2, -14, 4),
    ]


def test_the_board_names_teams_and_a_garbled_life_form_buys_nothing(client):
    club = factories.club()
    t = factories.points_night(club, players=4, rounds=2, team_size=2, prizes=PRIZES)
    client.force_login(factories.user(club))
    cards = list(t.card_set.order_by("number"))
    for c in cards[:2]:
        url = reverse(
            "set_team", kwargs={"slug": club.slug, "tournament_id": t.pk, "card_id": c.pk}
        )
        assert client.post(url, {"team": "  Öhling   1 "}).status_code == 302
    assert [c.team for c in t.card_set.order_by("number")] == ["Öhling 1", "Öhling 1", "", ""]
    desk = client.get(reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk}))
    assert 'value="Öhling 1"' in desk.content.decode()
    lives = factories.leben_night(club, players=3, rebuy_until=2, prizes=PRIZES)
    entry = lives.card_set.first()
    buy = reverse(
        "buy_life", kwargs={"slug": club.slug, "tournament_id": lives.pk, "card_id": entry.pk}
    )
    assert client.post(buy, {"seen": "x1"}).status_code == 302
    assert lives.card_set.get(pk=entry.pk).rebuys == 0


def test_every_stored_leben_round_replays_from_its_seed_in_the_export(db):
    from tournaments import leben as leben_core

    club = factories.club()
    t = simulate_format(club, "leben", 21, seed=9, lives=2)
    document = export(t)
    state = load_state(t)
    rounds = formats.leben_rounds(state)
    numbers = {pk: c.number for pk, c in state.cards.items()}
    for k, stored in enumerate(document["rounds"]):
        before = leben_core.standing(
            {pk: t.lives + c.rebuys for pk, c in state.cards.items()}, rounds[:k]
        )
        pairs, bye = leben_core.pair_round(before.alive, before.byes(), stored["seed"])
        drawn = [
            (p["left"]["card"], p["right"]["card"])
            for p in stored["pairings"]
            if p["kind"] == "match"
        ]
        assert drawn == [(numbers[a], numbers[b]) for a, b in pairs]
        byes = [p["left"]["card"] for p in stored["pairings"] if p["kind"] == "bye"]
        assert byes == ([numbers[bye]] if bye else [])


def test_the_boards_poll_gets_the_partial_and_a_history_restore_the_whole_page(client):
    t = simulate_format(factories.club(), "points", 6, seed=3, rounds=2, stop_after=1)
    url = reverse("bracket", kwargs={"token": t.public_token})
    swap = client.get(url, headers={"HX-Request": "true"})
    html = swap.content.decode()
    assert 'id="live"' in html and 'id="board"' in html and "<html" not in html
    assert "hx-request" in swap["Vary"].lower()
    restore = client.get(url, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    html = restore.content.decode()
    assert "<html" in html and 'id="board"' in html and "htmx-2" in html
