"""Leben (RULES.md 5.10) and points events (RULES.md 6) under the auditable draw (5.12)
and with withdrawals after round 1 (5.7), on a real database: the commitment shown
before a draw is the one kept, the export carries every round's inputs and replays,
a withdrawn player is not drawn and his open match is a walkover; the room screen shows
the commitment of the next draw."""

import json
import random

import pytest
from django.core.management import call_command
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import RuleError
from scoring.services import Actor
from tests import factories
from tournaments import danish, formats
from tournaments import leben as leben_core
from tournaments.export import export
from tournaments.models import Pairing, Round
from tournaments.services.draws import draw_round, pending_commitment, undo_draw
from tournaments.services.reading import load_state
from tournaments.services.withdrawals import undo_withdrawal, withdraw_card
from tournaments.simulation import simulate_format
from tournaments.verify import check_export, check_format_round, commit_format, pair_format

pytestmark = pytest.mark.django_db
ACTOR = Actor()


def matches(round_):
    return list(Pairing.objects.filter(round=round_, kind="match").order_by("number"))


def lines(t):
    return {line.card.pk: line for line in formats.board(load_state(t)).lines}


def verify_command(document, tmp_path) -> tuple[str, int]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = []

    class Sink:
        def write(self, text):
            out.append(text)

        def flush(self):
            pass

    try:
        call_command("tournament", "verify", str(path), stdout=Sink())
    except SystemExit as stop:
        return "".join(out), stop.code
    return "".join(out), 0


# The pure cores --------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(3, 60), lives=st.integers(1, 3))
def test_leben_a_withdrawn_entry_goes_out_in_his_round_and_every_place_is_given(seed, size, lives):
    rng = random.Random(seed)
    entries = {e: lives for e in range(1, size + 1)}
    rounds, gone = [], {}
    while True:
        result = leben_core.standing(entries, rounds, gone)
        for e, r in gone.items():
            assert result.lines[e].out_round == r  # out in the round he was withdrawn in
        alive = leben_core.next_round_alive(result, rounds)
        if alive is None:
            break
        assert not set(alive) & set(gone)  # never drawn again
        pairs, bye = leben_core.pair_round(alive, result.byes(), rng.getrandbits(32))
        number = len(rounds) + 1
        played = []
        for a, b in pairs:
            if rng.random() < 0.1 and len(alive) > 2:  # withdrawn before playing: a walkover
                gone[b] = number
                played.append((a, b, a))
            else:
                played.append((a, b, rng.choice((a, b))))
        rounds.append(leben_core.Played(number, tuple(played), bye))
        if rng.random() < 0.2 and len(alive) > 3:  # withdrawn between rounds
            still = [e for e in leben_core.standing(entries, rounds, gone).alive if e not in gone]
            if len(still) > 2:
                gone[rng.choice(still)] = number
    assert result.finished
    places = {(line.place, line.place_to) for line in result.lines.values()}
    covered = sorted(p for first, last in places for p in range(first, last + 1))
    assert covered == list(range(1, size + 1))


def test_points_a_walkover_scores_the_bye_score_for_the_opponent_and_nothing_for_him():
    rounds = [danish.Played(1, (danish.Game(1, 2, 2, 1),), walkovers=(3,))]
    table = {line.entry: line for line in danish.standing([1, 2, 3, 4], rounds, 2)}
    assert [
        (table[e].points, table[e].bummerl_diff, table[e].byes, table[e].played)
        for e in (1, 2, 3, 4)
    ] == [(2, 1, 0, 1), (1, -1, 0, 1), (2, 2, 0, 0), (0, 0, 0, 0)]


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**48 - 1),
    size=st.integers(2, 40),
    number=st.integers(1, 6),
    kind=st.sampled_from(["leben", "points"]),
)
def test_a_format_round_replays_from_its_entries_and_its_commitment(seed, size, number, kind):
    cards = list(range(101, 101 + size))
    rng = random.Random(seed)
    byes = {c: rng.randint(0, 1) for c in cards}
    entries = [(f"Spieler {c}", c, byes[c], None) for c in cards]
    pairs, bye = pair_format(kind, number, cards, byes, {}, False, seed)
    round_ = {
        "number": number,
        "seed": seed,
        "nonce": "ab" * 16,
        "commitment": commit_format("ab" * 16, seed, kind, number, entries, False),
        "entries": [{"player": n, "card": c, "byes": b, "last": last} for n, c, b, last in entries],
        "pairings": [
            {"number": i, "kind": "match", "left": {"card": a}, "right": {"card": b}}
            for i, (a, b) in enumerate(pairs, start=1)
        ]
        + ([{"number": 99, "kind": "bye", "left": {"card": bye}, "right": None}] if bye else []),
    }
    check = check_format_round(round_, kind, False)
    assert check.ok and check.commitment is True
    round_["seed"] += 1
    assert check_format_round(round_, kind, False).commitment is False


