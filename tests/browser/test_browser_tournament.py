"""A whole 16-card Preisschnapsen night in a real Chromium, by taps (RULES.md section 5).

An organiser signs in on a phone, creates the tournament on the club's Preisschnapsen
page, sells 12 cards to 10 players at the desk (Anna holds three), draws round 1
digitally (8 pairings, 16 - 12 = 4 byes), enters every result with the quick form, draws
the quarter-final, the semi-final and the final, enters the placement matches and the
final in mixed order, and checks the prize list on the desk against the results it
entered. The room's live bracket is then opened in a fresh browser context (no sign-in).

Selectors never depend on the UI language: fields and buttons by name/value, pairings
by their ids and classes, numbers read by structure; player names are data.
"""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Browser, Locator, Page, expect

from tests import factories

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANNA = "Anna Österreicher"
SALES = [  # (name, cards, paid): 12 cards, 10 players, one card not paid yet
    (ANNA, 3, True),
    ("Ben Müller", 1, True),
    ("Clara Weiß", 1, True),
    ("Dora Huber", 1, True),
    ("Emil Gruber", 1, True),
    ("Franz Bauer", 1, True),
    ("Gerti Wagner", 1, True),
    ("Hans Pichler", 1, False),
    ("Ida Moser", 1, True),
    ("Jörg Steiner", 1, True),
]
NAMES = [name for name, _, _ in SALES]
CARDS, SOLD, FEE = 16, 12, 10
POTS = [8, 4, 2, 1]  # round 1 to the final: pairings per round
PLACES = {  # RULES.md 5.5, by the placement match's name
    "final": (1, 2),
    "Spiel um Platz 3": (3, 4),
    "Spiel um Platz 5": (5, 6),
    "Spiel um Platz 7": (7, 8),
}
FIVE_TO_EIGHT = "Spiel um Platz 5–8"


def name_in(text: str) -> str:
    """The one player name that ``text`` shows."""
    found = [n for n in NAMES if n in text]
    assert len(found) == 1, text
    return found[0]


def numbers(text: str) -> list[str]:
    return [n.replace(",", ".") for n in re.findall(r"\d+(?:[.,]\d+)?", text)]


def walkovers(pairings: Locator) -> list[Locator]:
    return [p for p in pairings.all() if "walkover" in p.get_attribute("class").split()]


