"""The room screen (``tournaments.screen``): its pages, its fixed number of queries and
that it carries the public link only."""

import pytest
from django.urls import reverse

from tests import factories
from tournaments.categories import overall_prizes
from tournaments.screen import PER_PAGE, screen_pages
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db


def screen(t) -> str:
    return reverse("room_screen", kwargs={"token": t.public_token})


def test_the_current_round_is_split_into_pages_of_at_most_24_matches():
    t = simulate(factories.club(), cards=128, players=100, max_cards=2, seed=3, stop_after=1)
    state = load_state(t)
    pages = screen_pages(state, [])
    assert PER_PAGE == 24
    assert [len(p.rows) for p in pages] == [24, 24, 16]
    assert [(p.part, p.parts) for p in pages] == [(1, 3), (2, 3), (3, 3)]


def test_a_finished_night_shows_the_final_then_the_placement_matches_then_the_prizes():
    t = simulate(factories.club(), cards=16, players=10, max_cards=2, seed=7)
    t.prizes = [{"place": 1, "description": "Schinken"}]
    t.save(update_fields=["prizes"])
    state = load_state(t)
    pages = screen_pages(state, overall_prizes(state))
    assert [len(p.rows) for p in pages] == [1, 5, 0]
    assert pages[0].large and [p.card.player.name for p in pages[-1].prizes] == [
        state.cards[state.prize_lines[0].card].player.name
    ]


@pytest.mark.parametrize("cards", [16, 128])
def test_the_room_screen_costs_the_same_few_queries_at_any_size(
    client, cards, django_assert_max_num_queries
):
    t = simulate(factories.club(), cards=cards, players=cards // 2 + 2, max_cards=2, seed=3)
    with django_assert_max_num_queries(12):
        response = client.get(screen(t))
    assert response.status_code == 200


def test_the_room_screen_carries_the_public_link_and_no_private_one(client):
    t = simulate(factories.club(), cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    html = client.get(screen(t)).content.decode()
    assert "<svg" in html
    for pairing in t.pairings.all():
        for token in (pairing.token, pairing.left_token, pairing.right_token):
            assert token not in html
    partial = client.get(screen(t), headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<main id="screen">')


def test_an_unknown_room_screen_is_not_found(client):
    assert client.get("/p/nothing/screen/").status_code == 404


def test_a_points_event_shows_its_round_then_its_standings_in_pages_of_16():
    from tournaments import formats
    from tournaments.screen import STANDING_PER_PAGE
    from tournaments.simulation import simulate_format

    t = simulate_format(factories.club(), "points", 30, 3, rounds=3, stop_after=1)
    state = load_state(t)
    pages = screen_pages(state, [])
    board = formats.board(state).lines
    standing = [p for p in pages if p.standing]
    assert [p.title for p in pages[: len(pages) - len(standing)]] == ["Runde 1"]
    assert [(p.title, p.part, p.parts) for p in standing] == [("Wertung", 1, 2), ("Wertung", 2, 2)]
    assert [len(p.standing) for p in standing] == [STANDING_PER_PAGE, 30 - STANDING_PER_PAGE]
    assert [line for p in standing for line in p.standing] == list(board)


def test_the_room_screen_of_a_points_event_reads_each_players_points(client):
    from tournaments import formats
    from tournaments.simulation import simulate_format

    t = simulate_format(factories.club(), "points", 8, 5, rounds=3, stop_after=1)
    html = client.get(screen(t)).content.decode()
    for line in formats.board(load_state(t)).lines:
        assert (
            f'<span class="name">{line.card.player.name}</span> <small>{line.points} Punkte' in html
        )
