"""Ratings on the real database: what counts as a game, the re-rating task that follows
the writers after their commit, corrections re-rated from the corrected game on, the
rating list, the chart on the player page, and who may read them."""

import ast
import uuid

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_q.models import OrmQ

from clubs.models import Player
from clubs.players import merge_players
from ratings import elo
from ratings.models import RatedGame, Rating, RatingChange
from ratings.services import club_games, rerate_club, stored_history
from ratings.views import list_rows
from scoring import reading, services, upkeep
from scoring.rules import QuickDeal
from seasons.models import RankingSettings
from tests import factories
from tests.bummerl.test_layers import EDGES, ROOT
from tournaments.models import Kind, Pairing
from tournaments.services.results import correct_result, void_result

pytestmark = pytest.mark.django_db
ACTOR = services.Actor()


def ratings_of(club, variant="schnapsen") -> dict[str, float]:
    names = dict(Player.objects.filter(club=club).values_list("pk", "name"))
    return {
        names[r.player_id]: r.value
        for r in Rating.objects.filter(club=club, variant=variant)
        if r.player_id in names
    }


def from_scratch(club) -> dict[str, list]:
    """The club's stored history and ratings, then both again as rating every game from
    scratch gives them (what a correction's re-rating must equal)."""
    mine = {v: stored_history(club.pk, v) for v in ("schnapsen", "dreierschnapsen")}
    ratings = {r.player_id: r.value for r in Rating.objects.filter(club=club)}
    RatedGame.objects.filter(club=club).delete()
    Rating.objects.filter(club=club).delete()
    rerate_club(club.pk)
    theirs = {v: stored_history(club.pk, v) for v in ("schnapsen", "dreierschnapsen")}
    assert ratings == {r.player_id: r.value for r in Rating.objects.filter(club=club)}
    return {"stored": [mine], "scratch": [theirs]}


# -- what counts ------------------------------------------------------------------------


def test_a_tournament_night_rates_its_matches_and_not_its_byes(
    django_capture_on_commit_callbacks,
):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=6)  # 2 byes in round 1
    with django_capture_on_commit_callbacks(execute=True):
        round_1 = factories.decide_round(t, seed=1)
    matches = list(Pairing.objects.filter(round=round_1, kind=Kind.MATCH))
    assert len(matches) == 2 and Pairing.objects.filter(round=round_1, kind=Kind.BYE).count() == 2
    assert RatedGame.objects.filter(club=club).count() == 2
    winners = {p.left.player.name for p in matches}
    losers = {p.right.player.name for p in matches}
    assert ratings_of(club) == {**dict.fromkeys(winners, 1510.0), **dict.fromkeys(losers, 1490.0)}
    with django_capture_on_commit_callbacks(execute=True):
        round_2 = factories.decide_round(t, seed=2)
    expected = elo.rate(club_games(club.pk, "schnapsen")).ratings
    assert {r.player_id: r.value for r in Rating.objects.filter(club=club)} == expected
    assert (
        RatedGame.objects.filter(club=club).count()
        == 2 + Pairing.objects.filter(round=round_2, kind=Kind.MATCH).count()
    )
    games = {g.ref: g for g in club_games(club.pk, "schnapsen")}
    assert all(ref.startswith("match:") for ref in games)


def test_a_level_points_match_is_a_draw_and_a_walkover_no_game(django_capture_on_commit_callbacks):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=8)
    with django_capture_on_commit_callbacks(execute=True):
        factories.decide_round(t, seed=1)
    first = Pairing.objects.filter(tournament=t, kind=Kind.MATCH).order_by("number").first()
    # A walkover (a player meeting himself, a withdrawal) is of another kind: not read.
    Pairing.objects.filter(pk=first.pk).update(kind=Kind.WALKOVER)
    assert len(club_games(club.pk, "schnapsen")) == 3


