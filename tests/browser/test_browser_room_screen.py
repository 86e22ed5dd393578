"""The room screen at 1920×1080 in a real Chromium: at 64 and 128 cards every page of
the current round, the placement matches and the prizes fit the screen (every name's
and every match's box inside the viewport, nothing to scroll) and no name is below
40 px; the boxes of a small round fill the screen, with their table numbers, and a
result shows when the page polls."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser

from tests import factories
from tournaments.simulation import simulate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREEN = {"width": 1920, "height": 1080}
LONG = "Maximilian-Alexander Österreicher-Hohenberg"


def check_every_page(page) -> int:
    pages = page.evaluate("roomScreen.pages()")
    for i in range(pages):
        page.evaluate(f"roomScreen.show({i})")
        boxes = page.evaluate(
            """() => [...document.querySelectorAll('.screen-page:not([hidden]) .name')]
                .map(e => { const r = e.getBoundingClientRect();
                  return [r.left, r.top, r.right, r.bottom,
                          parseFloat(getComputedStyle(e).fontSize)]; })"""
        )
        assert boxes, f"page {i} shows no name"
        for left, top, right, bottom, size in boxes:
            assert size >= 40
            assert left >= 0 and right <= 1920 and top >= 0 and bottom <= 1080, (i, top, bottom)
        matches = page.evaluate(
            """() => [...document.querySelectorAll('.screen-page:not([hidden]) .box')]
                .map(e => { const r = e.getBoundingClientRect();
                  return [r.left, r.top, r.right, r.bottom]; })"""
        )
        for left, top, right, bottom in matches:
            assert left >= 0 and right <= 1920 and top >= 0 and bottom <= 1080, (i, top, bottom)
        scroll = page.evaluate(
            "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
        )
        assert scroll[0] <= 1080 and scroll[1] <= 1920
    return pages


@pytest.mark.parametrize(
    ("cards", "players", "stop_after", "pages"), [(64, 50, 1, 2), (128, 100, 1, 3)]
)
def test_the_room_screen_shows_every_name_on_screen_at_40_px(
    live_server, browser: Browser, cards, players, stop_after, pages
):
    club = factories.club()
    names = [f"{LONG} {n}" for n in range(players)]
    t = simulate(
        club, cards=cards, players=players, max_cards=2, seed=3, names=names, stop_after=stop_after
    )
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    assert check_every_page(page) == pages
    assert page.locator(".room-qr svg").count() == 1
    context.close()


def test_a_finished_night_shows_the_final_placement_matches_and_prizes_on_screen(
    live_server, browser: Browser
):
    club = factories.club()
    t = simulate(
        club, cards=128, players=100, max_cards=2, seed=5, names=[f"{LONG} {n}" for n in range(100)]
    )
    t.prizes = [{"place": p, "description": f"Preis {p}"} for p in range(1, 9)]
    t.save(update_fields=["prizes"])
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    # The final, the placement matches, the prizes.
    assert check_every_page(page) == 3
    context.close()


def test_the_pages_take_turns_by_themselves(live_server, browser: Browser):
    club = factories.club()
    t = simulate(club, cards=128, players=100, max_cards=2, seed=3, stop_after=1)
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    url = live_server.url + reverse("room_screen", kwargs={"token": t.public_token})
    page.goto(url)
    first = page.locator(".screen-page:not([hidden]) h1").inner_text()
    page.wait_for_timeout(12500)
    assert page.locator(".screen-page:not([hidden]) h1").inner_text() != first
    context.close()


def test_the_commitment_of_the_next_draw_stays_clear_of_the_names(live_server, browser: Browser):
    """RULES.md 5.12: before round 2 is drawn the screen shows its commitment, small, in
    the header's row; every name stays at 40 px inside the screen and none is covered."""
    import random

    from tournaments.simulation import play_open_matches

    club = factories.club()
    names = [f"{LONG} {n}" for n in range(50)]
    t = simulate(club, cards=64, players=50, max_cards=2, seed=3, names=names, stop_after=1)
    play_open_matches(t, random.Random(1))
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    check_every_page(page)
    hash_box = page.locator("#commitment .hash").bounding_box()
    assert len(page.locator("#commitment .hash").inner_text()) == 64
    assert hash_box["x"] >= 0 and hash_box["x"] + hash_box["width"] <= 1920
    assert hash_box["y"] + hash_box["height"] <= 1080 / 26.5 * 1.3  # within the header row
    overlaps = page.evaluate(
        """() => { const c = document.querySelector('#commitment').getBoundingClientRect();
            return [...document.querySelectorAll('.screen-page:not([hidden]) .name, .room-qr, .screen-page:not([hidden]) h1, .room-name')]
              .filter(e => { const r = e.getBoundingClientRect();
                return r.width && r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom; })
              .map(e => e.className); }"""
    )
    assert overlaps == []
    context.close()


