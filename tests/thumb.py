"""Taps and scrolls of a Dreierschnapsen evening on a phone, measured in a real browser.

One measurement for the browser test (``tests/browser/test_browser_thumb.py``) and for
``make bench``: ``play_evening`` records 20 entries (and one undo) on a fresh
Dreierschnapsen sheet (``wiki`` rule set, seats Anna 0, Ben 1, Clara 2, Anna deals
first) through its entry link, and returns what each deal cost.

A *tap* is one click the scorer makes. A *scroll* is a change of ``window.scrollY``
needed to bring the next target into view: before every tap the target must lie
wholly inside the viewport and be the element hit at its centre (not under the
sticky Won/Lost bar); if it is not, it is scrolled into view and that counts as one
scroll. Taps are mouse clicks at the target's centre, so the browser never scrolls
on its own. A *jump* is a change of ``window.scrollY`` caused by saving.

Selectors do not depend on the UI language: radios are tapped through the visible
box of their label, buttons by name and value. Every expected number below is
worked out by hand from RULES.md 3.2 and 3.3.
"""

from dataclasses import dataclass

from tests.waiting import wait_until

ANNA, BEN, CLARA, DORA = 0, 1, 2, 3
NAMES = ("Anna", "Ben", "Clara")
NAMES_4 = ("Anna", "Ben", "Clara", "Dora")

KINDS = (
    ("normal", "normal game"),
    ("contract", "contract (2 by the Rufer, 3 by another)"),
    ("spritzen", "contract + Spritzen by a non-Rufer"),
    ("more", "contract from 'more contracts'"),
    ("redeal", "redeal"),
    ("tiebreak", "tie-break deal"),
    ("undo", "undo"),
)
"""Deal kinds in the order of the taps table: code, words."""

LIMITS = {
    "normal": (2, 2),
    "contract": (2, 3),
    "spritzen": (1, 4),
    "more": (1, 4),
    "redeal": (1, 1),
    "tiebreak": (1, 1),
    "undo": (1, 1),
}
"""Fewest and most taps each kind may take; no kind may take a scroll."""

VIEWPORTS = ((360, 640), (390, 844))


@dataclass
class Cost:
    kind: str
    label: str
    taps: int
    scrolls: int
    jumps: int


