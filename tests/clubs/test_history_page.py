"""The history page reads as the rest of the German site: every action has a German
label, before/after are lines a person reads ("Spiel 1: Bettler · Ben · gewonnen"), never
raw dictionaries; one compact entry per change that fits a phone."""

import ast
import html
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from clubs import audit
from clubs.models import AuditEntry
from scoring import services as scoring
from scoring import transfer
from scoring.models import Deal
from scoring.rules import DreierDeal, EndedDeal
from scoring.services import Actor
from tests import factories
from tournaments.models import Pairing
from tournaments.services.cards import create_tournament, sell_cards, set_paid
from tournaments.services.draws import draw_round, undo_draw
from tournaments.services.physical_draws import add_pull, start_physical_draw
from tournaments.services.reading import load_state
from tournaments.services.results import correct_result, record_result

pytestmark = pytest.mark.django_db


def changes(response) -> list[list[str]]:
    """Each entry of the page as its lines of text (time stripped)."""
    assert response.status_code == 200
    body = response.content.decode()
    assert "{&#x27;" not in body and "{'" not in body  # no dictionary printed raw
    items = re.findall(r"<li>(.*?)</li>", body.split('<ol class="audit">')[1], re.S)
    out = []
    for item in items:
        lines = [html.unescape(re.sub(r"<[^>]+>", "", d)).strip() for d in item.split("<div")]
        lines = [re.sub(r"\s+", " ", line.split(">", 1)[-1]).strip() for line in lines]
        out.append([re.sub(r"^\d\d\.\d\d\. \d\d:\d\d:\d\d · ", "", line) for line in lines if line])
    return out


def test_a_sheets_history_names_actions_and_deals_in_german(client):
    club = factories.club()
    alice = factories.user(club, role="organiser", username="alice")
    sheet = factories.sheet(club)
    actor = scoring.Actor(alice)
    scoring.record_entry(sheet, DreierDeal("bettler", 1, True), uuid.uuid4(), actor)
    deal = Deal.objects.get(sheet=sheet)
    scoring.correct_deal(
        sheet, deal.pk, DreierDeal("bettler", 1, False), uuid.uuid4(), scoring.Actor(via_link=True)
    )
    new = Deal.objects.get(sheet=sheet, voided_at__isnull=True)
    scoring.void_deal(sheet, new.pk, actor)
    client.force_login(alice)
    page = changes(client.get(reverse("sheet:history", kwargs={"pk": sheet.pk})))
    assert page == [
        ["alice · Spiel gestrichen", "Spiel 1: Bettler · Ben · verloren (Anna +4, Clara +4)"],
        [
            "über Link · Spiel korrigiert",
            "Vorher: Spiel 1: Bettler · Ben · gewonnen (Ben +4)",
            "Nachher: Spiel 1: Bettler · Ben · verloren (Anna +4, Clara +4)",
        ],
        ["alice · Spiel eingetragen", "Spiel 1: Bettler · Ben · gewonnen (Ben +4)"],
        ["– · Tisch eröffnet", "Spieler: Anna, Ben, Clara · Regelwerk: Standard (Wiki)"],
    ]


def test_a_two_player_deal_and_an_import_read_as_lines(client):
    club = factories.club()
    alice = factories.user(club, role="organiser", username="alice2")
    two = factories.sheet(club, names=("Anna", "Ben"))
    scoring.record_entry(two, EndedDeal("renonce", 0), uuid.uuid4(), scoring.Actor(alice))
    client.force_login(alice)
    page = changes(client.get(reverse("sheet:history", kwargs={"pk": two.pk})))
    assert page == [
        ["alice2 · Spiel eingetragen", "Spiel 1: Anna hat Renonce gemacht (Ben +3)"],
        ["– · Tisch eröffnet", "Spieler: Anna, Ben · Regelwerk: Standard (Wiki)"],
    ]
    document = {
        "variant": "schnapsen",
        "players": ["Anna", "Ben"],
        "deals": [{"winner": "Ben", "points": 2}],
    }
    imported = transfer.import_document(club, document, scoring.Actor(alice))
    page = changes(client.get(reverse("sheet:history", kwargs={"pk": imported.pk})))
    assert page == [["alice2 · Blatt importiert", "Spieler: Anna, Ben · Spiele: 1"]]