def test_two_player_tables_rate_each_decided_partie(django_capture_on_commit_callbacks):
    club = factories.club()
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    with django_capture_on_commit_callbacks(execute=True):
        factories.partie(club, (anna, ben), winner=0)
        factories.partie(club, (anna, ben), winner=0)
        table = upkeep.open_sheet(club, "schnapsen", [ben, clara], factories.presets()["wiki"])
        services.record_entry(table, QuickDeal(0, 3), uuid.uuid4(), ACTOR)  # open: no game
    ratings = ratings_of(club)
    assert ratings["Anna"] == pytest.approx(1519.42498, abs=1e-5)
    assert ratings["Ben"] == pytest.approx(1480.57502, abs=1e-5)
    assert "Clara" not in ratings
    assert Rating.objects.get(club=club, player_id=anna.pk).games == 2


def test_dreier_and_bauern_games_to_24_are_rated_per_variant(django_capture_on_commit_callbacks):
    club = factories.club()
    dreier = factories.sheet(club, names=("Anna", "Ben", "Clara"))
    bauern = factories.sheet(club, names=("Dora", "Emil", "Fritz", "Gerda"), preset="bauern")
    with django_capture_on_commit_callbacks(execute=True):
        factories.finish_game(dreier)
        factories.finish_game(bauern)
    game = reading.read_sheet(dreier).state.games[0]
    dreier_ratings = ratings_of(club, "dreierschnapsen")
    names = ["Anna", "Ben", "Clara"]
    assert dreier_ratings[names[game.losers[0]]] == 1490.0
    assert sum(dreier_ratings.values()) == pytest.approx(4500)
    bauern_ratings = ratings_of(club, "bauernschnapsen")
    state = reading.read_sheet(bauern).state
    lost = (0, 2) if 0 in state.games[0].losers else (1, 3)
    seats = ["Dora", "Emil", "Fritz", "Gerda"]
    assert {bauern_ratings[seats[s]] for s in lost} == {1490.0}
    assert {bauern_ratings[seats[s]] for s in range(4) if s not in lost} == {1510.0}
    assert ratings_of(club, "schnapsen") == {}  # never mixed


# -- corrections ------------------------------------------------------------------------


def test_a_corrected_deal_re_rates_from_that_partie_on_as_from_scratch(
    django_capture_on_commit_callbacks,
):
    club = factories.club()
    anna, ben, clara = factories.players(club, "Anna", "Ben", "Clara")
    with django_capture_on_commit_callbacks(execute=True):
        first = factories.partie(club, (anna, ben), winner=0)
        second = factories.partie(club, (anna, clara), winner=0)
        factories.partie(club, (ben, clara), winner=1)
    before = list(RatedGame.objects.filter(club=club).order_by("seq").values_list("pk", "ref"))
    assert [ref for _pk, ref in before] == [
        f"sheet:{first.pk:09d}",
        f"sheet:{second.pk:09d}",
        before[2][1],
    ]
    deal = reading.read_sheet(second).live_deals[-1]
    with django_capture_on_commit_callbacks(execute=True):
        services.correct_deal(second, deal.pk, QuickDeal(1, 3), uuid.uuid4(), ACTOR)
    # Clara now leads 6:3 in the open Bummerl: the second Partie is no longer decided.
    after = list(RatedGame.objects.filter(club=club).order_by("seq").values_list("pk", "ref"))
    assert after[0] == before[0]  # the game before the correction is kept as it was
    assert [ref for _pk, ref in after] == [before[0][1], before[2][1]]
    assert after[1][0] != before[2][0]  # rated again
    assert ratings_of(club)["Anna"] == 1510.0
    stored = from_scratch(club)
    assert stored["stored"] == stored["scratch"]


def test_a_corrected_and_a_voided_result_re_rate_the_night(django_capture_on_commit_callbacks):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=8)
    with django_capture_on_commit_callbacks(execute=True):
        round_1 = factories.decide_round(t, seed=1)
    pairing = Pairing.objects.filter(round=round_1).order_by("number").first()
    loser = pairing.right.player.name
    assert ratings_of(club)[loser] == 1490.0
    with django_capture_on_commit_callbacks(execute=True):
        correct_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), ACTOR)
    assert ratings_of(club)[loser] == 1510.0
    assert RatedGame.objects.filter(club=club).count() == 4  # the match kept its place
    stored = from_scratch(club)
    assert stored["stored"] == stored["scratch"]
    with django_capture_on_commit_callbacks(execute=True):
        void_result(pairing, ACTOR)
    assert loser not in ratings_of(club)
    assert RatedGame.objects.filter(club=club).count() == 3


