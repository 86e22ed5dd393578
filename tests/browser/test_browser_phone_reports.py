"""A result reported on one player's phone and confirmed on the other's, in a real
Chromium on a 360×640 phone: both pages fit the screen's width."""

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from tests import factories
from tournaments.models import Result
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}


def test_one_phone_reports_the_other_confirms_on_a_small_phone(live_server, browser: Browser):
    factories.presets()
    t = simulate(factories.club(), cards=8, players=6, max_cards=2, seed=1, stop_after=1)
    t.result_check = "confirm"
    t.save(update_fields=["result_check"])
    state = load_state(t)
    pairing = next(
        p
        for p in state.pairings[state.current.pk]
        if p.kind == "match" and p.pk not in state.results
    )
    left, right = state.cards[pairing.left_id], state.cards[pairing.right_id]
    context = browser.new_context(viewport=PHONE, locale="de-AT")
    first, second = context.new_page(), context.new_page()
    first.goto(live_server.url + reverse("side_link", kwargs={"token": pairing.left_token}))
    second.goto(live_server.url + reverse("side_link", kwargs={"token": pairing.right_token}))
    first.locator('label:has(input[name=score][value="2:1"])').click()
    first.get_by_role("button", name=f"{left.player.name} gewinnt").click()
    expect(first.locator("#my-report")).to_contain_text("2:1")
    assert Result.objects.filter(pairing=pairing).count() == 0
    second.reload()
    confirm = second.get_by_role("button", name=f"Bestätigen: {left.player.name} gewinnt 2:1")
    expect(confirm).to_be_visible()
    confirm.click()
    expect(second.locator("#result-stands")).to_be_visible()
    result = Result.objects.get(pairing=pairing, voided_at=None)
    assert (result.winner_id, result.score) == (left.pk, "2:1")
    for page in (first, second):
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360
    assert right.player.name in second.content()
    context.close()
