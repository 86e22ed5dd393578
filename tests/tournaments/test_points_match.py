"""The match of a points event (RULES.md 6) on a real database: a Partie or exactly B
Bummerl, a Schneider counting 1 or 2 Bummerl, the bye's score; through the services,
the match's score sheet and the pages."""

import uuid

import pytest
from django.urls import reverse

from scoring import services as scoring
from scoring.rules import QuickDeal, RuleError
from scoring.services import Actor
from tests import factories
from tournaments import formats
from tournaments.export import export
from tournaments.models import Pairing, Result, Tournament
from tournaments.services.draws import draw_round
from tournaments.services.reading import load_state
from tournaments.services.results import record_result
from tournaments.services.sheets import open_match_sheet

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def lines(t):
    return {line.card.pk: line for line in formats.board(load_state(t)).lines}


def enter(pairing, winner, score):
    return record_result(pairing, winner, score, uuid.uuid4(), ACTOR)


def test_a_match_of_two_bummerl_may_end_one_all_a_draw_and_each_scores_one_point(db):
    t = factories.points_night(factories.club(), rounds=2, match_games=2)
    first, second = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    result = enter(first, None, "1:1")
    assert result.winner_id is None  # a draw: no winner recorded (RULES.md 6)
    enter(second, second.right_id, "2:0")
    got = lines(t)
    assert (got[first.left_id].points, got[first.left_id].bummerl_diff) == (1, 0)
    assert (got[first.right_id].points, got[first.right_id].bummerl_diff) == (1, 0)
    assert (got[second.right_id].points, got[second.left_id].points) == (2, 0)
    state = load_state(t)
    assert state.matches[first.pk].decided and state.matches[first.pk].advancing is None
    assert formats.board(state).next_round == 2  # the round is decided: draw the next
    (listed,) = [p for p in export(t)["rounds"][0]["pairings"] if p["number"] == first.number]
    assert (listed["winner_card"], listed["score"]) == (None, "1:1")


def test_a_draw_has_no_winner_and_a_win_is_not_a_draw(db):
    t = factories.points_night(factories.club(), rounds=2, match_games=2)
    pairing = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).first()
    with pytest.raises(RuleError) as error:
        enter(pairing, pairing.left_id, "1:1")
    assert str(error.value) == "winner: 1:1 is a draw: nobody wins it. Tap “Draw”."
    with pytest.raises(RuleError) as error:
        enter(pairing, None, "2:0")
    assert str(error.value) == "winner: Only 1:1 is a draw: choose the winner of 2:0."
    partie = factories.points_night(factories.club(), rounds=2)
    pairing = Pairing.objects.filter(round=draw_round(partie, ACTOR, seed=1)).first()
    with pytest.raises(RuleError) as error:
        enter(pairing, None, "2:1")
    assert str(error.value) == "winner: Choose the winner of the match."
    assert not Result.objects.exists()


def test_the_round_page_the_match_link_and_the_players_links_take_a_draw(client):
    t = factories.points_night(factories.club(), rounds=2, match_games=2)
    first, second = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    club = t.club
    client.force_login(factories.user(club, role="organiser"))
    page_url = reverse("round", kwargs={"slug": club.slug, "tournament_id": t.pk, "number": 1})
    page = client.get(page_url).content.decode()
    assert page.count('name="winner" value="0">Unentschieden</button>') == 2
    action = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": first.pk}
    )
    post = {"key": str(uuid.uuid4()), "seen": "none", "winner": "0", "score": "1:1"}
    client.post(action, post)
    result = Result.objects.get(pairing=first)
    assert (result.winner_id, result.score) == (None, "1:1")
    page = client.get(page_url).content.decode()
    assert "Unentschieden 1:1" in page
    wrong = {"key": str(uuid.uuid4()), "seen": "none", "winner": "0", "score": "2:0"}
    refused = client.post(action, wrong, follow=True).content.decode()
    assert "Nur 1:1 ist unentschieden: wähle den Gewinner von 2:0." in refused
    # The match link of the other match, as a phone at the table has it.
    client.logout()
    link = reverse("match_link", kwargs={"token": second.token})
    assert 'value="0">Unentschieden</button>' in client.get(link).content.decode()
    client.post(link, {"key": str(uuid.uuid4()), "seen": "none", "winner": "0", "score": "1:1"})
    assert Result.objects.get(pairing=second).winner_id is None
    # A Partie has no draw button.
    partie = factories.points_night(factories.club(), rounds=2)
    pairing = Pairing.objects.filter(round=draw_round(partie, ACTOR, seed=1)).first()
    assert (
        "Unentschieden</button>"
        not in client.get(reverse("match_link", kwargs={"token": pairing.token})).content.decode()
    )


