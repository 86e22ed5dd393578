"""A whole Dreierschnapsen evening on a phone, in a real Chromium (RULES.md section 3).

The scorer signs in as the demo user, opens a table with three demo players and
records three games to 24 by tapping the entry form: a Spritzen deal, a redeal, a
Schneider and a correction. Every expected number is worked out by hand from
RULES.md 3.2 / 3.3 in the comments; nothing is computed by the site's own code.

Selectors never depend on the UI language: radios are tapped through the <label>
that wraps them, buttons by name/value, numbers read by table structure.

Seats (clockwise, the order the players are chosen): Anna 0, Ben 1, Clara 2.
Seat 0 deals first; the Rufer is the seat left of the dealer, (dealer + 1) % 3;
after each deal the Rufer deals next, after a redeal the same dealer deals again.
"""

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import Page, expect

from scoring.models import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANNA, BEN, CLARA = 0, 1, 2
NAMES = ("Anna Österreicher", "Ben Müller", "Clara Weiß")
CLUB = "gruener-baum"


def tap(page: Page, name: str, value) -> None:
    """Tap the button-styled radio ``name`` = ``value`` (its wrapping label); a
    contract behind "more contracts" after opening that first."""
    label = page.locator(f'label:has(input[name={name}][value="{value}"])')
    if label.evaluate("el => !!el.closest('details:not([open])')"):
        page.locator("details.more > summary").click()
    label.click()


def bummerl(n: int) -> re.Pattern:
    """A tally cell that shows the number ``n`` and no other number ("2 Bummerl")."""
    return re.compile(rf"^\D*\b{n}\b\D*$")


class Sheet:
    """The score sheet page as the scorer sees it, with the counts it must show."""

    def __init__(self, page: Page):
        self.page = page
        self.live = 0  # live deals recorded, redeals included
        self.per_game = [0]  # live deals per game, the last one still open
        self.games = 0  # finished games (li.game-end, one line each also when folded away)

    def expect_rufer(self, rufer: int, dealer: int) -> None:
        heads = self.page.locator("table.score thead th")
        expect(heads.locator(".badge.rufer")).to_have_count(1)
        expect(heads.nth(rufer).locator(".badge.rufer")).to_have_count(1)
        expect(heads.nth(dealer).locator(".badge:not(.rufer)")).to_have_count(1)
        expect(heads.locator(".badge:not(.rufer)")).to_have_count(1)
        # The declarer radio defaults to the Rufer.
        expect(self.page.locator(f'input[name=declarer][value="{rufer}"]')).to_be_checked()
        expect(self.page.locator('input[name=contract][value="normal"]')).to_be_checked()
        expect(self.page.locator('input[name=spritzen][value="0"]')).to_be_checked()
        expect(self.page.locator("input[name=normal_points]:checked")).to_have_count(0)

    def deal(
        self,
        *,
        dealer: int,
        rufer: int,
        won: bool,
        declarer: int | None = None,
        contract: str | None = None,
        points: int | None = None,
        spritzen: int | None = None,
        ends_game: bool = False,
    ) -> None:
        """Record one deal with the fewest taps: only what differs from the defaults
        (declarer = Rufer, contract = normal game, Spritzen none). ``ends_game``: the
        deal ends the game, after which the sheet lists the new game and this one."""
        self.expect_rufer(rufer, dealer)
        if declarer is not None and declarer != rufer:
            tap(self.page, "declarer", declarer)
        if contract is not None:
            tap(self.page, "contract", contract)
        if points is not None:
            tap(self.page, "normal_points", points)
        if spritzen is not None:
            tap(self.page, "spritzen", spritzen)
        self.page.locator(f'form.deal-form button[name=won][value="{1 if won else 0}"]').click()
        self.live += 1
        self.per_game[-1] += 1
        if ends_game:
            self.per_game.append(0)
        self.expect_swapped()

    def redeal(self, *, dealer: int, rufer: int) -> None:
        self.expect_rufer(rufer, dealer)
        self.page.locator("#sheet .redeal-button").click()
        self.live += 1
        self.per_game[-1] += 1
        self.expect_swapped()

    def expect_swapped(self) -> None:
        """The htmx swap of #sheet has happened: the new deal row is there, no error."""
        expect(self.page.locator("#sheet ol.deals li.deal")).to_have_count(self.shown)
        expect(self.page.locator("#sheet .banner.error")).to_have_count(0)
        expect(self.page.locator("#sheet .field-error")).to_have_count(0)
        expect(self.page.locator("#offline")).to_be_hidden()

    def expect_points(self, number: int, text: str) -> None:
        """The points column of live deal ``number`` (e.g. "+18 / +18 / ·")."""
        row = self.page.locator("ol.deals li.deal").filter(
            has=self.page.locator(".n", has_text=re.compile(rf"^{number}$"))
        )
        expect(row.locator(".pts")).to_have_text(text)

    def expect_totals(self, *totals: int) -> None:
        expect(self.page.locator("table.score .totals td")).to_have_text([str(t) for t in totals])

    def expect_tally(self, *tally: int) -> None:
        expect(self.page.locator("table.score .tally td")).to_have_text([bummerl(n) for n in tally])

    @property
    def shown(self) -> int:
        """Deal rows the sheet lists: those of the open game and of the game before it
        (earlier games are one line each)."""
        return sum(self.per_game[-2:])

    def expect_game_over(self, loser: int) -> None:
        self.games += 1
        ends = self.page.locator("ol.deals li.game-end")
        expect(ends).to_have_count(self.games)
        expect(ends.first).to_contain_text(NAMES[loser])  # newest first
        for other in set(range(3)) - {loser}:
            expect(ends.first).not_to_contain_text(NAMES[other])


