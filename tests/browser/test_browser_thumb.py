"""The score sheet in one hand: a 20-deal Dreierschnapsen evening on two phone sizes,
counting taps and scrolls per deal kind (``tests.thumb``; RULES.md 3.2 and 3.3).

The normal game takes 2 taps, a contract 2 or 3, a contract with Spritzen by a
non-Rufer at most 4, a tie-break deal and an undo 1 each; none needs a scroll, and
saving never moves the page.
"""

import pytest

from tests import factories
from tests.thumb import KINDS, LIMITS, NAMES_4, play_bauern_evening, play_evening, table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
def test_a_dreierschnapsen_evening_with_one_thumb(live_server, browser, size):
    club = factories.club(name="Daumen")
    sheet = factories.sheet(club)
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-AT")
    try:
        page = context.new_page()
        costs = play_evening(page, f"{live_server.url}/e/{sheet.entry_token}/")
    finally:
        context.close()

    print(*table({size: costs}), *costs, sep="\n")
    # 21 entries recorded, one of them struck out by the undo: 20 on the sheet.
    assert len([c for c in costs if c.kind != "undo"]) == 21
    assert {c.kind for c in costs} == {kind for kind, _ in KINDS}
    for cost in costs:
        low, high = LIMITS[cost.kind]
        assert low <= cost.taps <= high, cost
        assert cost.scrolls == 0, cost
        assert cost.jumps == 0, cost
    # The kinds the evening plays, with the exact taps each took.
    taps = [(c.label, c.taps) for c in costs]
    assert taps == [
        ("1", 2), ("2", 2), ("3", 2), ("4", 4), ("5", 2), ("6", 3), ("7", 2), ("8", 2),
        ("undo 8", 1), ("8 again", 2), ("9", 2), ("10", 3), ("11", 2), ("12", 4),
        ("13 redeal", 1), ("14", 2), ("15", 2), ("16", 2), ("17", 4), ("18", 3), ("19", 2),
        ("20 tie-break", 1),
    ]  # fmt: skip


@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
def test_a_bauernschnapsen_evening_with_one_thumb(live_server, browser, size):
    club = factories.club(name="Daumen")
    sheet = factories.sheet(club, names=NAMES_4, preset="bauern")
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale="de-AT")
    try:
        page = context.new_page()
        costs = play_bauern_evening(page, f"{live_server.url}/e/{sheet.entry_token}/")
    finally:
        context.close()

    print(*table({size: costs}), *costs, sep="\n")
    for cost in costs:
        low, high = LIMITS[cost.kind]
        assert low <= cost.taps <= high, cost
        assert cost.scrolls == 0, cost
        assert cost.jumps == 0, cost
    # The same taps as Dreierschnapsen: a normal game 2, a contract 2 by the Rufer and
    # 3 by another, with Spritzen 4, from "more contracts" 4 (declarer, more, contract,
    # lost), a redeal and an undo 1.
    taps = [(c.label, c.taps) for c in costs]
    assert taps == [
        ("1", 2), ("2", 2), ("3", 2), ("4", 3), ("5", 4), ("undo 5", 1), ("5 again", 4),
        ("6 redeal", 1), ("7", 2), ("8", 3), ("9", 4), ("10", 2), ("11", 2),
    ]  # fmt: skip