class Thumb:
    """Taps targets as a thumb would, counting taps and the scrolls they needed."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.scrolls = 0
        self.last_y = 0.0
        self.kind = ""

    def _place(self, locator) -> dict:
        return locator.evaluate(
            """el => {
                const r = el.getBoundingClientRect();
                const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
                const hit = document.elementFromPoint(x, y);
                return {x, y, shown: r.height > 0 && r.top >= 0 && r.left >= 0
                    && r.bottom <= innerHeight && r.right <= innerWidth
                    && hit !== null && (hit === el || el.contains(hit))};
            }"""
        )

    def tap(self, locator) -> None:
        locator.wait_for(state="visible")
        place = self._place(locator)
        if not place["shown"]:
            self.scrolls += 1
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")
            place = self._place(locator)
            assert place["shown"], "the target cannot be brought into view"
        self.page.mouse.click(place["x"], place["y"])
        self.taps += 1
        self.last_y = self.scroll_y()

    def scroll_y(self) -> float:
        return self.page.evaluate("window.scrollY")


def radio(page, name: str, value) -> object:
    """The visible box of the radio ``name`` = ``value`` (the span in its label)."""
    return page.locator(f'#sheet label:has(input[name={name}][value="{value}"]) > span')


class Evening:
    def __init__(self, page, url: str, names=NAMES):
        self.page = page
        self.url = url
        self.names = names
        self.costs: list[Cost] = []
        self.notes: list[str] = []

    def version(self) -> str:
        return self.page.locator("#sheet input[name=after]").first.get_attribute("value")

    def measure(self, kind: str, label: str, steps) -> None:
        """Run ``steps(thumb)``, whose last tap saves; wait for the new sheet."""
        page = self.page
        thumb = Thumb(page)
        thumb.kind = kind
        before = self.version()
        steps(thumb)
        wait_until(
            page,
            "v => { const i = document.querySelector('#sheet input[name=after]');"
            " return i && i.value !== v && !document.querySelector('.htmx-request'); }",
            arg=before,
        )
        assert page.locator("#sheet .banner.error, #sheet .field-error").count() == 0, page.locator(
            "#sheet"
        ).inner_text()[:600]
        jumps = int(thumb.scroll_y() != thumb.last_y)
        self.costs.append(Cost(thumb.kind, label, thumb.taps, thumb.scrolls, jumps))

    def deal(self, label, *, rufer, points=None, won=True, declarer=None, contract=None, sp=0):
        """One Dreierschnapsen deal with the fewest taps: only what differs from the
        form's defaults (declarer = Rufer, normal game, no Spritzen)."""
        page = self.page
        badge = page.locator("#sheet table.score thead th").nth(rufer).locator(".badge.rufer")
        assert badge.count() == 1, f"{label}: {self.names[rufer]} should be Rufer"
        if contract is None:
            kind = "normal"
        elif sp:
            kind = "spritzen"
        else:
            kind = "contract"

        def steps(thumb):
            if declarer is not None and declarer != rufer:
                thumb.tap(radio(page, "declarer", declarer))
            if contract is not None:
                target = radio(page, "contract", contract)
                if target.evaluate("el => !!el.closest('details:not([open])')"):
                    thumb.kind = "more"
                    thumb.tap(page.locator("#sheet details.more > summary"))
                thumb.tap(target)
            if points is not None:
                thumb.tap(radio(page, "normal_points", points))
            if sp:
                thumb.tap(radio(page, "spritzen", sp))
            value = "1" if won else "0"
            thumb.tap(page.locator(f'#sheet form.deal-form button[name=won][value="{value}"]'))

        self.measure(kind, label, steps)
        return kind

    def redeal(self, label):
        self.measure(
            "redeal",
            label,
            lambda thumb: thumb.tap(
                self.page.locator("#sheet .redeal-button, #sheet form.redeal button").first
            ),
        )

    def undo(self, label):
        self.measure(
            "undo",
            label,
            lambda thumb: thumb.tap(
                self.page.locator("#sheet .banner form[action*='/void/'] button").first
            ),
        )

    def tiebreak(self, label, winner):
        button = self.page.locator(f'#sheet form.tiebreak button[value="{winner}"]')
        self.measure("tiebreak", label, lambda thumb: thumb.tap(button))

    # --- what the sheet must show -------------------------------------------------

    def totals(self) -> list[int]:
        return [int(t) for t in self.page.locator("#sheet .totals td").all_inner_texts()]

    def saved_text(self) -> str:
        return self.page.locator("#sheet .banner.saved").inner_text()

    def game_over(self) -> str:
        over = self.page.locator("#sheet .banner.saved .game-over")
        return over.inner_text() if over.count() else ""

    def dealer_badge(self) -> int:
        heads = self.page.locator("#sheet table.score thead th")
        seats = [
            i for i in range(heads.count()) if heads.nth(i).locator(".badge:not(.rufer)").count()
        ]
        assert len(seats) == 1, seats
        return seats[0]