def test_players_report_and_confirm_a_draw_with_their_links(client):
    t = factories.points_night(factories.club(), rounds=2, match_games=2, result_check="confirm")
    pairing = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).first()
    left = reverse("side_link", kwargs={"token": pairing.left_token})
    right = reverse("side_link", kwargs={"token": pairing.right_token})
    client.post(left, {"key": str(uuid.uuid4()), "winner": "0", "score": "1:1"})
    mine = client.get(left).content.decode()
    assert "Du hast ein Unentschieden gemeldet, 1:1" in mine
    theirs = client.get(right).content.decode()
    assert "gemeldet: ein Unentschieden, 1:1." in theirs
    assert "Bestätigen: ein Unentschieden, 1:1" in theirs
    report = pairing.reports.get()
    client.post(right, {"key": str(uuid.uuid4()), "confirm": "1", "report": report.pk})
    result = Result.objects.get(pairing=pairing)
    assert (result.winner_id, result.score) == (None, "1:1")


def test_a_match_of_two_bummerl_refuses_a_partie_score(db):
    t = factories.points_night(factories.club(), rounds=2, match_games=2)
    pairing = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).first()
    with pytest.raises(RuleError) as error:
        enter(pairing, pairing.left_id, "2:1")
    assert error.value.field == "score"
    assert str(error.value) == "score: A match of 2 Bummerl ends 1:1 / 2:0."
    assert not Result.objects.filter(pairing=pairing).exists()


def test_a_match_of_three_bummerl_ends_2_1_or_3_0(db):
    t = factories.points_night(factories.club(), rounds=2, match_games=3)
    first, second = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    enter(first, first.left_id, "2:1")
    enter(second, second.left_id, "3:0")
    got = lines(t)
    assert [got[c].points for c in (first.left_id, first.right_id)] == [2, 1]
    assert [got[c].points for c in (second.left_id, second.right_id)] == [3, 0]
    with pytest.raises(RuleError):
        enter(Pairing.objects.get(pk=first.pk), first.left_id, "3:2")


def test_a_match_of_fixed_bummerl_has_no_score_sheet(client):
    factories.presets()
    t = factories.points_night(factories.club(), rounds=2, match_games=2)
    pairing = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).first()
    with pytest.raises(RuleError) as error:
        open_match_sheet(pairing, ACTOR)
    assert error.value.field == "pairing"
    page = client.get(reverse("match_link", kwargs={"token": pairing.token})).content.decode()
    assert reverse("match_sheet", kwargs={"token": pairing.token}) not in page
    assert 'value="1:1"' in page and 'value="2:1"' not in page


def test_a_schneider_on_the_sheet_counts_two_bummerl_when_set(db):
    factories.presets()
    t = factories.points_night(factories.club(), rounds=2, schneider_counts=2)
    first, _other = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    sheet = open_match_sheet(first, ACTOR)
    # The right card makes 7 before the left scores: a Schneider, 2 Bummerl: the Partie.
    for entry in [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)]:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    result = Result.objects.get(pairing=first, voided_at__isnull=True)
    assert (result.winner_id, result.score, result.from_sheet) == (first.right_id, "2:0", True)
    got = lines(t)
    assert (got[first.right_id].points, got[first.right_id].game_diff) == (2, 7)


def test_a_schneider_counting_one_takes_two_bummerl_on_the_sheet(db):
    factories.presets()
    t = factories.points_night(factories.club(), rounds=2)
    first, _other = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).order_by("number")
    sheet = open_match_sheet(first, ACTOR)
    for entry in [QuickDeal(1, 3), QuickDeal(1, 3), QuickDeal(1, 1)]:
        scoring.record_entry(sheet, entry, uuid.uuid4(), scoring.Actor())
    assert not Result.objects.filter(pairing=first).exists()  # 1:0, the Partie goes on


def test_a_schneider_counting_two_lets_the_desk_enter_3_1(db):
    t = factories.points_night(factories.club(), rounds=2, schneider_counts=2)
    pairing = Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)).first()
    enter(pairing, pairing.left_id, "3:1")
    assert (lines(t)[pairing.left_id].points, lines(t)[pairing.left_id].bummerl_diff) == (3, 2)


