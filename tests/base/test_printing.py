"""Printed documents: the PDF's text has every name, number and result; fonts are ours."""

import io
import re
import uuid

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring import services as scoring
from scoring.rules import DreierDeal, QuickDeal
from scoring.services import Actor
from tests import factories
from tournaments.models import Pairing
from tournaments.services.cards import create_tournament
from tournaments.services.draws import draw_round
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db
LONG = "Maximilian Oberhollenzer-Größwang"


def pdf_of(response):
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def text_of(reader) -> str:
    """All text, lines joined, so a name wrapped in a narrow box still reads whole."""
    text = "\n".join(page.extract_text() for page in reader.pages)
    return re.sub(r"\s*\n\s*", " ", re.sub(r"-\n", "-", text))


def fonts_of(reader) -> list[tuple[str, bool]]:
    """(font name, embedded?) for every font the pages use."""
    found = []
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            descriptors = [font.get("/FontDescriptor")]
            for child in font.get("/DescendantFonts", []):
                descriptors.append(child.get_object().get("/FontDescriptor"))
            embedded = any(
                d is not None
                and any(k in d.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                for d in descriptors
            )
            found.append((str(font["/BaseFont"]), embedded))
    return found


@pytest.fixture
def organiser(client):
    return factories.signed_in_club(client)


def tournament_names(t):
    state = load_state(t)
    return state, {c.player.name for c in state.cards.values()}


def test_the_bracket_of_16_cards_is_one_page_with_every_name_number_and_result(client, organiser):
    names = [
        LONG,
        "Anna Österreicher",
        "Ben Müller",
        "Clara Weiß",
        "Dora",
        "Emil",
        "Fritz",
        "Gerda",
        "Hans",
    ]
    t = simulate(organiser, cards=16, players=9, max_cards=3, seed=4, names=names)
    reader = pdf_of(
        client.get(reverse("print_bracket", kwargs={"slug": organiser.slug, "tournament_id": t.pk}))
    )
    assert len(reader.pages) == 1
    text = text_of(reader)
    state, players = tournament_names(t)
    for name in players:
        assert name in text, name
    for pairings in state.pairings.values():
        for p in pairings:
            for card_id in (p.left_id, p.right_id):
                if card_id:
                    assert f"#{state.cards[card_id].number}" in text
            if p.pk in state.results:
                assert state.results[p.pk].score in text
    assert fonts_of(reader) and all(
        "+BummerlDejaVu" in name and embedded for name, embedded in fonts_of(reader)
    )


def test_a_128_card_bracket_continues_over_labelled_pages(client, organiser):
    t = simulate(organiser, cards=128, players=60, max_cards=3, seed=5)
    reader = pdf_of(
        client.get(reverse("print_bracket", kwargs={"slug": organiser.slug, "tournament_id": t.pk}))
    )
    assert len(reader.pages) > 1
    text = text_of(reader)
    _state, players = tournament_names(t)
    assert all(name in text for name in players)
    for page in reader.pages[1:]:
        assert re.search(  # the header says where
            r"(Runde \d+ \(\d+\)|Achtelfinale|Viertelfinale|Halbfinale|Finale|Platzierung)",
            page.extract_text(),
        )


def test_a_blank_bracket_before_round_one(client, organiser):
    t = create_tournament(
        organiser,
        Actor(),
        name="Leer",
        starts_at="2026-12-01T19:00:00+01:00",
        cards=32,
        max_cards=3,
        match_bummerl=2,
        entry_fee=5,
        one_prize_per_player=False,
        prizes=[],
    )
    reader = pdf_of(
        client.get(reverse("print_bracket", kwargs={"slug": organiser.slug, "tournament_id": t.pk}))
    )
    text = text_of(reader)
    names = ("Runde 1 (32)", "Achtelfinale", "Viertelfinale", "Halbfinale", "Finale")
    assert all(name in text for name in names)


def test_match_sheets_are_four_to_a_page_with_both_names(client, organiser):
    t = simulate(organiser, cards=16, players=16, max_cards=1, seed=6, stop_after=1)
    url = reverse(
        "print_match_sheets", kwargs={"slug": organiser.slug, "tournament_id": t.pk, "number": 1}
    )
    reader = pdf_of(client.get(url))
    state = load_state(t)
    matches = [p for p in state.pairings[state.current.pk] if p.kind == "match"]
    assert len(reader.pages) == -(-len(matches) // 4)
    text = text_of(reader)
    for p in matches:
        assert (
            state.cards[p.left_id].player.name in text
            and state.cards[p.right_id].player.name in text
        )
    # The empty grids (7 down to 0 per Bummerl) are one picture, the same on every sheet;
    # each sheet writes its two card numbers beside each of its three Bummerl rows.
    grids = {
        (image.image.size, image.data)
        for page in reader.pages
        for image in page.images
        if image.image.size[0] > 200
    }
    assert len(grids) == 1
    for p in matches:
        for card in (state.cards[p.left_id], state.cards[p.right_id]):
            assert len(re.findall(rf"#{card.number}(?!\d)", text)) == 4


@pytest.mark.heavy
def test_the_largest_night_prints_its_512_match_sheets_on_128_pages(client, organiser):
    t = factories.tournament(organiser, cards=1024, sold=1024)
    draw_round(t, Actor(), seed=4)
    url = reverse(
        "print_match_sheets", kwargs={"slug": organiser.slug, "tournament_id": t.pk, "number": 1}
    )
    reader = pdf_of(client.get(url))
    assert len(reader.pages) == 512 // 4
    last = Pairing.objects.filter(tournament=t, kind="match").order_by("number").last()
    assert last.number == 512
    assert f"Runde 1 (1024), Partie {last.number}" in text_of(reader)


def test_the_draw_list_has_every_pairing_and_every_pull(client, organiser):
    t = simulate(organiser, cards=16, players=11, max_cards=2, seed=8, stop_after=1)
    url = reverse("print_draw", kwargs={"slug": organiser.slug, "tournament_id": t.pk, "number": 1})
    text = text_of(pdf_of(client.get(url)))
    state = load_state(t)
    assert text.count("Freilos") == sum(
        1 for p in state.pairings[state.current.pk] if p.kind == "bye"
    )
    assert str(state.current.seed) in text


def test_the_prize_list_names_the_winners(client, organiser):
    t = simulate(organiser, cards=16, players=12, max_cards=2, seed=9)
    text = text_of(
        pdf_of(
            client.get(
                reverse("print_prizes", kwargs={"slug": organiser.slug, "tournament_id": t.pk})
            )
        )
    )
    state = load_state(t)
    for award in state.awards():
        assert f"{award.description}" in text and state.cards[award.card].player.name in text


def test_blank_sheet_and_evening_summary_of_a_table(client, organiser):
    sheet = factories.sheet(organiser, names=(LONG, "Änne", "Ölli"))
    scoring.record_entry(sheet, DreierDeal("gang", 0, True, 1), uuid.uuid4(), scoring.Actor())
    blank = text_of(pdf_of(client.get(reverse("sheet:print_blank", kwargs={"pk": sheet.pk}))))
    assert "Gang: 9" in blank and "Trumpfringerl: 24" in blank and LONG in blank
    summary = pdf_of(client.get(reverse("sheet:print_summary", kwargs={"pk": sheet.pk})))
    text = text_of(summary)
    assert "Gang ×2" in text and "18" in text and "Änne" in text and "Ölli" in text
    assert all(embedded for _name, embedded in fonts_of(summary))


def test_the_summary_reads_the_totals_as_the_sheet_shows_them(client, organiser):
    """Two players count down from 7 on the sheet (RULES.md 2), so on its printout too;
    Dreierschnapsen counts up to 24."""
    two = factories.sheet(organiser, names=("Anna", "Ben"))
    for entry in (QuickDeal(0, 2), QuickDeal(1, 1), QuickDeal(0, 3), QuickDeal(0, 2)):
        scoring.record_entry(two, entry, uuid.uuid4(), scoring.Actor())
    url = reverse("sheet:print_summary", kwargs={"pk": two.pk})
    lines = [line.strip() for line in pdf_of(client.get(url)).pages[0].extract_text().splitlines()]
    assert "Fehlende Punkte bis zum Bummerl." in lines
    # The game ended 7:1 (Anna won it): 0 and 6 points left; the deals as they went.
    assert "1 0 6 Ben bekommt ein Bummerl" in lines
    deals = [line.split()[-2:] for line in lines if " gewinnt " in line]
    assert deals == [["5", "7"], ["5", "6"], ["2", "6"], ["0", "6"]], lines
    three = factories.sheet(organiser, names=("Clara", "Dora", "Emil"))
    scoring.record_entry(three, DreierDeal("gang", 0, True, 1), uuid.uuid4(), scoring.Actor())
    url = reverse("sheet:print_summary", kwargs={"pk": three.pk})
    text = text_of(pdf_of(client.get(url)))
    assert "Fehlende Punkte" not in text and "18 0 0" in text


def test_printing_needs_access(client, organiser):
    t = simulate(organiser, cards=8, players=6, max_cards=2, seed=1)
    client.logout()
    url = reverse("print_bracket", kwargs={"slug": organiser.slug, "tournament_id": t.pk})
    assert client.get(url).status_code == 302
