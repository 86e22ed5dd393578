"""The printed bracket of a large night: a tree over A4 landscape pages that a reader
follows from round 1 to the final, the last rounds, placement matches and places 1-8
together on the last page, every card named, no text off the page."""

import io
import re
from itertools import pairwise

import pytest
from django.urls import reverse
from pypdf import PdfReader
from pypdf.generic import ContentStream

from clubs.models import Player
from tests import factories
from tournaments import bracket_sheet
from tournaments.rows import bracket_columns
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db

A4_LANDSCAPE = (297, 210)


@pytest.fixture
def organiser(client):
    return factories.signed_in_club(client)


def printed(client, club, t) -> PdfReader:
    url = reverse("print_bracket", kwargs={"slug": club.slug, "tournament_id": t.pk})
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def shows(card) -> re.Pattern:
    """A card as its boxes print it: "#12 Anna", not the start of "#12 Annabell"."""
    return re.compile(rf"#{card.number} {re.escape(card.player.name)}(?![\w])")


def texts_off_the_page(page) -> list[str]:
    """Every piece of text whose start lies outside the page."""
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    outside = []

    def visit(text, cm, tm, _font, _size):
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if not (0 <= x <= width and 0 <= y <= height):
            outside.append(text)

    page.extract_text(visitor_text=visit)
    return outside


def rounds_played(state) -> dict[int, int]:
    """Card id -> the main rounds it was drawn in."""
    played: dict[int, int] = {}
    for pairings in state.pairings.values():
        for p in pairings:
            for card in (p.left_id, p.right_id):
                if card:
                    played[card] = played.get(card, 0) + 1
    return played


def check_bracket(reader, t, pages: int, section_rounds: int) -> None:
    """``pages`` A4 landscape pages; each card's round-1 box on one page before the last,
    with its later boxes of the first ``section_rounds`` rounds on the same page (one per
    round it played there); the final's two cards and places 1-8 on the last page; every
    box printed once: a card is named as often as it was drawn, in the rounds and the
    placement matches, and once more in the places if it took one of 1-8."""
    assert len(reader.pages) == pages
    for page in reader.pages:
        box = page.mediabox
        size = (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72))
        assert size == A4_LANDSCAPE
        assert texts_off_the_page(page) == []
    state = load_state(t)
    texts = [page.extract_text() for page in reader.pages]
    played = rounds_played(state)
    sections = texts[:-1] or texts
    for pk, card in state.cards.items():
        found = [text for text in sections if shows(card).search(text)]
        assert len(found) == 1, card.number  # round 1 names every card, once
        expected = min(played[pk], section_rounds) if len(texts) > 1 else played[pk]
        assert len(shows(card).findall(found[0])) >= expected, card.number
    last = texts[-1]
    final = state.pairings[state.rounds[-1].pk][0]
    for card in (state.cards[final.left_id], state.cards[final.right_id]):
        assert shows(card).search(last)
    places = state.places()
    whole = "\n".join(texts)
    for pk, card in state.cards.items():
        placed = sum(1 for p in state.placement if pk in (p.left_id, p.right_id))
        named = played[pk] + placed + (pk in places.values())
        assert len(shows(card).findall(whole)) == named, card.number
    assert sorted(places) == list(range(1, 9))
    for place, card in places.items():
        card = state.cards[card]
        assert re.search(rf"{place}\. #{card.number} {re.escape(card.player.name)}", last)
    assert "Plätze" in last and "Spiele um Platz" in last


def test_the_16_card_bracket_is_one_page_with_the_final_and_places_one_to_eight(client, organiser):
    t = simulate(organiser, cards=16, players=10, max_cards=3, seed=7)
    reader = printed(client, organiser, t)
    check_bracket(reader, t, pages=1, section_rounds=4)
    text = reader.pages[0].extract_text()
    assert all(name in text for name in ("Achtelfinale", "Viertelfinale", "Halbfinale", "Finale"))


def test_the_64_card_bracket_is_two_pages_of_round_one_and_the_last_page(client, organiser):
    t = simulate(organiser, cards=64, players=30, max_cards=3, seed=11)
    check_bracket(printed(client, organiser, t), t, pages=3, section_rounds=2)


def test_the_128_card_bracket_is_four_pages_of_rounds_one_to_three_and_the_last_page(
    client, organiser
):
    """Pages 1-4 each carry a quarter of round 1 with where its winners went in rounds
    2 and 3; rounds 4 to 7 (the final) stand on page 5, in large type, with the placement
    matches and places 1-8. No round is printed twice."""
    t = simulate(organiser, cards=128, players=60, max_cards=3, seed=5)
    reader = printed(client, organiser, t)
    check_bracket(reader, t, pages=5, section_rounds=3)
    assert "Runde 1 (128) bis Runde 3 (32), Teil 4 von 4" in reader.pages[3].extract_text()
    last = reader.pages[4].extract_text()
    assert "Achtelfinale bis Finale" in last and "Runde 3 (32)" not in last
    assert "Seite 5 / 5" in last
    assert text_starts(reader, reader.pages[4], bracket_sheet.SMALL) == []
    # Two lines a box: rounds 4 to 7 and the placement matches; then "Places" and 1-8.
    boxes = 8 + 4 + 2 + 1 + len(load_state(t).placement)
    assert len(text_starts(reader, reader.pages[4], bracket_sheet.LARGE)) == 2 * boxes + 9