@pytest.mark.parametrize(
    ("fields", "points_for_bye"),
    [({}, 2), ({"match_bummerl": 3}, 3), ({"match_games": 3}, 3), ({"bye_bummerl": 1}, 1)],
)
def test_the_bye_scores_the_setting_or_a_won_match(db, fields, points_for_bye):
    t = factories.points_night(factories.club(), rounds=2, players=3, **fields)
    bye = Pairing.objects.get(round=draw_round(t, ACTOR, seed=1), kind="bye").left_id
    line = lines(t)[bye]
    assert (line.points, line.bummerl_diff, line.byes) == (points_for_bye, points_for_bye, 1)
    assert export(t)["bye_bummerl"] == points_for_bye


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"match_games": 6}, "match_games"),
        ({"schneider_counts": 3}, "schneider_counts"),
        ({"bye_bummerl": 4}, "bye_bummerl"),
        ({"match_games": 2, "bye_bummerl": 3}, "bye_bummerl"),
    ],
)
def test_match_settings_outside_the_rules_are_refused(db, fields, field):
    with pytest.raises(RuleError) as error:
        factories.points_night(factories.club(), rounds=2, **fields)
    assert error.value.field == field


def test_other_formats_keep_the_card_nights_match(db):
    t = factories.tournament(factories.club(), cards=8, sold=0, match_games=2, schneider_counts=2)
    assert (t.match_games, t.schneider_counts, t.bye_bummerl) == (None, 1, None)


def test_the_desk_creates_a_points_event_with_its_match_settings(client):
    club = factories.club()
    client.force_login(factories.user(club))
    form = client.get(reverse("tournaments", kwargs={"slug": club.slug})).content.decode()
    assert 'name="match_games"' in form and 'name="schneider_counts"' in form
    response = client.post(
        reverse("tournaments", kwargs={"slug": club.slug}),
        {
            "name": "Punkte",
            "day": "2026-12-04",
            "time": "19:00",
            "cards": 64,
            "max_cards": 3,
            "match_bummerl": 2,
            "entry_fee": "5",
            "format": "points",
            "players": 20,
            "rounds_planned": 3,
            "match_games": 3,
            "schneider_counts": 2,
            "bye_bummerl": 2,
        },
    )
    assert response.status_code == 302
    t = Tournament.objects.get(name="Punkte")
    assert (t.match_games, t.schneider_counts, t.bye_bummerl) == (3, 2, 2)
    for name in ("Anna", "Ben", "Clara"):
        client.post(
            reverse("sell", kwargs={"slug": club.slug, "tournament_id": t.pk}),
            {"key": str(uuid.uuid4()), "name": name, "count": 1, "paid": "on"},
        )
    client.post(
        reverse("draw_next", kwargs={"slug": club.slug, "tournament_id": t.pk}), {"round": "1"}
    )
    pairing = Pairing.objects.get(tournament=t, kind="match")
    url = reverse(
        "result", kwargs={"slug": club.slug, "tournament_id": t.pk, "pairing_id": pairing.pk}
    )
    refused = client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.left_id, "score": "2:0", "seen": "none"}
    )
    assert not Result.objects.filter(pairing=pairing).exists()
    assert refused.status_code in (200, 302)
    client.post(
        url, {"key": str(uuid.uuid4()), "winner": pairing.right_id, "score": "4:1", "seen": "none"}
    )
    assert Result.objects.get(pairing=pairing).score == "4:1"
    data = export(t)
    assert (data["match_games"], data["schneider_counts"], data["bye_bummerl"]) == (3, 2, 2)
    by_card = {s["card"]: s["points"] for s in data["standings"]}
    assert sorted(by_card.values()) == [1, 2, 4]


# ranking_ties (RULES.md 5.8) on the standings of a points or Leben event


def tied_points_event(ties):
    """4 players, 1 round, both matches 2:1: the winners share 1–2, the losers 3–4."""
    t = factories.points_night(
        factories.club(), rounds=1, ranking_ties=ties, prizes=[{"place": 1, "description": "Wein"}]
    )
    for p in Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)):
        enter(p, p.left_id, "2:1")
    return t


def places(t):
    return [
        (line.place, line.place_to, line.card.number) for line in formats.board(load_state(t)).lines
    ]