def test_a_tournaments_history_reads_cards_draws_pulls_and_results(client):
    club = factories.club()
    bob = factories.user(club, role="organiser", username="bob")
    actor = Actor(bob)
    t = create_tournament(
        club,
        actor,
        name="T",
        starts_at="2026-12-01T19:00:00+01:00",
        cards=8,
        max_cards=2,
        match_bummerl=2,
        entry_fee=5,
        one_prize_per_player=False,
        prizes=[],
    )
    cards = sell_cards(t, "Anna Öhlinger", 2, actor, uuid.uuid4(), paid=False)
    for i in range(4):
        cards += sell_cards(t, f"P{i}", 1, actor, uuid.uuid4(), paid=True)
    set_paid(cards[0], actor, paid=True)
    round_ = start_physical_draw(t, actor)
    add_pull(t, round_.pk, 1, actor)
    pull = AuditEntry.objects.get(scope_id=t.pk, action="pull entered").after
    undo_draw(t, round_.pk, actor)
    draw_round(t, actor, seed=4)
    pairing = Pairing.objects.select_related("tournament").filter(tournament=t, kind="match")[0]
    record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), actor)
    correct_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), actor)
    state = load_state(t)
    left, right = state.cards[pairing.left_id], state.cards[pairing.right_id]
    holder = {c.number: c.player.name for c in state.cards.values()}
    pot = {"left": "links", "right": "rechts"}[pull["pot"]]
    client.force_login(bob)
    url = reverse("tournament_history", kwargs={"slug": club.slug, "tournament_id": t.pk})
    page = changes(client.get(url))
    assert page == [
        [
            "bob · Ergebnis korrigiert",
            f"Vorher: Viertelfinale, Partie {pairing.number}: Karte {left.number} "
            f"({left.player.name}) gewinnt 2:0",
            f"Nachher: Viertelfinale, Partie {pairing.number}: Karte {right.number} "
            f"({right.player.name}) gewinnt 2:1",
        ],
        [
            "bob · Ergebnis eingetragen",
            f"Viertelfinale, Partie {pairing.number}: Karte {left.number} "
            f"({left.player.name}) gewinnt 2:0",
        ],
        ["bob · Runde ausgelost", "Runde 1: 4 Paarungen, Startwert 4"],
        ["bob · Auslosung zurückgenommen", "Runde 1"],
        [
            "bob · Ziehung eingetragen",
            f"Runde 1: Karte {pull['card']} ({holder[pull['card']]}) zieht 1 aus dem Topf {pot}"
            + (", zurückgelegt" if pull["put_back"] else ""),
        ],
        ["bob · Auslosung vor Ort begonnen", "Runde 1"],
        [
            "bob · Zahlung geändert",
            "Vorher: Karte 1 (Anna Öhlinger): nicht bezahlt",
            "Nachher: Karte 1 (Anna Öhlinger): bezahlt",
        ],
        ["bob · Karten verkauft", "Karte 6 → P3, bezahlt"],
        ["bob · Karten verkauft", "Karte 5 → P2, bezahlt"],
        ["bob · Karten verkauft", "Karte 4 → P1, bezahlt"],
        ["bob · Karten verkauft", "Karte 3 → P0, bezahlt"],
        ["bob · Karten verkauft", "Karten 1, 2 → Anna Öhlinger, nicht bezahlt"],
        ["bob · Turnier angelegt", "T: 8 Karten aufgelegt, höchstens 2 je Spieler"],
    ]


