"""The open-table page in Chromium: picking Bauernschnapsen shows seat 4 and selects its
rule set at once, and the table of four opens with the first submit."""

import pytest
from django.urls import reverse

from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_four_player_radio_shows_seat_4_and_the_bauern_rule_set(live_server, phone_context):
    club = factories.club(name="Vierer")
    factories.user(club, role="scorer", username="vera")
    factories.players(club, "Anna", "Ben", "Clara", "Dora")
    bauern = factories.presets()["bauern"]
    page = phone_context.new_page()
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("vera")
    page.locator("input[name=password]").fill("pw-vera")
    page.locator("main form button").click()
    page.goto(live_server.url + reverse("open_table", kwargs={"slug": club.slug}))
    assert page.locator("select[name=player_4]").count() == 0
    for seat, name in ((1, "Anna"), (2, "Ben"), (3, "Clara")):
        page.locator(f"select[name=player_{seat}]").select_option(label=name)
    page.locator("input[name=variant][value=bauernschnapsen]").check()
    seat_4 = page.locator("select[name=player_4]")
    seat_4.wait_for(state="visible")
    assert page.locator("select[name=rule_set]").input_value() == str(bauern.pk)
    assert page.locator("select[name=player_3] option:checked").inner_text() == "Clara"
    seat_4.select_option(label="Dora")
    page.get_by_role("button", name="Tisch eröffnen").click()
    page.wait_for_url("**/tables/*/")
    sheet = club.sheets.get()
    assert sheet.variant == "bauernschnapsen" and sheet.rule_set_id == bauern.pk