# The commitment -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["leben", "points"])
def test_the_commitment_shown_before_a_format_draw_is_the_one_kept(kind):
    t = (
        factories.leben_night(factories.club(), players=6)
        if kind == "leben"
        else factories.points_night(factories.club(), players=6)
    )
    shown = pending_commitment(load_state(t))
    assert shown is not None and shown[0] == 1
    t.refresh_from_db()
    seed, nonce = t.draw_seed, t.draw_nonce
    round_ = draw_round(t, ACTOR, expected=1, commitment=shown[1])
    assert (round_.seed, round_.nonce, round_.commitment) == (seed, nonce, shown[1])
    t.refresh_from_db()
    assert t.draw_seed != seed or t.draw_nonce != nonce  # a new secret for round 2
    assert pending_commitment(load_state(t)) is None  # round 1 is open


def test_a_format_draw_is_refused_when_its_inputs_changed_since_the_commitment():
    t = factories.points_night(factories.club(), players=5)
    shown = pending_commitment(load_state(t))
    withdraw_card(t, t.card_set.order_by("number").first().pk, ACTOR)
    with pytest.raises(RuleError) as error:
        draw_round(t, ACTOR, expected=1, commitment=shown[1])
    assert error.value.field == "commitment"
    assert not Round.objects.filter(tournament=t).exists()


@pytest.mark.parametrize(
    ("kind", "size", "options"),
    [("leben", 13, {"lives": 2}), ("points", 9, {"rounds": 4})],
)
def test_a_format_export_verifies_and_a_changed_seed_fails(kind, size, options, tmp_path):
    t = simulate_format(factories.club(), kind, size, seed=4, **options)
    document = export(t)
    assert len(document["rounds"]) >= 3
    for r in document["rounds"]:
        assert len(r["commitment"]) == 64 and r["nonce"] and r["entries"]
    checks = check_export(document)
    assert [c.ok for c in checks] == [True] * len(document["rounds"])
    assert all(c.commitment is True for c in checks)
    out, code = verify_command(document, tmp_path)
    assert code == 0 and f"{len(checks)} draws checked, 0 failed" in out

    document["rounds"][1]["seed"] += 1
    checks = check_export(document)
    assert [c.number for c in checks if not c.ok] == [2]
    assert checks[1].commitment is False
    out, code = verify_command(document, tmp_path)
    assert code == 1 and "round 2, digital, COMMITMENT WRONG: FAILED" in out


def test_changed_inputs_of_a_points_round_fail_its_commitment():
    t = simulate_format(factories.club(), "points", 6, seed=2, rounds=3)
    document = export(t)
    document["rounds"][2]["entries"][0]["byes"] += 1
    checks = check_export(document)
    assert [c.ok for c in checks] == [True, True, False]
    assert checks[2].problems[0] == "the commitment does not match the seed and inputs"


def test_the_public_verify_page_checks_a_leben_event(client):
    t = simulate_format(factories.club(), "leben", 7, seed=5, lives=1)
    response = client.get(reverse("verify_draws", kwargs={"token": t.public_token}))
    assert response.status_code == 200
    html = response.content.decode()
    rounds = Round.objects.filter(tournament=t).count()
    assert html.count("✓") == rounds and "✗" not in html


def test_the_standings_board_shows_the_commitment_of_the_next_draw(client):
    t = factories.points_night(factories.club(), players=4, rounds=2)
    shown = pending_commitment(load_state(t))
    html = client.get(reverse("bracket", kwargs={"token": t.public_token})).content.decode()
    assert shown[1] in html


def test_the_room_screen_shows_the_commitment_before_a_draw_and_not_while_a_round_runs(client):
    t = factories.tournament(factories.club(), cards=16, sold=12)
    url = reverse("room_screen", kwargs={"token": t.public_token})
    number, sealed, _name = pending_commitment(load_state(t))
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert number == 1 and 'id="commitment"' in html and sealed in html  # polled too
    draw_round(t, ACTOR)
    html = client.get(url).content.decode()
    assert 'id="commitment"' not in html  # round 1 is open: nothing to commit to