def test_a_struck_out_deal_that_ended_a_game_takes_the_game_back(
    django_capture_on_commit_callbacks,
):
    club = factories.club()
    table = factories.sheet(club, names=("Anna", "Ben", "Clara"))
    with django_capture_on_commit_callbacks(execute=True):
        factories.finish_game(table)
    assert RatedGame.objects.filter(club=club).count() == 1
    last = reading.read_sheet(table).live_deals[-1]
    with django_capture_on_commit_callbacks(execute=True):
        services.void_deal(table, last.pk, ACTOR)
    assert RatedGame.objects.filter(club=club).count() == 0
    assert Rating.objects.filter(club=club).count() == 0


def test_a_merge_of_two_players_rates_the_club_again(django_capture_on_commit_callbacks):
    club = factories.club()
    anna, ben, anna2 = factories.players(club, "Anna", "Ben", "Anna K.")
    with django_capture_on_commit_callbacks(execute=True):
        factories.partie(club, (anna, ben), winner=0)
        factories.partie(club, (anna2, ben), winner=0)
        merge_players(anna, anna2, ACTOR)
    assert Rating.objects.get(club=club, player_id=anna.pk).games == 2
    assert not Rating.objects.filter(player_id=anna2.pk).exists()
    assert not RatingChange.objects.filter(player_id=anna2.pk).exists()


# -- the task ---------------------------------------------------------------------------


def test_the_rating_waits_for_the_commit_and_runs_on_the_worker(
    django_capture_on_commit_callbacks, settings
):
    settings.TASKS_SYNC = False
    club = factories.club()
    anna, ben = factories.players(club, "Anna", "Ben")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        factories.partie(club, (anna, ben))
    assert len(callbacks) == 1  # only the deal that ended the Partie asks for a rating
    assert OrmQ.objects.count() == 0 and not Rating.objects.exists()
    callbacks[0]()
    assert OrmQ.objects.count() == 1  # queued for the worker, not run in the request
    assert not Rating.objects.exists()


def test_a_deal_that_ends_no_game_enqueues_nothing(django_capture_on_commit_callbacks):
    club = factories.club()
    table = factories.sheet(club, names=("Anna", "Ben", "Clara"))
    with django_capture_on_commit_callbacks() as callbacks:
        services.record_entry(table, factories.next_entry(table), uuid.uuid4(), ACTOR)
    assert callbacks == []


def test_the_rerate_command_rates_one_club_or_all(capsys):
    club, other = factories.club(), factories.club()
    factories.partie(club, factories.players(club, "Anna", "Ben"))  # no commit: not rated yet
    factories.partie(other, factories.players(other, "Anna", "Ben"))
    assert not Rating.objects.exists()
    call_command("rerate", club.slug)
    assert Rating.objects.filter(club=club).count() == 2
    assert not Rating.objects.filter(club=other).exists()
    call_command("rerate")
    assert Rating.objects.filter(club=other).count() == 2
    call_command("rerate", "--all")
    assert f"{club.slug}: 1 games rated" in capsys.readouterr().out
    assert ratings_of(club) == {"Anna": 1510.0, "Ben": 1490.0}


def test_a_club_s_ratings_never_mix_with_another_club_s(django_capture_on_commit_callbacks):
    club, other = factories.club(), factories.club()
    with django_capture_on_commit_callbacks(execute=True):
        factories.partie(club, factories.players(club, "Anna", "Ben"))
        factories.partie(other, factories.players(other, "Anna", "Ben"), winner=1)
    assert ratings_of(club) == {"Anna": 1510.0, "Ben": 1490.0}
    assert ratings_of(other) == {"Anna": 1490.0, "Ben": 1510.0}


# -- pages ------------------------------------------------------------------------------


def rated_club(django_capture_on_commit_callbacks):
    """Anna won 2 Partien against Ben, Clara beat Dora once."""
    club = factories.club()
    anna, ben, clara, dora = factories.players(club, "Anna", "Ben", "Clara", "Dora")
    with django_capture_on_commit_callbacks(execute=True):
        factories.partie(club, (anna, ben))
        factories.partie(club, (anna, ben))
        factories.partie(club, (clara, dora))
    return club, anna