class Night:
    """The organiser's phone during the night, with the results it entered."""

    def __init__(self, page: Page, base: str):
        self.page = page
        self.base = base
        self.desk_url = ""
        self.decided: dict[str, tuple[str, str]] = {}  # pairing id -> (winner, loser)
        self.taps = 0
        self.through: set[str] | None = None  # in the semi-final: players already through
        self.anna_gives_up = 0  # Anna's next matches to lose

    def enter(self, form: Locator) -> None:
        """Enter the result of one open match. Anna wins when she plays, except her first
        quarter-final match (a card of hers goes to the matches for 5 to 8) and, in the
        semi-final, once one of her cards is through (so the final and the match for 3
        are real matches); otherwise left and right win in turn; 2:0 and 2:1 in turn."""
        pairing = re.search(r"/pairings/(\d+)/result/", form.get_attribute("action")).group(1)
        buttons = form.locator("button[name=winner]")
        expect(buttons).to_have_count(2)
        sides = [
            (buttons.nth(i).get_attribute("value"), name_in(buttons.nth(i).inner_text()))
            for i in range(2)
        ]
        assert sides[0][1] != sides[1][1], "a player plays himself in a match"
        assert sides[0][0] != sides[1][0]
        if ANNA in (sides[0][1], sides[1][1]):
            won = 0 if sides[0][1] == ANNA else 1
            if self.anna_gives_up or (self.through is not None and ANNA in self.through):
                won = 1 - won
                self.anna_gives_up = max(0, self.anna_gives_up - 1)
        else:
            won = self.taps % 2
        score = ("2:0", "2:1")[self.taps // 2 % 2]
        self.taps += 1
        form.locator(f'label:has(input[name=score][value="{score}"])').click()
        form.locator(f'button[name=winner][value="{sides[won][0]}"]').click()
        expect(self.page.locator(f"li#p{pairing}.decided")).to_have_count(1)
        # The score reads with the winner's name: "Anna 2:1".
        expect(self.page.locator(f"li#p{pairing} .score")).to_have_text(f"{sides[won][1]} {score}")
        expect(self.page.locator(f"li#p{pairing} .who > span.win")).to_contain_text(sides[won][1])
        expect(self.page.locator(".messages .banner.error")).to_have_count(0)
        self.decided[pairing] = (sides[won][1], sides[1 - won][1])
        if self.through is not None:
            self.through.add(sides[won][1])

    def open_forms(self, list_index: int) -> Locator:
        """Quick result forms of the open matches in the round page's ``list_index``-th
        list (0: the round, 1: placement); a decided match's form hides in <details>."""
        return (
            self.page.locator("main ol.pairings").nth(list_index).locator("li.result-form > form")
        )

    def to_desk(self, cards_in: int) -> None:
        """Back to the desk from a round page; ``cards_in`` cards are still in (✓)."""
        self.page.locator(f'header nav a[href="{self.desk_url}"]').click()
        expect(self.page).to_have_url(self.base + self.desk_url)
        expect(
            self.page.locator("table.list tbody td:last-child").filter(has_text="✓")
        ).to_have_count(cards_in)

    def draw(self, number: int) -> Locator:
        """Draw round ``number`` digitally on the desk; the round page's main pairings."""
        self.page.locator("button[name=mode][value=digital]").click()
        expect(self.page).to_have_url(re.compile(rf"/tournaments/\d+/rounds/{number}/$"))
        pairings = self.page.locator("main ol.pairings").first.locator("li.pairing")
        expect(pairings).to_have_count(POTS[number - 1])
        return pairings

    def outcome(self, pairing: Locator) -> tuple[str, str]:
        """(card kept, card given up) by player name: a decided match from the results
        entered, a walkover (one player meeting himself) from the page."""
        pk = pairing.get_attribute("id")[1:]
        classes = pairing.get_attribute("class").split()
        if "walkover" in classes:
            name = name_in(pairing.inner_text())
            return name, name
        assert "match" in classes and "decided" in classes, classes
        return self.decided[pk]


def test_preisschnapsen_night_on_a_phone(live_server, page: Page, browser: Browser):
    call_command("seed", no_demo=True)
    club = factories.club(name="Gasthaus Zum Grünen Baum")
    organiser = factories.user(club, role="organiser")
    night = Night(page, live_server.url)

    # --- Sign in; one club, so home leads straight to it; then its Preisschnapsen page.
    page.goto(live_server.url + "/")
    page.locator(f'main a[href="{reverse("login")}"]').click()
    page.locator("input[name=username]").fill(organiser.username)
    page.locator("input[name=password]").fill("pw-" + organiser.username)
    page.locator("main form button").click()
    expect(page).to_have_url(live_server.url + reverse("club", args=[club.slug]))
    page.locator(f'main a[href="{reverse("tournaments", args=[club.slug])}"]').click()
    expect(page).to_have_url(live_server.url + reverse("tournaments", args=[club.slug]))

    # --- Create the tournament: 16 cards, at most 3 a player, matches to 2 Bummerl.
    page.locator("main details > summary").click()
    form = page.locator("main details form")
    form.locator("input[name=name]").fill("Martini-Preisschnapsen")
    form.locator("input[name=day]").fill("2025-11-14")
    form.locator("input[name=time]").fill("19:00")
    form.locator("select[name=cards]").select_option(str(CARDS))
    form.locator("input[name=max_cards]").fill("3")
    form.locator("select[name=match_bummerl]").select_option("2")
    form.locator("input[name=entry_fee]").fill(str(FEE))
    expect(form.locator("input[name=one_prize_per_player]")).not_to_be_checked()
    form.locator("textarea[name=prizes]").fill(
        "\n".join(f"{place}: Preis {place}" for place in range(1, 9))
    )
    form.locator("button.won").click()
    expect(page).to_have_url(re.compile(rf"/c/{club.slug}/tournaments/\d+/$"))
    night.desk_url = page.url.removeprefix(live_server.url)

    # --- Card sales at the door: 12 cards to 10 players, Anna three of them.
    sold = 0
    sell = page.locator("main form.sell")
    for name, count, paid in SALES:
        sell.locator("input[name=name]").fill(name)
        sell.locator("input[name=count]").fill(str(count))
        sell.locator("input[name=paid]").set_checked(paid)
        sell.locator("button.won").click()
        sold += count
        expect(page.locator("h2#cards + table.list tbody tr")).to_have_count(sold)
        expect(page.locator(".messages .banner.success")).to_contain_text(name)
    assert sold == SOLD and CARDS // 2 < SOLD <= CARDS
    rows = page.locator("h2#cards + table.list tbody tr")
    expect(rows.filter(has_text=ANNA)).to_have_count(3)
    expect(rows.locator("td.num")).to_have_text([str(n) for n in range(1, SOLD + 1)])

    # Cash: 12 sold, 11 paid (€ 110.00), 1 open (€ 10.00); in the box € 110.00.
    cash = page.locator("h2#cash + p")
    expect(cash).to_have_text(re.compile(r"12\D+11\D+110[.,]00\D+1\D+10[.,]00"))
    assert numbers(cash.inner_text()) == ["12", "11", "110.00", "1", "10.00", "110.00"]

    # --- Round 1, drawn digitally: 8 pairings; the 16 - 12 = 4 right-pot leftovers are byes.
    pairings = night.draw(1)
    expect(pairings.and_(page.locator(".bye"))).to_have_count(CARDS - SOLD)

    for number in range(1, 5):
        if number > 1:
            night.to_desk(cards_in=2 * POTS[number - 1])
            expect(page.locator("form.sell")).to_have_count(0)  # no sales after round 1
            pairings = night.draw(number)
            expect(pairings.and_(page.locator(".bye"))).to_have_count(0)
        kinds = [p.get_attribute("class").split()[1] for p in pairings.all()]
        assert set(kinds) <= {"match", "bye", "walkover"}, kinds
        matches = kinds.count("match")
        expect(night.open_forms(0)).to_have_count(matches)
        if number == 2:
            night.anna_gives_up = 1
        if number == 3:  # a walkover sends its player through to the final
            night.through = {name_in(p.inner_text()) for p in walkovers(pairings)}
        if number < 4:
            # Every match of the round; placement matches wait for the final's page.
            while night.open_forms(0).count():
                night.enter(night.open_forms(0).first)
            expect(pairings.and_(page.locator(".match:not(.decided)"))).to_have_count(0)
            night.through, night.anna_gives_up = None, 0

    # --- The final's page: the final above, the placement matches below ("5-8" pairs
    # drawn from the quarter-final losers, "3" between the semi-final losers). Enter
    # them in mixed order: a placement match first, then the final, then the rest
    # (the matches for 5 and 7 appear once both "5-8" matches are decided).
    placement = page.locator("main ol.pairings").nth(1).locator("li.pairing")
    expect(placement).to_have_count(3)
    expect(placement.locator(".n")).to_have_text([FIVE_TO_EIGHT, FIVE_TO_EIGHT, "Spiel um Platz 3"])
    expect(night.open_forms(0)).to_have_count(1)  # the final: two players, a match
    if night.open_forms(1).count():
        night.enter(night.open_forms(1).first)
    night.enter(night.open_forms(0).first)
    while night.open_forms(1).count():
        night.enter(night.open_forms(1).last)
    expect(placement).to_have_count(5)
    expect(placement.locator(".n")).to_have_text(
        [FIVE_TO_EIGHT, FIVE_TO_EIGHT, "Spiel um Platz 3", "Spiel um Platz 5", "Spiel um Platz 7"]
    )
    expect(page.locator("main li.pairing.match:not(.decided)")).to_have_count(0)

    # Places from the results entered (a walkover keeps one of a player's own cards).
    places: dict[int, str] = {}
    final = page.locator("main ol.pairings").first.locator("li.pairing")
    for label, pairing in [("final", final.first)] + [
        (p.locator(".n").inner_text(), p) for p in placement.all()
    ]:
        if label in PLACES:
            first, second = PLACES[label]
            places[first], places[second] = night.outcome(pairing)
    assert sorted(places) == list(range(1, 9))
    anna_prizes = sum(1 for name in places.values() if name == ANNA)

    # --- The desk: eight prizes, places 1 to 8 in order, each with its player; Anna as
    # often as her cards reached prize places; no further round to draw.
    night.to_desk(cards_in=1)
    prizes = page.locator("main ol.prizes > li")
    expect(prizes).to_have_count(8)
    expect(prizes.locator("strong:not(.unpaid)")).to_have_text([f"{p}." for p in range(1, 9)])
    for place, name in places.items():
        expect(prizes.nth(place - 1)).to_contain_text(f"Preis {place}")
        expect(prizes.nth(place - 1)).to_contain_text(name)
    expect(prizes.filter(has_text=ANNA)).to_have_count(anna_prizes)
    expect(page.locator("button[name=mode]")).to_have_count(0)
    bracket_url = page.locator('main a.button[href^="/p/"]').get_attribute("href")
    assert bracket_url == reverse("bracket", args=[bracket_url.split("/")[2]])

    # --- The room's screen: the public bracket, no sign-in, on a laptop-sized page.
    screen = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-AT")
    try:
        room = screen.new_page()
        room.goto(live_server.url + bracket_url)
        expect(room).to_have_url(live_server.url + bracket_url)
        expect(room.locator("form[action$='/logout/']")).to_have_count(0)
        columns = room.locator("#live .bracket > section.column")
        expect(columns).to_have_count(5)  # rounds 1 to 4, then the placement matches
        for i, pot in enumerate(POTS):
            expect(columns.nth(i).locator("li.pairing")).to_have_count(pot)
        expect(columns.nth(0).locator("li.pairing.bye")).to_have_count(CARDS - SOLD)
        expect(columns.nth(4).locator("li.pairing")).to_have_count(5)
        expect(room.locator("#live li.pairing.match:not(.decided)")).to_have_count(0)
        expect(room.locator("li.result-form, button[name=winner]")).to_have_count(0)
        screen_prizes = room.locator("#live section.prizes ol > li")
        expect(screen_prizes).to_have_count(8)
        expect(screen_prizes.locator("strong")).to_have_text([f"{p}." for p in range(1, 9)])
        for place, name in places.items():
            expect(screen_prizes.nth(place - 1)).to_contain_text(name)
        expect(room.locator("#live section.still-in")).to_contain_text(places[1])
    finally:
        screen.close()
