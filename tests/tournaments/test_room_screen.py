"""The room screen (``tournaments.screen``): its pages, their order by name and the
letters they hold, their grid, the table numbers and results on it, its fixed number of
queries and that it carries the public link only."""

import re

import pytest
from django.urls import reverse

from tests import factories
from tournaments.categories import overall_prizes
from tournaments.models import Kind
from tournaments.screen import PER_PAGE, grid, screen_pages
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
    assert (pages[0].columns, pages[0].lines) == (1, 1)
    assert [p.card.player.name for p in pages[-1].prizes] == [
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


SURNAMES = [
    "Öhlinger", "Bauer", "Ärger", "Zach", "Huber", "Gruber", "Maier", "Wagner", "Pichler",
    "Steiner", "Moser", "Hofer", "Leitner", "Berger", "Fuchs", "Eder", "Fischer", "Schmid",
    "Winkler", "Weber", "Schwarz", "Reiter", "Koller", "Lang", "Auer", "Nagl",
]  # fmt: skip
"""26 surnames, one for each letter (Ä and Ö among them), for nights of up to 52 players:
"Öhlinger A" … "Nagl A", "Öhlinger B" … ."""


def named_night(cards=64, players=50, **options):
    names = [f"{SURNAMES[i % 26]} {chr(65 + i // 26)}" for i in range(players)]
    return simulate(
        factories.club(), cards=cards, players=players, max_cards=2, seed=3, names=names, **options
    )


def boxes(html: str) -> list[dict]:
    """The boxes of the screen's HTML in order: the names top to bottom, the table
    number (None: none shown), the match number shown instead, and the score."""
    out = []
    for box in re.findall(r'<li class="box[^"]*">(.*?)</li>', html, re.S):
        table = re.search(r'<span class="n table"><small>Tisch</small> <b>(\d+)</b>', box)
        number = re.search(r'<span class="n">(\w+)</span>', box)
        score = re.search(r'<span class="score">([^<]*)</span>', box)
        out.append(
            {
                "names": re.findall(r'<span class="name[^"]*">([^<]*)</span>', box),
                "table": int(table.group(1)) if table else None,
                "number": number.group(1) if number else None,
                "score": score.group(1) if score else None,
            }
        )
    return out


@pytest.mark.parametrize(
    ("count", "expected"),
    [(1, (1, 1)), (3, (1, 3)), (5, (1, 5)), (6, (2, 3)), (8, (2, 4)), (16, (2, 8)),
     (17, (3, 6)), (24, (3, 8))],
)  # fmt: skip
def test_a_page_lays_its_boxes_out_to_fill_the_screen(count, expected):
    assert grid(count) == expected


def test_the_current_round_is_listed_by_name_in_german_order_with_the_letters_of_each_page():
    t = named_night(stop_after=1)
    state = load_state(t)
    pages = screen_pages(state, [])
    assert [(len(p.rows), p.part, p.parts, p.letters) for p in pages] == [
        (24, 1, 2, "A–M"),
        (8, 2, 2, "N–Z"),
    ]
    tops = [row.left.player.name for p in pages for row in p.rows]
    # Ä sorts as A (before "Auer"), Ö as O (after "Nagl", before "Pichler").
    assert tops[:3] == ["Ärger A", "Ärger B", "Auer A"]
    assert tops[24:27] == ["Nagl A", "Öhlinger A", "Pichler B"]
    assert tops[-1] == "Zach A"
    # Each match once, under the first of its two players' names, shown on top.
    drawn = t.pairings.filter(round=state.current, voided_at__isnull=True)
    shown = {row.pairing.pk: row for p in pages for row in p.rows}
    assert sorted(shown) == sorted(drawn.values_list("pk", flat=True))
    for pairing in drawn:
        row = shown[pairing.pk]
        cards = {pairing.left_id, pairing.right_id} - {None}
        assert {row.left.pk, row.right.pk if row.right else None} - {None} == cards
        if row.right is not None:
            assert row.left.player.name_key <= row.right.player.name_key
    keys = [row.left.player.name_key for p in pages for row in p.rows]
    assert keys == sorted(keys)


def test_the_room_screen_says_which_names_each_page_holds(client):
    t = named_night(stop_after=1)
    html = client.get(screen(t)).content.decode()
    assert re.findall(r"<small>(\d/\d)</small> <span class=\"letters\">([^<]*)</span>", html) == [
        ("1/2", "Namen A–M"),
        ("2/2", "Namen N–Z"),
    ]
    assert [b["names"][0] for b in boxes(html)][:3] == ["Ärger A", "Ärger B", "Auer A"]


def test_a_round_on_one_page_and_the_placement_matches_keep_their_order_and_no_letters(client):
    t = named_night(cards=16, players=10)
    state = load_state(t)
    pages = screen_pages(state, [])
    final, placement = pages
    assert [row.pairing.pk for row in placement.rows] == [p.pk for p in state.placement]
    # The final: its one match, under the first of the two names; a single letter.
    first = min(final.rows[0].left.player.name_key, final.rows[0].right.player.name_key)
    assert [p.letters for p in pages] == [first[0].upper(), ""]
    assert "letters" not in client.get(screen(t)).content.decode()


def test_the_room_screen_shows_each_matchs_table_and_each_result(client):
    t = named_night(stop_after=1)
    t.tables = 5
    t.save(update_fields=["tables"])
    state = load_state(t)
    html = client.get(screen(t)).content.decode()
    shown = boxes(html)
    assert len(shown) == 32
    # RULES.md 5.3: the matches of the round by number, dealt out over the 5 tables.
    drawn = t.pairings.filter(round=state.current, voided_at__isnull=True).order_by("number")
    matches = [p for p in drawn if p.kind == Kind.MATCH]
    table = {p.pk: i % 5 + 1 for i, p in enumerate(matches)}
    by_names = {
        frozenset(n for n in (b["names"][0], b["names"][1]) if n != "Freilos"): b for b in shown
    }
    decided = 0
    for pairing in drawn:
        cards = [c for c in (pairing.left, pairing.right) if c is not None]
        box = by_names[frozenset(c.player.name for c in cards)]
        assert box["table"] == table.get(pairing.pk)
        if pairing.kind != Kind.MATCH:
            assert box["number"] == str(pairing.number)
        result = state.results.get(pairing.pk)
        assert box["score"] == (result.score if result else None)
        decided += result is not None
    assert decided == len(matches) - 3  # the simulation leaves three matches open