def play_evening(page, url: str) -> list[Cost]:
    """Play the evening on the sheet at ``url`` (an entry link of a fresh sheet) and
    return the cost of every entry, in order. Raises AssertionError when the sheet
    shows a number or a game end other than the rules give."""
    page.goto(url)
    e = Evening(page, url)
    assert e.totals() == [0, 0, 0]

    # The two Bettler of 5 are told apart by a hint each.
    hints = [
        radio(page, "contract", code).locator(".hint-line").inner_text()
        for code in ("assenbettler", "ass_bettler")
    ]
    assert all(hints) and hints[0] != hints[1], hints

    # ===== Game 1 (Anna deals first; the Rufer goes Ben, Clara, Anna, ...) =====
    e.deal("1", rufer=BEN, points=3)  # Ben +3
    e.deal("2", rufer=CLARA, points=2, won=False)  # Anna +2, Ben +2
    e.deal("3", rufer=ANNA, contract="bettler")  # Anna +4
    assert e.totals() == [6, 5, 0]
    # Clara plays Gang (9) gespritzt (x2 = 18) and wins.
    e.deal("4", rufer=BEN, declarer=CLARA, contract="gang", sp=1)
    assert e.totals() == [6, 5, 18]
    e.deal("5", rufer=CLARA, points=1)  # Clara +1
    e.deal("6", rufer=ANNA, declarer=BEN, contract="kontraschnapser")  # Ben +12
    e.deal("7", rufer=BEN, points=3, won=False)  # Anna +3, Clara +3
    assert e.totals() == [9, 17, 22]
    # Clara +2 = 24: the game is over at 9/17/24; Anna has the fewest: 1 Bummerl.
    e.deal("8", rufer=CLARA, points=2)
    over = e.game_over()
    assert "9 · 17 · 24" in over and "Anna" in over, over
    assert "Ben" not in over and "Clara" not in over, over
    assert e.totals() == [0, 0, 0]
    # Undo brings the game back; the deal is entered again.
    e.undo("undo 8")
    assert e.totals() == [9, 17, 22]
    e.deal("8 again", rufer=CLARA, points=2)
    assert "Anna" in e.game_over()

    # ===== Game 2: Clara deals, Anna is Rufer =====
    e.deal("9", rufer=ANNA, points=3)  # Anna +3
    e.deal("10", rufer=BEN, contract="damengang")  # Ben +7 (behind "more")
    e.deal("11", rufer=CLARA, points=1, won=False)  # Anna +1, Ben +1
    assert e.totals() == [4, 8, 0]
    # Clara plays Assenbettler (5) zurückgespritzt (x4 = 20) and loses: Anna and Ben
    # +20 each: 24/28/0. Clara has 0: Schneider, 2 Bummerl.
    e.deal("12", rufer=ANNA, declarer=CLARA, contract="assenbettler", sp=2, won=False)
    over = e.game_over()
    assert "24 · 28 · 0" in over and "Clara" in over and "2" in over.split(":")[-1], over

    # ===== Game 3: Anna deals, Ben is Rufer =====
    e.redeal("13 redeal")  # the same dealer deals again: Ben stays Rufer
    e.deal("14", rufer=BEN, points=2)  # Ben +2
    e.deal("15", rufer=CLARA, points=2)  # Clara +2
    e.deal("16", rufer=ANNA, contract="ass_bettler")  # Anna +5
    e.deal("17", rufer=BEN, declarer=ANNA, contract="bettler", sp=1)  # Anna +8
    e.deal("18", rufer=CLARA, declarer=ANNA, contract="gang")  # Anna +9
    assert e.totals() == [22, 2, 2]
    # Anna +2 = 24: Ben and Clara tie for the last place at 2; they play a tie-break
    # deal and the third, Anna, deals it: the dealer badge says so too.
    e.deal("19", rufer=ANNA, points=2)
    assert page.locator("#sheet form.tiebreak").count() == 1
    text = page.locator("#sheet form.tiebreak .banner").inner_text()
    assert "Ben" in text and "Clara" in text and "Anna" in text, text
    assert e.dealer_badge() == ANNA
    assert page.locator("#sheet .badge.rufer").count() == 0
    # Clara wins it: Ben gets 1 Bummerl (2 points, not Schneider).
    e.tiebreak("20 tie-break", CLARA)
    over = e.game_over()
    assert "24 · 2 · 2" in over and "Ben" in over, over
    assert "Anna" not in over and "Clara" not in over, over
    tally = page.locator("#sheet .tally td").all_inner_texts()
    assert [int("".join(c for c in t if c.isdigit())) for t in tally] == [1, 1, 2], tally
    return e.costs


