"""Printouts print what players typed and nothing of the templates: every name (umlauts,
ß, emoji) comes out of the PDF text as typed, a blank sheet is one page, and no template
comment leaks into a page."""

import io
import json
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.urls import reverse
from pypdf import PdfReader

from base.text import unprintable
from clubs.models import Player
from scoring import services as scoring
from scoring.rules import DreierDeal, QuickDeal
from scoring.services import Actor
from tests import factories
from tournaments.services.cards import create_tournament
from tournaments.services.reading import load_state
from tournaments.simulation import simulate

NAMES = [
    "Jürgen Weiß 🍀",
    "Brigitte Öhlinger",
    "Ömer Çelik😀",
    "Straßer ♣ Groß",
    "Anna Österreicher",
    "Zita Ärger",
    "Ben Müller ❤",
    "Clara 🂡 Ämter",
]


def pdf_of(response) -> PdfReader:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return PdfReader(io.BytesIO(response.content))


def text_of(reader: PdfReader) -> str:
    """All text, lines joined by a space (a name may wrap in a narrow box)."""
    text = "\n".join(page.extract_text() for page in reader.pages)
    return re.sub(r"\s*\n\s*", " ", text)


def lines_of(page) -> list[str]:
    return [line.strip() for line in page.extract_text().splitlines()]


@pytest.fixture
def organiser(db, client):
    return factories.signed_in_club(client)


def template_files() -> list[Path]:
    roots = [Path(settings.BASE_DIR) / "templates"]
    roots += [
        Path(settings.BASE_DIR) / app / "templates" for app in ("clubs", "scoring", "tournaments")
    ]
    return sorted(p for root in roots if root.is_dir() for p in root.rglob("*.html"))


def test_no_template_has_a_comment_spanning_lines():
    """``{# … #}`` is a comment only on one line: Django prints a longer one as text."""
    files = template_files()
    assert len(files) > 20
    faults = [
        f"{path.name}:{number}"
        for path in files
        for number, line in enumerate(path.read_text().splitlines(), 1)
        for opening in re.finditer(r"\{#", line)
        if "#}" not in line[opening.end() :]
    ]
    assert faults == []


def test_the_128_card_bracket_prints_no_template_comment(client, organiser):
    t = simulate(organiser, cards=128, players=60, max_cards=3, seed=5)
    url = reverse("print_bracket", kwargs={"slug": organiser.slug, "tournament_id": t.pk})
    text = text_of(pdf_of(client.get(url)))
    assert "{#" not in text and "#}" not in text and "Larger fields" not in text
    first = text[: text.index("Runde 1")]
    assert first.startswith(t.name)


@pytest.mark.parametrize(
    ("names", "rows"),
    [
        (("Maximilian Oberhollenzer-Größwang", "Anna-Theresia Österreicher-Ölz", "Ölli"), 24),
        (("Maximilian Oberhollenzer-Größwang", "Anna-Theresia Österreicher-Ölz"), 30),
    ],
)
def test_a_blank_sheet_is_one_a4_page_with_every_row(client, organiser, names, rows):
    sheet = factories.sheet(organiser, names=names)
    reader = pdf_of(client.get(reverse("sheet:print_blank", kwargs={"pk": sheet.pk})))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)) == (210, 297)
    lines = lines_of(reader.pages[0])
    assert [n for n in range(1, 40) if str(n) in lines] == list(range(1, rows + 1))


def font_names(reader: PdfReader) -> set[str]:
    return {
        str(font.get_object()["/BaseFont"]).split("+")[-1]
        for page in reader.pages
        for font in page["/Resources"].get("/Font", {}).values()
    }


def test_every_tournament_printout_prints_the_names_as_typed(client, organiser):
    """Bracket, draw list, prize list and match sheets: umlauts, ß and emoji come out of
    the PDF text exactly; the emoji are drawn with the shipped Symbola, not a box."""
    assert all(unprintable(name) == [] for name in NAMES)
    done = simulate(organiser, cards=8, players=8, max_cards=1, seed=3, names=NAMES)
    kwargs = {"slug": organiser.slug, "tournament_id": done.pk}
    bracket = pdf_of(client.get(reverse("print_bracket", kwargs=kwargs)))
    assert all(name in text_of(bracket) for name in NAMES)
    assert all(font.startswith(("BummerlDejaVu", "BummerlSymbola")) for font in font_names(bracket))
    assert any(font.startswith("BummerlSymbola") for font in font_names(bracket))
    draw = text_of(pdf_of(client.get(reverse("print_draw", kwargs=kwargs | {"number": 1}))))
    assert all(name in draw for name in NAMES)
    prizes = text_of(pdf_of(client.get(reverse("print_prizes", kwargs=kwargs))))
    state = load_state(done)
    winners = {state.cards[a.card].player.name for a in state.awards()}
    assert len(winners) >= 3 and all(name in prizes for name in winners)

    open_ = simulate(organiser, cards=8, players=8, max_cards=1, seed=3, names=NAMES, stop_after=1)
    url = reverse(
        "print_match_sheets",
        kwargs={"slug": organiser.slug, "tournament_id": open_.pk, "number": 1},
    )
    sheets = text_of(pdf_of(client.get(url)))
    assert all(sheets.count(name) == 2 for name in NAMES)  # under the title and to sign