def test_the_list_ranks_players_with_the_minimum_and_lists_the_others_apart(
    client, settings, django_capture_on_commit_callbacks
):
    settings.RATING_MIN_GAMES = 2
    club, anna = rated_club(django_capture_on_commit_callbacks)
    client.force_login(factories.user(club, role="scorer"))
    response = client.get(reverse("ratings:list", args=[club.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Wertungsliste: Schnapsen (zu zweit)</h1>" in html
    ranked = html[html.index('<table class="list ratings"') : html.index("Weniger Wertungsspiele")]
    below = html[html.index("Weniger Wertungsspiele") :]
    assert ranked.index("Anna") < ranked.index("Ben") and "Clara" not in ranked
    assert "1519" in ranked and "1481" in ranked
    assert "Clara" in below and "Dora" in below
    assert f'href="{reverse("player", args=[club.slug, anna.pk])}"' in html
    assert "ab 2 Wertungsspielen" in html
    other = client.get(reverse("ratings:list", args=[club.slug]) + "?game=dreierschnapsen")
    assert "Noch kein gewertetes Spiel." in other.content.decode()
    assert client.get(reverse("ratings:list", args=[club.slug]) + "?game=poker").status_code == 404


def test_the_player_page_shows_his_rating_chart(client, django_capture_on_commit_callbacks):
    club, anna = rated_club(django_capture_on_commit_callbacks)
    client.force_login(factories.user(club, role="scorer"))
    html = client.get(reverse("player", args=[club.slug, anna.pk])).content.decode()
    section = html[html.index('<section class="rating"') :]
    assert "Schnapsen (zu zweit): Wertung 1519" in section
    assert '<svg class="chart rating-chart"' in section and "2 Wertungsspiele" in section
    assert "<polyline" in section


def test_the_list_is_for_members_unless_the_rankings_are_public(
    client, django_capture_on_commit_callbacks
):
    club, anna = rated_club(django_capture_on_commit_callbacks)
    url = reverse("ratings:list", args=[club.slug])
    assert client.get(url).status_code == 302  # anonymous: sign in
    client.force_login(factories.user(factories.club(), role="owner"))
    assert client.get(url).status_code == 404  # a member of another club
    RankingSettings.objects.update_or_create(club=club, defaults={"public": True})
    response = client.get(url)
    assert response.status_code == 200 and "Anna" in response.content.decode()
    assert reverse("player", args=[club.slug, anna.pk]) not in response.content.decode()
    client.logout()
    assert client.get(url).status_code == 200


def test_no_draw_reads_the_ratings():
    """Preisschnapsen draws are random by rule (RULES.md 5.2): no module a draw runs
    through imports ratings, directly or through another module."""
    draws = {m for m in EDGES if m.startswith("tournaments.")}
    seen, todo = set(), list(draws)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo += EDGES.get(module, ())
    assert not {m for m in seen if m.startswith("ratings")}
    for name in ("draw", "leben", "danish", "lots"):
        tree = ast.parse((ROOT / "tournaments" / f"{name}.py").read_text("utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not any(m.startswith("ratings") for m in imported)


def test_equal_ratings_on_the_club_list_share_a_place_in_german_name_order(
    django_capture_on_commit_callbacks,
):
    """Zoe and Ärmin each win one Partie against an equal player: both 1510, sharing
    place 1 (Ärmin first: Ä sorts as A), then both losers at 1490 share place 3."""
    club = factories.club()
    zoe, ben, armin, dora = factories.players(club, "Zoe", "Ben", "Ärmin", "Dora")
    with django_capture_on_commit_callbacks(execute=True):
        factories.partie(club, (zoe, ben), winner=0)
        factories.partie(club, (armin, dora), winner=0)
    ranked, below = list_rows(club, "schnapsen", 1)
    assert [(r.place, r.name, r.rating) for r in ranked] == [
        (1, "Ärmin", 1510),
        (1, "Zoe", 1510),
        (3, "Ben", 1490),
        (3, "Dora", 1490),
    ]
    assert below == []