@pytest.mark.heavy
def test_the_1024_card_bracket_is_32_pages_of_round_one_and_the_last_page(client, organiser):
    t = simulate(organiser, cards=1024, players=400, max_cards=3, seed=7)
    check_bracket(printed(client, organiser, t), t, pages=33, section_rounds=5)


def test_each_round_is_printed_in_the_order_of_the_bracket_tree(db):
    """Rounds are drawn afresh (RULES.md 5.4): the printed order puts the two pairings
    a card of pairing i came from at places 2i (its left card) and 2i+1 (its right)."""
    t = simulate(factories.club(), cards=64, players=30, max_cards=3, seed=3)
    state = load_state(t)
    rounds = bracket_sheet.in_tree_order([c for c in bracket_columns(state) if c.number])
    assert [len(c.rows) for c in rounds] == [32, 16, 8, 4, 2, 1]
    for earlier, later in pairwise(rounds):
        for i, row in enumerate(later.rows):
            assert row.left.pk in cards_of(earlier.rows[2 * i])
            assert row.right.pk in cards_of(earlier.rows[2 * i + 1])


def cards_of(row) -> set[int]:
    return {card.pk for card in (row.left, row.right) if card is not None}


def glyph_widths(font) -> dict[int, float]:
    """CID -> advance (thousandths of an em) of an embedded Type 0 font (its /W array)."""
    widths, items = {}, list(font["/DescendantFonts"][0].get_object().get("/W", []))
    while items:
        first, second = int(items[0]), items[1]
        if isinstance(second, list):
            widths.update({first + i: float(w) for i, w in enumerate(second)})
            items = items[2:]
        else:
            widths.update({cid: float(items[2]) for cid in range(first, int(second) + 1)})
            items = items[3:]
    return widths


def text_starts(reader, page, size: float) -> list[float]:
    """Where each box's line of text at ``size`` pt begins on ``page``, in mm from the
    page's left edge: the start of a line of the grid, and of each text after a tab on
    it. WeasyPrint draws a tab as a shift (a number of a TJ array far above kerning's);
    the hair spaces after a tab (``bracket_sheet._after_text``) are not the text yet."""
    fonts = {name: glyph_widths(f.get_object()) for name, f in page["/Resources"]["/Font"].items()}
    starts, font, font_size = [], None, None
    for operands, operator in ContentStream(page.get_contents(), reader).operations:
        if operator == b"Tm":
            x = float(operands[4])
        elif operator == b"Tf":
            font, font_size = fonts.get(operands[0]), float(operands[1])
        elif operator == b"TJ" and font_size and abs(font_size * 0.75 - size) < 0.01:
            fresh = True  # a text begins: the line's start, or after a tab
            for piece in operands[0]:
                if not isinstance(piece, str | bytes):
                    x -= float(piece) / 1000 * font_size
                    fresh = fresh or float(piece) < -500
                    continue
                raw = piece.original_bytes if hasattr(piece, "original_bytes") else bytes(piece)
                for i in range(0, len(raw), 2):
                    width = font[int.from_bytes(raw[i : i + 2], "big")]
                    if fresh and width > 150:  # the first glyph that is not a hair space
                        starts.append(x * 25.4 / 96)
                        fresh = False
                    x += width / 1000 * font_size
    return starts


def test_each_box_text_starts_inside_its_frame(client, organiser):
    """The grid's tab stops put every column's text 1 mm inside the frames drawn for
    it (``bracket_sheet.TAB_DRAWN``), also after the text of the first column on its line
    (``bracket_sheet._after_text``; without, up to 0.5 mm short): pages 1-4 of a 128-card
    night have three columns, on 32 lines."""
    t = simulate(organiser, cards=128, players=60, max_cards=3, seed=5)
    reader = printed(client, organiser, t)
    _tab, width = bracket_sheet.column_width(3)
    lefts = [10 + k * width + bracket_sheet.PAD for k in range(3)]  # the page's left margin
    for page in reader.pages[:4]:
        starts = text_starts(reader, page, bracket_sheet.SMALL)
        assert len(starts) == 2 * (16 + 8 + 4)
        columns = [min(range(3), key=lambda k: abs(x - lefts[k])) for x in starts]
        assert [columns.count(k) for k in range(3)] == [32, 16, 8]
        assert max(abs(x - lefts[k]) for x, k in zip(starts, columns, strict=True)) < 0.15


def test_long_names_in_the_side_column_wrap_without_running_into_the_next_box(client, organiser):
    """A placement match whose names do not fit a line is drawn on its own and wraps; the
    side column's next box (and the places) start below it: no two lines of text of the
    column closer than a line apart."""
    t = simulate(organiser, cards=16, players=10, max_cards=3, seed=7)
    for player in Player.objects.filter(club=organiser):
        player.name = f"Maximilian Oberhuber-Steinbauer {player.pk}"
        player.save(update_fields=["name"])
    reader = printed(client, organiser, t)
    _tab, width = bracket_sheet.column_width(5)  # the last page's four rounds and its side column
    side = (10 + 4 * width) * 72 / 25.4  # where the side column starts (10 mm margin), in pt
    tops = []

    def visit(text, cm, tm, _font, _size):
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        if text.strip() and x >= side - 1:
            tops.append(tm[4] * cm[1] + tm[5] * cm[3] + cm[5])

    reader.pages[0].extract_text(visitor_text=visit)
    lines = sorted(set(round(y, 1) for y in tops), reverse=True)
    assert len(lines) > 2 * 5 + 8  # five placement boxes, some wrapped, and the places
    gaps = [(a - b) * 25.4 / 72 for a, b in pairwise(lines)]
    assert min(gaps) > 2.5, gaps