def test_a_stechen_orders_the_places_a_finished_points_event_left_shared(db):
    from tournaments.services.ties import ranges, record_stechen

    t = tied_points_event("stechen")
    before = places(t)
    assert [(a, b) for a, b, _n in before] == [(1, 2), (1, 2), (3, 4), (3, 4)]
    top = [n for a, _b, n in before if a == 1]
    assert [(r.first, r.last, len(r.cards)) for r in ranges(load_state(t))] == [
        (1, 2, 2),
        (3, 4, 2),
    ]
    record_stechen(t, 1, list(reversed(sorted(top))), ACTOR, uuid.uuid4())
    after = places(t)
    assert after[:2] == [(1, 1, max(top)), (2, 2, min(top))]
    assert after[2:] == before[2:]  # 3–4 still shared
    data = export(t)
    assert data["prizes"][0]["card"] == max(top)
    assert [(r["place"], r["to"]) for r in data["ranking"]] == [(1, 1), (2, 2), (3, 4), (3, 4)]


def test_a_points_event_still_running_has_no_range_to_play_off(db):
    from tournaments.services.ties import ranges

    t = factories.points_night(factories.club(), rounds=2, ranking_ties="stechen")
    for p in Pairing.objects.filter(round=draw_round(t, ACTOR, seed=1)):
        enter(p, p.left_id, "2:1")
    assert ranges(load_state(t)) == []


def test_lots_order_a_leben_range_of_players_out_in_the_same_round(db):
    from tournaments.ranking import lot_order
    from tournaments.services.ties import draw_lots

    t = factories.tournament(
        factories.club(), cards=5, sold=5, max_cards=1, format="leben", lives=1, ranking_ties="lot"
    )
    for p in Pairing.objects.filter(round=draw_round(t, ACTOR, seed=11), kind="match"):
        enter(p, p.left_id, "2:0")
    shared = [n for a, b, n in places(t) if a is not None and a != b]
    assert len(shared) == 2
    (lots,) = draw_lots(t, ACTOR)
    numbers = lot_order(shared, lots.seed)
    got = [(a, b, n) for a, b, n in places(t) if n in shared]
    assert got == [(4, 4, numbers[0]), (5, 5, numbers[1])]
    assert draw_lots(t, ACTOR) == []  # a second tap draws none
    from tournaments.verify import check_export

    data = export(t)
    assert data["ranking_ties"] == "lot"
    assert [(x["first"], x["kind"], x["order"]) for x in data["ties"]] == [(4, "lot", numbers)]
    lots_checked = [c for c in check_export(data) if c.what == "lot"]
    assert [c.replay for c in lots_checked] == [True]


def test_the_ranking_page_records_a_stechen_of_a_points_event(client):
    t = tied_points_event("stechen")
    client.force_login(factories.user(t.club))
    url = reverse("tournament_ranking", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    page = client.get(url).content.decode()
    assert 'id="range-1"' in page and 'id="range-3"' in page
    low = [n for a, _b, n in places(t) if a == 3]
    response = client.post(
        reverse("stechen", kwargs={"slug": t.club.slug, "tournament_id": t.pk}),
        {"key": str(uuid.uuid4()), "first": 3, "seen": 0, "order": f"{low[1]}, {low[0]}"},
    )
    assert response.status_code == 302
    assert places(t)[2:] == [(3, 3, low[1]), (4, 4, low[0])]
    board_page = client.get(
        reverse("tournament", kwargs={"slug": t.club.slug, "tournament_id": t.pk})
    ).content.decode()
    assert "3–4" not in board_page


def test_the_desk_and_the_form_name_the_match_settings_in_german(client):
    t = factories.points_night(factories.club(), rounds=2, match_games=3, schneider_counts=2)
    client.force_login(factories.user(t.club))
    desk = client.get(reverse("tournament", kwargs={"slug": t.club.slug, "tournament_id": t.pk}))
    assert "Matches über 3 Bummerl · ein Schneider zählt 2" in desk.content.decode()
    form = client.get(reverse("tournaments", kwargs={"slug": t.club.slug})).content.decode()
    for german in ("Ein Match (Punkte)", "genau 3 Bummerl", "Ein Schneider zählt (Punkte)"):
        assert german in form
    for english in ("exactly 3 Bummerl", "A Schneider counts", "Bummerl for a bye"):
        assert english not in form


def test_the_board_with_lots_drawn_stays_flat_in_queries(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.services.ties import draw_lots
    from tournaments.simulation import simulate_format

    club = factories.club()
    counts = []
    for players in (8, 60):
        t = simulate_format(club, "points", players, seed=players, rounds=1)
        Tournament.objects.filter(pk=t.pk).update(ranking_ties="lot")
        t.refresh_from_db()
        assert draw_lots(t, ACTOR)  # a finished event of random results leaves ties
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("bracket", kwargs={"token": t.public_token}))
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 7