def test_dreierschnapsen_evening_on_a_phone(live_server, page: Page):
    call_command("seed", stdout=io.StringIO())
    wiki = RuleSet.objects.get(club__isnull=True, preset="wiki")
    assert page.viewport_size == {"width": 390, "height": 844}

    # --- Sign in as demo; one club, so home leads straight to it.
    page.goto(live_server.url + "/")
    page.locator(f'main a[href="{reverse("login")}"]').click()
    page.locator("input[name=username]").fill("demo")
    page.locator("input[name=password]").fill("schnapsen-demo")
    page.locator("main form button").click()
    expect(page).to_have_url(live_server.url + reverse("club", args=[CLUB]))

    # --- Open a Dreierschnapsen table: Anna, Ben, Clara; the wiki rule set is preset.
    page.locator(f'main a[href="{reverse("open_table", args=[CLUB])}"]').click()
    tap(page, "variant", "dreierschnapsen")
    for seat, name in enumerate(NAMES, start=1):
        page.locator(f"select[name=player_{seat}]").select_option(label=name)
    expect(page.locator("select[name=rule_set]")).to_have_value(str(wiki.pk))
    page.locator("main form button.won").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("table.score thead th")).to_contain_text(list(NAMES))

    sheet = Sheet(page)
    sheet.expect_totals(0, 0, 0)
    sheet.expect_tally(0, 0, 0)

    # ===== Game 1 =====
    # Deal 1: Anna deals, Ben is Rufer. Ben's normal game, won, 3 points
    # (the opponents took no trick): Ben +3. Totals 0/3/0.
    sheet.deal(dealer=ANNA, rufer=BEN, points=3, won=True)
    sheet.expect_points(1, "· / +3 / ·")
    sheet.expect_totals(0, 3, 0)

    # Deal 2: Ben deals, Clara is Rufer. Clara plays Gang (base 9, anyone), gespritzt
    # (k=1: 9 x 2 = 18) and loses: each opponent scores 18. Totals 18/21/0.
    sheet.deal(dealer=BEN, rufer=CLARA, contract="gang", spritzen=1, won=False)
    sheet.expect_points(2, "+18 / +18 / ·")
    sheet.expect_totals(18, 21, 0)

    # Deal 3: Clara deals, Anna is Rufer. Clara (not the Rufer) plays Kontraschnapser
    # (base 12, non-Rufer only) and wins: Clara +12. Totals 18/21/12.
    sheet.deal(dealer=CLARA, rufer=ANNA, declarer=CLARA, contract="kontraschnapser", won=True)
    sheet.expect_points(3, "· / · / +12")
    sheet.expect_totals(18, 21, 12)

    # Deal 4: Anna deals, Ben is Rufer. Ben's normal game, won, 3: Ben 21 + 3 = 24.
    # 24 reached: game over at 18/24/12. Fewest points: Clara (12 > 0, no Schneider)
    # gets 1 Bummerl. Tally 0/0/1; the new game starts at 0/0/0.
    sheet.deal(dealer=ANNA, rufer=BEN, points=3, won=True, ends_game=True)
    sheet.expect_points(4, "· / +3 / ·")
    sheet.expect_game_over(loser=CLARA)
    sheet.expect_totals(0, 0, 0)
    sheet.expect_tally(0, 0, 1)

    # ===== Game 2 =====
    # Deal 5: Ben deals, Clara is Rufer: three Unter, redealt. No points; Ben deals again.
    sheet.redeal(dealer=BEN, rufer=CLARA)
    sheet.expect_points(5, "· / · / ·")
    sheet.expect_totals(0, 0, 0)

    # Deal 6: Ben deals again, Clara is still Rufer. Clara's Schnapser (base 6,
    # Rufer only), won: Clara +6. Totals 0/0/6.
    sheet.deal(dealer=BEN, rufer=CLARA, contract="schnapser", won=True)
    sheet.expect_points(6, "· / · / +6")
    sheet.expect_totals(0, 0, 6)

    # Deal 7: Clara deals, Anna is Rufer. Ben (not the Rufer) plays
    # Kontrabauernschnapser (base 24, non-Rufer only) and loses: Anna +24, Clara +24.
    # Game over at 24/0/30. Fewest: Ben with 0 points = Schneider: 2 Bummerl.
    # Tally 0/2/1.
    sheet.deal(
        dealer=CLARA,
        rufer=ANNA,
        declarer=BEN,
        contract="kontrabauernschnapser",
        won=False,
        ends_game=True,
    )
    sheet.expect_points(7, "+24 / · / +24")
    sheet.expect_game_over(loser=BEN)
    sheet.expect_totals(0, 0, 0)
    sheet.expect_tally(0, 2, 1)

    # ===== Game 3 =====
    # Deal 8: Anna deals, Ben is Rufer. Ben's normal game, lost, 1 point
    # (the two made 33 or more Augen): Anna +1, Clara +1. Totals 1/0/1.
    sheet.deal(dealer=ANNA, rufer=BEN, points=1, won=False)
    sheet.expect_points(8, "+1 / · / +1")
    sheet.expect_totals(1, 0, 1)

    # Deal 9: Ben deals, Clara is Rufer. Anna plays Bettler (base 4, anyone), won:
    # Anna +4. Totals 5/0/1.
    sheet.deal(dealer=BEN, rufer=CLARA, declarer=ANNA, contract="bettler", won=True)
    sheet.expect_points(9, "+4 / · / ·")
    sheet.expect_totals(5, 0, 1)

    # Correction of deal 9: it was an Assenbettler (base 5), and Anna lost it:
    # Ben +5, Clara +5 instead of Anna +4. Totals 1/5/6.
    # The form comes filled in with the old entry (declarer Anna, Bettler, won).
    deal_9 = page.locator("ol.deals li.deal").filter(
        has=page.locator(".n", has_text=re.compile(r"^9$"))
    )
    deal_9.locator(".fix a").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/deals/\d+/correct/$"))
    expect(page.locator(f'input[name=declarer][value="{ANNA}"]')).to_be_checked()
    expect(page.locator('input[name=contract][value="bettler"]')).to_be_checked()
    tap(page, "contract", "assenbettler")
    page.locator('form.deal-form button[name=won][value="0"]').click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    voided = page.locator("ol.deals li.voided")
    expect(voided).to_have_count(1)
    expect(voided.locator("s")).to_contain_text("Bettler")
    expect(voided.locator("s")).to_contain_text(NAMES[ANNA])
    expect(voided.locator("s")).not_to_contain_text("Assenbettler")
    expect(page.locator("ol.deals li.deal")).to_have_count(sheet.shown)  # replaced, not added
    sheet.expect_points(9, "· / +5 / +5")
    sheet.expect_totals(1, 5, 6)
    sheet.expect_tally(0, 2, 1)

    # Deal 10: Clara deals, Anna is Rufer. Anna's normal game, won, 2 points
    # (the two had fewer than 33 Augen): Anna +2. Totals 3/5/6.
    sheet.deal(dealer=CLARA, rufer=ANNA, points=2, won=True)
    sheet.expect_points(10, "+2 / · / ·")
    sheet.expect_totals(3, 5, 6)

    # Deal 11: Anna deals, Ben is Rufer. Clara plays Zehnergang (base 10, anyone),
    # gespritzt and zurückgespritzt (k=2: 10 x 4 = 40) and wins: Clara +40 = 46.
    # Game over at 3/5/46. Fewest: Anna with 3 (not 0): 1 Bummerl. Tally 1/2/1.
    sheet.deal(
        dealer=ANNA,
        rufer=BEN,
        declarer=CLARA,
        contract="zehnergang",
        spritzen=2,
        won=True,
        ends_game=True,
    )
    sheet.expect_points(11, "· / · / +40")
    sheet.expect_game_over(loser=ANNA)
    sheet.expect_totals(0, 0, 0)
    sheet.expect_tally(1, 2, 1)

    # The next deal: Ben deals, Clara is Rufer. The evening survives a reload.
    page.reload()
    sheet.expect_rufer(CLARA, BEN)
    sheet.expect_totals(0, 0, 0)
    sheet.expect_tally(1, 2, 1)
    expect(page.locator("ol.deals li.deal")).to_have_count(sheet.shown)  # game 3's four
    assert sheet.live == 11 and sheet.shown == 4
    expect(page.locator("ol.deals li.game-end")).to_have_count(3)
    expect(page.locator("ol.deals li.voided")).to_have_count(1)
