"""An announced night from a player's phone to his first match, in a real Chromium
(issue 28): Rosa registers on the night's public page, the organiser finds her by the
transfer reference on his phone and confirms her, checks her in at the door, draws
round 1 and enters her match; her private link then shows her card and where she plays.
The mails she gets along the way are the real ones, in Django's in-memory outbox.

Selectors never depend on the UI language where a field or a form's address serves;
the texts asserted are the German ones the rule asks for.
"""

import datetime
import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import Browser, expect

from tests import factories
from tournaments.services import signup
from tournaments.services.cards import sell_cards
from tournaments.services.sheets import Actor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROSA = "Rosa Steiner"
AT_THE_DOOR = ["Anna", "Ben", "Clara", "Dora", "Emil", "Franz", "Gerti"]
ACCOUNT = "Schnapsclub Ottakring, AT61 1904 3002 3457 3201"


def subjects() -> list[str]:
    return [m.subject.split(":")[0] for m in mail.outbox if m.to == ["rosa@example.org"]]


def test_a_player_registers_on_his_phone_is_confirmed_checked_in_and_plays(
    live_server, browser: Browser, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = live_server.url
    settings.TASKS_SYNC = True
    call_command("seed", no_demo=True)
    club = factories.club(name="Schnapsclub Ottakring")
    organiser = factories.user(club, role="organiser")
    now = timezone.now()
    night = factories.tournament(
        club,
        cards=8,
        max_cards=2,
        name="Krampus-Preisschnapsen",
        entry_fee=10,
        starts_at=now + datetime.timedelta(hours=2),
        venue="Gasthaus Zur Post",
    )
    hour = datetime.timedelta(hours=1)
    signup.set_registration(night, Actor(), opens=now - hour, closes=now + hour, public=True)
    signup.set_registration_terms(
        night, Actor(), confirm=True, transfer_to=ACCOUNT, checkin_closes=None
    )
    for name in AT_THE_DOOR:  # 7 of the 8 cards sold already: one is left for Rosa
        sell_cards(night, name, 1, Actor(), paid=True)

    # --- Rosa's phone: the night's public page, its form, her private link.
    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-AT")
    rosa = phone.new_page()
    rosa.goto(live_server.url + reverse("bracket", kwargs={"token": night.public_token}))
    expect(rosa.locator("#free-cards")).to_contain_text("1 Karte ist noch frei.")
    form = rosa.locator("form[action$='/register/']")
    form.locator("input[name=name]").fill(ROSA)
    form.locator("input[name=contact]").fill("rosa@example.org")
    form.locator("input[name=cards]").fill("1")
    form.locator("button.won").click()
    expect(rosa).to_have_url(re.compile(r"/p/r/[\w-]+/$"))
    link = rosa.url
    expect(rosa.locator("#status")).to_have_text("Angemeldet · wartet auf Bestätigung. 1 Karte")
    reference = rosa.locator("#reference").inner_text()
    assert re.fullmatch(r"BU-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", reference)
    expect(rosa.locator("#transfer")).to_contain_text(ACCOUNT)
    expect(rosa.locator("#transfer")).to_contain_text("€ 10,00")
    assert subjects() == ["Anmeldung erhalten"]

    # --- The organiser's phone: sign in, find Rosa by her reference, confirm her.
    desk = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-AT")
    page = desk.new_page()
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill(organiser.username)
    page.locator("input[name=password]").fill("pw-" + organiser.username)
    page.locator("main form button").click()
    expect(page).to_have_url(live_server.url + reverse("club", args=[club.slug]))
    listing = reverse("registrations", kwargs={"slug": club.slug, "tournament_id": night.pk})
    page.goto(live_server.url + listing)
    page.locator("input[name=q]").fill(reference.lower().replace("-", ""))
    page.locator("form.search button").click()
    rows = page.locator("#registrations tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(ROSA)
    expect(rows.first.locator(".unconfirmed")).to_have_text("wartet auf Bestätigung")
    rows.first.locator("form[action$='/confirm/'] button").click()
    row = page.locator("#registrations tbody tr").filter(has_text=ROSA)
    expect(row.locator(".unconfirmed")).to_have_count(0)
    assert subjects() == ["Anmeldung erhalten", "Anmeldung bestätigt"]
    rosa.reload()
    expect(rosa.locator("#status")).to_have_text("Angemeldet. 1 Karte")

    # --- At the door: one tap checks her in and sells her the last card, number 8.
    row.locator("form[action$='/check-in/'] button").click()
    expect(page.locator(".messages .banner.success")).to_contain_text(
        f"{ROSA} eingecheckt: Karte 8"
    )

    # --- Round 1 drawn on the desk.
    page.goto(live_server.url + reverse("tournament", args=[club.slug, night.pk]))
    page.locator("button[name=mode][value=digital]").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+/rounds/1/$"))
    expect(page.locator("main ol.pairings").first.locator("li.pairing.match")).to_have_count(4)

    # --- Her link shows her card and leads to where she plays; the mail said so too.
    rosa.goto(link)
    expect(rosa.locator("#status")).to_have_text("Eingecheckt. 1 Karte")
    expect(rosa.locator("#cards")).to_contain_text("Deine Karte: 8.")
    rosa.locator("#cards a").click()
    expect(rosa).to_have_url(re.compile(r"/seats/\?q=Rosa(\+|%20)Steiner$"))
    expect(rosa.locator("main tbody tr")).to_have_count(1)  # her own match, found by name
    expect(rosa.locator("main tbody tr")).to_contain_text(f"{ROSA} #8")

    # --- She plays: her match entered on the round's page, she wins 2:1.
    match = page.locator("li.result-form > form").filter(
        has=page.locator("button[name=winner]", has_text=ROSA)
    )
    expect(match).to_have_count(1)
    pairing = re.search(r"/pairings/(\d+)/result/", match.get_attribute("action")).group(1)
    match.locator('label:has(input[name=score][value="2:1"])').click()
    match.locator("button[name=winner]", has_text=ROSA).click()
    expect(page.locator(f"li#p{pairing}.decided .score")).to_have_text(f"{ROSA} 2:1")
    assert subjects() == ["Anmeldung erhalten", "Anmeldung bestätigt", "Der Abend beginnt"]
    tables = [m for m in mail.outbox if m.subject.startswith("Der Abend beginnt")]
    assert "Deine Karte 8 spielt" in tables[0].body
    phone.close()
    desk.close()
