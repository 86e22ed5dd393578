"""The race between the desk and a phone, as the phone shows it (issue section 3): a
360 x 640 phone on a match link taps a result after the desk entered another one; it
sees the stored result, who entered it and when, in the viewport, and nothing asks it
to correct (which it cannot)."""

import uuid

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Page, expect

from scoring.services import Actor
from tests import factories
from tournaments.models import Pairing, Result
from tournaments.services.cards import create_tournament, sell_cards
from tournaments.services.draws import draw_round
from tournaments.services.results import record_result

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ACTOR = Actor()


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 640}, "locale": "de-AT"}


def test_the_phone_that_loses_the_race_sees_the_stored_result_in_the_viewport(
    live_server, page: Page
):
    club = factories.club()
    t = create_tournament(
        club,
        ACTOR,
        name="Herbstschnapsen",
        starts_at=timezone.now(),
        cards=8,
        max_cards=1,
        match_bummerl=2,
        entry_fee=10,
        one_prize_per_player=False,
        prizes=[],
    )
    for i in range(8):
        sell_cards(t, f"Spieler {i}", 1, ACTOR, uuid.uuid4(), paid=True)
    draw_round(t, ACTOR, seed=1)
    pairing = Pairing.objects.filter(tournament=t, kind="match").order_by("number").first()
    pairing.tournament = t
    left = pairing.left.player.name
    page.goto(live_server.url + reverse("match_link", kwargs={"token": pairing.token}))
    organiser = factories.user(club, role="organiser", username="kassa")
    desk = record_result(
        pairing,
        pairing.left_id,
        "2:0",
        uuid.uuid4(),
        Actor(organiser, organiser=True),
        seen=None,
    )
    time = timezone.localtime(desk.recorded_at).strftime("%H:%M")
    page.locator('label:has(input[name=score][value="2:1"])').click()
    page.locator(f'button[name=winner][value="{pairing.right_id}"]').click()
    refusal = page.locator("main .banner.error")
    expect(refusal).to_have_text(f"Inzwischen hat kassa um {time} {left} 2:0 eingetragen.")
    expect(refusal).to_be_in_viewport()
    stands = page.locator("#result-stands")
    expect(stands).to_have_text(
        f"Das Ergebnis steht: {left} 2:0, eingetragen von kassa um {time}; "
        "nur die Turnierleitung kann es ändern."
    )
    expect(stands).to_be_in_viewport()
    expect(page.locator("button[name=winner]")).to_have_count(0)
    expect(page.get_by_text("korrigieren")).to_have_count(0)
    assert list(Result.objects.filter(pairing=pairing).values_list("score", flat=True)) == ["2:0"]