# Withdrawal in Leben -------------------------------------------------------------------


def test_leben_a_player_withdrawn_between_rounds_goes_out_in_that_round_and_is_not_drawn():
    t = factories.leben_night(factories.club(), players=5)
    first = draw_round(t, ACTOR, seed=7)
    a, b = matches(first)
    bye = Pairing.objects.get(round=first, kind="bye").left_id
    factories.win(a, winner=a.left_id)
    factories.win(b, winner=b.left_id)
    withdraw_card(t, a.left_id, ACTOR)  # a winner of round 1 goes home
    got = lines(t)
    # Out in round 1: the two losers and the withdrawn winner share places 3-5.
    for pk in (a.right_id, b.right_id, a.left_id):
        assert (got[pk].place, got[pk].place_to, got[pk].out_round) == (3, 5, 1)
    assert got[a.left_id].lives_left == 0 and got[a.left_id].wins == 1
    second = draw_round(t, ACTOR, seed=8)
    (final,) = Pairing.objects.filter(round=second)
    assert final.kind == "match" and {final.left_id, final.right_id} == {b.left_id, bye}
    factories.win(final, winner=bye, score="2:1")
    got = lines(t)
    assert (got[bye].place, got[b.left_id].place) == (1, 2)
    ranking = [(r["place"], r["to"], r["card"]) for r in export(t)["ranking"]]
    number = {pk: line.card.number for pk, line in got.items()}
    out = sorted(number[pk] for pk in (a.right_id, b.right_id, a.left_id))
    assert ranking == [(1, 1, number[bye]), (2, 2, number[b.left_id])] + [(3, 5, n) for n in out]


def test_leben_withdrawn_after_the_draw_his_match_is_a_walkover_and_undo_reopens_it():
    t = factories.leben_night(factories.club(), players=4, lives=2)
    first = draw_round(t, ACTOR, seed=2)
    a, b = matches(first)
    factories.win(a, winner=a.left_id)
    withdraw_card(t, b.right_id, ACTOR)
    got = lines(t)
    assert (got[b.left_id].wins, got[b.left_id].lives_left) == (1, 2)
    assert (got[b.right_id].place, got[b.right_id].place_to, got[b.right_id].out_round) == (
        4,
        4,
        1,
    )
    assert got[a.right_id].place is None  # one life of two lost: still in
    shown = {p["number"]: p for p in export(t)["rounds"][0]["pairings"]}
    assert shown[b.number]["kind"] == "walkover" and shown[b.number]["score"] is None
    assert (
        formats.board(load_state(t)).next_round == 2
        and formats.board(load_state(t)).next_count == 3
    )

    undo_withdrawal(t, b.right_id, ACTOR)
    got = lines(t)
    assert got[b.right_id].place is None and got[b.left_id].wins == 0
    assert formats.board(load_state(t)).open_matches == 1


def test_leben_a_withdrawal_is_refused_for_a_player_who_is_out_and_undone_only_before_the_next_draw():
    t = factories.leben_night(factories.club(), players=4)
    first = draw_round(t, ACTOR, seed=3)
    a, b = matches(first)
    factories.win(a, winner=a.left_id)
    factories.win(b, winner=b.left_id)
    with pytest.raises(RuleError) as error:
        withdraw_card(t, a.right_id, ACTOR)  # lost his only life
    assert error.value.field == "card"
    withdraw_card(t, b.left_id, ACTOR)
    assert formats.board(load_state(t)).finished  # one player left: he wins
    assert lines(t)[a.left_id].place == 1
    undo_withdrawal(t, b.left_id, ACTOR)
    second = draw_round(t, ACTOR, seed=4)
    withdraw_card(t, b.left_id, ACTOR)  # in the final: a walkover for the other
    with pytest.raises(RuleError):
        draw_round(t, ACTOR, seed=5)
    got = lines(t)
    assert (got[a.left_id].place, got[b.left_id].place) == (1, 2)
    assert second.number == 2


# Withdrawal in points events ----------------------------------------------------------