def test_an_action_without_a_label_shows_its_code_and_its_fields(client):
    club = factories.club()
    bob = factories.user(club, role="organiser", username="bob2")
    sheet = factories.sheet(club)
    audit.record(
        club.pk, "sheet", sheet.pk, "card withdrawn", actor=None, before=None, after={"card": 5}
    )
    # An entry of an action no writer makes any more (``record`` takes registered ones only).
    AuditEntry.objects.create(
        club=club,
        scope="sheet",
        scope_id=sheet.pk,
        action="dice rolled",
        before={"a": [1, 2]},
        after={"b": True},
    )
    client.force_login(bob)
    page = changes(client.get(reverse("sheet:history", kwargs={"pk": sheet.pk})))
    assert page == [
        ["– · dice rolled", "Vorher: a: 1, 2", "Nachher: b: ja"],
        ["– · Karte zurückgezogen", "Karte: 5"],
        ["– · Tisch eröffnet", "Spieler: Anna, Ben, Clara · Regelwerk: Standard (Wiki)"],
    ]


def recorded_actions() -> set[str]:
    """Every action code passed to ``audit.record`` in the project's code (an ``Action``
    member or a literal, or a name assigned from them in the same module)."""
    found: set[str] = set()
    base = Path(settings.BASE_DIR)
    for path in base.glob("*/**/*.py"):
        if ".venv" in path.parts or "tests" in path.parts or "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        assigned: dict[str, list[ast.AST]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "record"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "audit"
                and len(node.args) >= 4
            ):
                arg = node.args[3]
                sources = assigned.get(arg.id, []) if isinstance(arg, ast.Name) else [arg]
                for source in sources:
                    found |= {
                        n.value
                        for n in ast.walk(source)
                        if isinstance(n, ast.Constant) and isinstance(n.value, str)
                    }
                    found |= {
                        audit.Action[n.attr].value
                        for n in ast.walk(source)
                        if isinstance(n, ast.Attribute)
                        and isinstance(n.value, ast.Name)
                        and n.value.id == "Action"
                    }
    return found


def test_every_recorded_action_has_a_german_label():
    actions = recorded_actions()
    assert {"deal recorded", "deal corrected", "cards sold", "result voided"} <= actions
    assert sorted(actions - set(audit.REGISTRY)) == []
    with translation.override("de-at"):
        untranslated = [code for code, kind in audit.REGISTRY.items() if str(kind.label) == code]
        assert untranslated == []
        assert audit.action_label("deal struck out") == "Spiel gestrichen"


def test_every_action_is_registered_once_and_record_takes_no_other():
    assert set(audit.REGISTRY) == set(audit.Action)
    with pytest.raises(ValueError):
        audit.record(1, "club", 1, "deal recordet", actor=audit.Actor())
    assert audit.reads("result voided") == audit.Reads.RESULT
    assert audit.reads("no such action") == audit.Reads.FIELDS


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_history_fits_a_small_phone_without_sideways_scrolling(live_server, page):
    club = factories.club()
    carl = factories.user(club, role="organiser", username="carl")
    sheet = factories.sheet(club, names=("Maximilian Oberhollenzer-Größwang", "Ben", "Clara"))
    actor = scoring.Actor(carl)
    for _ in range(3):
        scoring.record_entry(sheet, DreierDeal("trumpfringerl", 0, False, 3), uuid.uuid4(), actor)
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(live_server.url + reverse("login"))
    page.locator("input[name=username]").fill("carl")
    page.locator("input[name=password]").fill("pw-carl")
    page.locator("main form button").click()
    page.goto(live_server.url + reverse("sheet:history", kwargs={"pk": sheet.pk}))
    entries = page.locator("ol.audit > li")
    assert entries.count() == 4  # the three deals and the opening of the table
    assert (
        "Trumpfringerl ×8 · Maximilian Oberhollenzer-Größwang · verloren"
        in entries.first.inner_text()
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert entries.first.bounding_box()["height"] < 130  # a few lines, not a column per field