def play_bauern_evening(page, url: str) -> list[Cost]:
    """A Bauernschnapsen evening (RULES.md 4; ``bauern`` rule set, seats Anna 0, Ben 1,
    Clara 2, Dora 3, Anna deals first; Anna & Clara against Ben & Dora) on the sheet at
    ``url``: 12 entries and one undo, with the same taps as Dreierschnapsen. Raises
    AssertionError when the sheet shows other numbers than the rules give."""
    page.goto(url)
    e = Evening(page, url, NAMES_4)
    assert e.totals() == [0, 0, 0, 0]
    assert page.locator("#sheet .teams .team").count() == 2

    # ===== Game 1 (Anna deals first; the Rufer goes Ben, Clara, Dora, Anna, ...) =====
    e.deal("1", rufer=BEN, points=3)  # Ben & Dora +3
    e.deal("2", rufer=CLARA, points=2, won=False)  # Ben & Dora +2
    assert e.totals() == [0, 5, 0, 5]
    # Dora, the Rufer, plays a Bettler alone: her partner Ben sits out, and it shows.
    radio(page, "contract", "bettler").click()
    out = page.locator("#sheet .sits-out.out-by-3")
    assert out.is_visible() and "Ben" in out.inner_text(), out.inner_text()
    radio(page, "contract", "normal").click()
    assert not out.is_visible()
    e.deal("3", rufer=DORA, contract="bettler")  # Ben & Dora +4
    assert "Ben" in e.saved_text()  # "… · Ben setzt aus"
    # Clara, the Rufer's partner, plays a Schnapser (6) and wins.
    e.deal("4", rufer=ANNA, declarer=CLARA, contract="schnapser")
    assert e.totals() == [6, 9, 6, 9]
    # Anna plays Gang (9) gespritzt (x2 = 18) and wins: Anna & Clara 24, the game is
    # over; Ben & Dora get one Bummerl each.
    e.deal("5", rufer=BEN, declarer=ANNA, contract="gang", sp=1)
    over = e.game_over()
    assert "24 · 9 · 24 · 9" in over and "Ben" in over and "Dora" in over, over
    assert e.totals() == [0, 0, 0, 0]
    e.undo("undo 5")
    assert e.totals() == [6, 9, 6, 9]
    e.deal("5 again", rufer=BEN, declarer=ANNA, contract="gang", sp=1)
    assert "Dora" in e.game_over()

    # ===== Game 2: Ben deals, Clara is Rufer =====
    e.redeal("6 redeal")  # the same dealer deals again: Clara stays Rufer
    e.deal("7", rufer=CLARA, points=1)  # Anna & Clara +1
    # Anna plays a Kontraschnapser (12) against Rufer Dora and wins.
    e.deal("8", rufer=DORA, declarer=ANNA, contract="kontraschnapser")
    # Ben loses a Zehnerloch (10, behind "more contracts"): Anna & Clara +10.
    e.deal("9", rufer=ANNA, declarer=BEN, contract="zehnergang", won=False)
    assert e.totals() == [23, 0, 23, 0]
    e.deal("10", rufer=BEN, points=1)  # Ben & Dora +1
    assert e.totals() == [23, 1, 23, 1]
    e.deal("11", rufer=CLARA, points=2)  # Anna & Clara 25: Ben & Dora a Bummerl
    over = e.game_over()
    assert "25 · 1 · 25 · 1" in over and "Ben" in over and "Dora" in over, over
    tally = page.locator("#sheet .tally td").all_inner_texts()
    assert [int("".join(c for c in t if c.isdigit())) for t in tally] == [0, 2, 0, 2], tally
    return e.costs


def table(results: dict) -> list[str]:
    """The taps table: one line per deal kind, ``taps/scrolls`` per viewport (the
    fewest-most taps, the most scrolls any deal of that kind took), then the scrolls
    and jumps of the whole evening; from ``{(width, height): [Cost, ...]}``."""
    sizes = list(results)
    lines = [f"{'deal kind':<50}" + "".join(f"{f'{w}x{h}':<12}" for w, h in sizes)]
    for kind, words in KINDS:
        cells = []
        for size in sizes:
            costs = [c for c in results[size] if c.kind == kind]
            if not costs:
                cells.append("-")
                continue
            low, high = min(c.taps for c in costs), max(c.taps for c in costs)
            taps = f"{low}" if low == high else f"{low}-{high}"
            cells.append(f"{taps}/{max(c.scrolls for c in costs)}")
        count = max(len([c for c in results[s] if c.kind == kind]) for s in sizes)
        lines.append(f"{f'{words} ({count}x)':<50}" + "".join(f"{c:<12}" for c in cells))
    for words, field in (("scrolls, whole evening", "scrolls"), ("jumps after saving", "jumps")):
        sums = [sum(getattr(c, field) for c in results[s]) for s in sizes]
        lines.append(f"{words:<50}" + "".join(f"{n:<12}" for n in sums))
    return lines


def measure(new_sheet_url, launch_args: dict | None = None, play=play_evening) -> dict:
    """Play the evening (``play``: ``play_evening`` or ``play_bauern_evening``) once per
    phone size of VIEWPORTS in a headless Chromium, each on a fresh sheet whose entry
    link ``new_sheet_url()`` returns; ``{size: [Cost, ...]}``."""
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**(launch_args or {}))
        try:
            for width, height in VIEWPORTS:
                context = browser.new_context(
                    viewport={"width": width, "height": height}, locale="de-AT"
                )
                try:
                    results[(width, height)] = play(context.new_page(), new_sheet_url())
                finally:
                    context.close()
        finally:
            browser.close()
    return results