def test_a_tables_printouts_print_the_names_as_typed(client, organiser):
    names = tuple(NAMES[:3])
    sheet = factories.sheet(organiser, names=names)
    scoring.record_entry(sheet, DreierDeal("gang", 0, True, 1), uuid.uuid4(), scoring.Actor())
    blank = pdf_of(client.get(reverse("sheet:print_blank", kwargs={"pk": sheet.pk})))
    summary = pdf_of(client.get(reverse("sheet:print_summary", kwargs={"pk": sheet.pk})))
    for reader in (blank, summary):
        assert all(name in text_of(reader) for name in names)
        fonts = font_names(reader)
        assert all(font.startswith(("BummerlDejaVu", "BummerlSymbola")) for font in fonts)
        assert any(font.startswith("BummerlSymbola") for font in fonts)
    two = factories.sheet(organiser, names=(NAMES[3], NAMES[6]))
    scoring.record_entry(two, QuickDeal(0, 2), uuid.uuid4(), scoring.Actor())
    text = text_of(pdf_of(client.get(reverse("sheet:print_summary", kwargs={"pk": two.pk}))))
    assert NAMES[3] in text and NAMES[6] in text


def warnings_of(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]


def test_unprintable_names_the_characters_no_shipped_font_has():
    assert unprintable("Li Wei 李伟") == ["李", "伟"]
    assert unprintable("Jürgen Weiß 🍀 ❤️ 👨‍👩‍👧") == []  # joiners and selectors draw nothing
    assert unprintable("李李 🥲") == ["李", "🥲"]  # each once; an emoji newer than the font


def test_a_player_with_cjk_characters_is_added_with_a_warning(client, organiser):
    url = reverse("players", kwargs={"slug": organiser.slug})
    response = client.post(url, {"name": "Li Wei 李伟"}, follow=True)
    assert Player.objects.filter(club=organiser, name="Li Wei 李伟").exists()
    assert warnings_of(response) == [
        "Im Ausdruck fehlen: 李 伟 — der Name wird trotzdem gespeichert."
    ]
    response = client.post(url, {"name": "Jürgen Weiß 🍀"}, follow=True)
    assert warnings_of(response) == []


def test_a_card_sold_to_a_cjk_name_warns_and_sells(client, organiser):
    t = create_tournament(
        organiser,
        Actor(),
        name="Preisschnapsen 漢",
        starts_at="2026-12-01T19:00:00+01:00",
        cards=8,
        max_cards=2,
        match_bummerl=2,
        entry_fee=5,
        one_prize_per_player=False,
        prizes=[],
    )
    url = reverse("sell", kwargs={"slug": organiser.slug, "tournament_id": t.pk})
    data = {"key": str(uuid.uuid4()), "name": "Kim 김민준", "count": 1, "paid": "on"}
    response = client.post(url, data, follow=True)
    assert [c.player.name for c in load_state(t).cards.values()] == ["Kim 김민준"]
    assert warnings_of(response) == [
        "Im Ausdruck fehlen: 김 민 준 — der Name wird trotzdem gespeichert."
    ]


def test_a_new_tournament_warns_of_its_unprintable_name_and_prizes(client, organiser):
    url = reverse("tournaments", kwargs={"slug": organiser.slug})
    data = {
        "name": "Preisschnapsen 春",
        "day": "2026-12-01",
        "time": "19:00",
        "cards": 8,
        "max_cards": 2,
        "match_bummerl": 2,
        "entry_fee": 5,
        "prizes": "1: Geschenkkorb 🍀\n2: お茶",
    }
    response = client.post(url, data, follow=True)
    assert response.status_code == 200 and response.redirect_chain
    assert warnings_of(response) == [
        "Im Ausdruck fehlen: 春 お 茶 — der Text wird trotzdem gespeichert."
    ]


def test_an_import_and_a_table_title_warn_of_what_will_not_print(client, organiser):
    document = {
        "variant": "schnapsen",
        "players": ["Anna", "Wang 王"],
        "deals": [{"winner": "Anna", "points": 1}],
    }
    url = reverse("import_table", kwargs={"slug": organiser.slug})
    data = {"key": str(uuid.uuid4()), "title": "Stammtisch 木曜", "document": json.dumps(document)}
    response = client.post(url, data, follow=True)
    assert Player.objects.filter(club=organiser, name="Wang 王").exists()
    assert warnings_of(response) == [
        "Im Ausdruck fehlen: 王 — der Name wird trotzdem gespeichert.",
        "Im Ausdruck fehlen: 木 曜 — der Text wird trotzdem gespeichert.",
    ]
    anna, ben = factories.players(organiser, "Dora", "Emil")
    data = {
        "key": str(uuid.uuid4()),
        "variant": "schnapsen",
        "player_1": anna.pk,
        "player_2": ben.pk,
        "rule_set": factories.presets()["wiki"].pk,
        "title": "Tisch 🍀 月",
    }
    response = client.post(
        reverse("open_table", kwargs={"slug": organiser.slug}), data, follow=True
    )
    assert warnings_of(response) == ["Im Ausdruck fehlen: 月 — der Text wird trotzdem gespeichert."]