def test_a_points_event_shows_its_standings_on_screen_at_40_px(live_server, browser: Browser):
    """RULES.md 6: the standings live on the room screen, 16 lines a page in two columns,
    long names cut inside their column; every name inside the screen at 40 px or more."""
    from clubs.models import Player
    from tournaments.simulation import simulate_format

    club = factories.club()
    t = simulate_format(club, "points", 40, 7, rounds=3, stop_after=2)
    for n, player in enumerate(Player.objects.filter(club=club).order_by("pk")):
        player.name = f"{LONG} {n}"
        player.save(update_fields=["name"])
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    # Round 2 (20 matches), then the standings of 40 players on three pages.
    assert check_every_page(page) == 4
    context.close()


def test_the_eight_matches_of_a_round_fill_the_screen_with_their_tables(
    live_server, browser: Browser
):
    """The round of 16 (8 matches): two columns of four boxes across the whole screen
    and down to its foot, the names larger than on a full page, each box with its
    table."""
    club = factories.club()
    names = [f"{LONG} {n}" for n in range(50)]
    t = simulate(club, cards=64, players=50, max_cards=2, seed=3, names=names, stop_after=3)
    t.tables = 8
    t.save(update_fields=["tables"])
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    assert page.locator(".screen-page:not([hidden]) h1").inner_text() == "Achtelfinale"
    assert check_every_page(page) == 1
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.screen-page:not([hidden]) .box')]
            .map(e => { const r = e.getBoundingClientRect();
              return [r.left, r.top, r.right, r.bottom]; })"""
    )
    assert len(boxes) == 8
    assert len({round(left) for left, *_ in boxes}) == 2  # two columns
    left = min(b[0] for b in boxes)
    right = max(b[2] for b in boxes)
    top = min(b[1] for b in boxes)
    bottom = max(b[3] for b in boxes)
    assert right - left >= 0.9 * 1920
    assert top <= 0.15 * 1080 and bottom >= 0.95 * 1080
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('.screen-page:not([hidden]) .name')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))"""
    )
    assert min(sizes) >= 60
    tables = page.locator(".screen-page:not([hidden]) .n.table b").all_inner_texts()
    assert sorted(tables) == [str(n) for n in range(1, 9)]
    table_sizes = page.evaluate(
        """() => [...document.querySelectorAll('.screen-page:not([hidden]) .n.table b')]
            .map(e => parseFloat(getComputedStyle(e).fontSize))"""
    )
    assert min(table_sizes) >= 40
    context.close()


def test_a_result_shows_on_the_screen_when_it_polls(live_server, browser: Browser):
    import uuid

    from playwright.sync_api import expect

    from tournaments.services.reading import load_state
    from tournaments.services.results import record_result
    from tournaments.services.sheets import Actor

    club = factories.club()
    t = simulate(club, cards=64, players=50, max_cards=2, seed=3, stop_after=3)
    context = browser.new_context(viewport=SCREEN, locale="de-AT")
    page = context.new_page()
    page.goto(live_server.url + reverse("room_screen", kwargs={"token": t.public_token}))
    state = load_state(t)
    pairing = next(p for p in state.pairings[state.current.pk] if not state.matches[p.pk].decided)
    winner = state.cards[pairing.right_id]
    box = page.locator(".box", has_text=winner.player.name).filter(
        has_text=state.cards[pairing.left_id].player.name
    )
    expect(box.locator(".score")).to_have_count(0)
    pairing.tournament = t
    record_result(pairing, winner.pk, "2:1", uuid.uuid4(), Actor())
    page.evaluate("roomScreen.poll()")
    expect(box.locator(".score")).to_have_text("2:1")
    expect(box.locator(".name.win")).to_have_text(winner.player.name)
    context.close()