def test_points_a_withdrawn_player_keeps_his_points_and_gets_no_pairing_or_bye():
    t = factories.points_night(factories.club(), players=5, rounds=3, match_bummerl=2)
    first = draw_round(t, ACTOR, seed=1)
    a, b = matches(first)
    bye1 = Pairing.objects.get(round=first, kind="bye").left_id
    factories.win(a, winner=a.left_id, score="2:1")
    factories.win(b, winner=b.left_id, score="2:0")
    withdraw_card(t, a.left_id, ACTOR)
    got = lines(t)
    assert (got[a.left_id].points, got[a.left_id].bummerl_diff, got[a.left_id].played) == (2, 1, 1)
    second = draw_round(t, ACTOR, seed=2)
    drawn = [
        c
        for p in Pairing.objects.filter(round=second)
        for c in (p.left_id, p.right_id)
        if c is not None
    ]
    assert a.left_id not in drawn and sorted(drawn) == sorted(
        [b.left_id, bye1, a.right_id, b.right_id]
    )
    assert not Pairing.objects.filter(round=second, kind="bye").exists()  # 4 drawn: even
    for p in matches(second):
        factories.win(p, winner=p.left_id, score="2:0")
    third = draw_round(t, ACTOR, seed=3)
    assert a.left_id not in {
        c for p in Pairing.objects.filter(round=third) for c in (p.left_id, p.right_id)
    }
    for p in matches(third):
        factories.win(p, winner=p.left_id, score="2:0")
    got = lines(t)
    assert (got[a.left_id].points, got[a.left_id].byes, got[a.left_id].played) == (2, 0, 1)
    assert formats.board(load_state(t)).finished
    assert sum(line.points for line in got.values()) == 2 + 1 + 2 + 2 + 2 * 2 + 2 * 2


def test_points_withdrawn_after_the_draw_his_opponent_scores_the_walkover_as_a_bye():
    t = factories.points_night(factories.club(), players=4, rounds=2, match_bummerl=2)
    first = draw_round(t, ACTOR, seed=5)
    a, b = matches(first)
    factories.win(a, winner=a.left_id, score="2:1")
    withdraw_card(t, b.right_id, ACTOR)
    got = lines(t)
    assert (got[b.left_id].points, got[b.left_id].bummerl_diff, got[b.left_id].byes) == (2, 2, 0)
    assert (got[b.right_id].points, got[b.right_id].played) == (0, 0)
    assert [line.card.pk for line in formats.board(load_state(t)).lines][-1] == b.right_id
    second = draw_round(t, ACTOR, seed=6)
    assert Pairing.objects.get(round=second, kind="bye").left_id == a.right_id  # last drawn
    (final,) = matches(second)
    assert {final.left_id, final.right_id} == {a.left_id, b.left_id}
    with pytest.raises(RuleError) as error:
        undo_withdrawal(t, b.right_id, ACTOR)
    assert error.value.field == "card"  # round 2 was drawn without him
    void_round = Round.objects.get(pk=second.pk)
    undo_draw(t, void_round.pk, ACTOR)
    undo_withdrawal(t, b.right_id, ACTOR)
    got = lines(t)
    assert got[b.left_id].points == 0 and formats.board(load_state(t)).open_matches == 1


# The desk ------------------------------------------------------------------------------


def test_the_desk_of_a_points_event_draws_with_its_commitment_and_withdraws_after_round_one(
    client,
):
    t = factories.points_night(factories.club(), players=4, rounds=2)
    club = t.club
    client.force_login(factories.user(club))
    desk = reverse("tournament", kwargs={"slug": club.slug, "tournament_id": t.pk})
    shown = pending_commitment(load_state(t))[1]
    page = client.get(desk).content.decode()
    assert f'name="commitment" value="{shown}"' in page
    response = client.post(
        reverse("draw_next", kwargs={"slug": club.slug, "tournament_id": t.pk}),
        {"round": "1", "commitment": shown},
    )
    assert response.status_code == 302
    first = Round.objects.get(tournament=t, number=1)
    assert first.commitment == shown
    a, b = matches(first)
    factories.win(a, winner=a.left_id)
    withdraw = reverse(
        "withdraw_card", kwargs={"slug": club.slug, "tournament_id": t.pk, "card_id": b.left_id}
    )
    assert withdraw in client.get(desk).content.decode()  # offered after round 1
    assert client.post(withdraw).status_code == 302
    page = client.get(desk).content.decode()
    assert "zurückgezogen in Runde 1" in page
    assert lines(t)[b.right_id].points == 2  # the walkover, scored as a bye


def test_the_room_screen_of_a_leben_event_shows_its_commitment(client):
    t = factories.leben_night(factories.club(), players=6)
    _number, sealed, _name = pending_commitment(load_state(t))
    url = reverse("room_screen", kwargs={"token": t.public_token})
    assert sealed in client.get(url).content.decode()
