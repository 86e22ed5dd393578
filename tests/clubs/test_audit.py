"""The audit trail: every change of a deal, a result, a draw or a card is kept with
who, when, and the values before and after; organisers see it per sheet and tournament."""

import uuid

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from scoring import services as scoring
from scoring.models import Deal
from scoring.rules import DreierDeal
from scoring.services import Actor
from tests import factories
from tournaments.models import Pairing
from tournaments.services.cards import create_tournament, sell_cards, set_paid
from tournaments.services.draws import draw_round
from tournaments.services.physical_draws import start_physical_draw
from tournaments.services.results import correct_result, record_result
from tournaments.services.sheets import open_match_sheet

pytestmark = pytest.mark.django_db


def test_deals_recorded_corrected_and_struck_out_are_audited(client):
    club = factories.club()
    alice = factories.user(club, role="organiser")
    sheet = factories.sheet(club)
    actor = scoring.Actor(alice)
    scoring.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), actor)
    deal = Deal.objects.get(sheet=sheet)
    scoring.correct_deal(
        sheet, deal.pk, DreierDeal("gang", 0, False), uuid.uuid4(), scoring.Actor(via_link=True)
    )
    new = Deal.objects.get(sheet=sheet, voided_at__isnull=True)
    scoring.void_deal(sheet, new.pk, actor)
    entries = list(AuditEntry.objects.filter(scope="sheet", scope_id=sheet.pk).order_by("at", "id"))
    assert [e.action for e in entries] == [
        "sheet opened",
        "deal recorded",
        "deal corrected",
        "deal struck out",
    ]
    entries = entries[1:]  # after the opening (tests/test_audit_writers.py)
    assert entries[0].actor == alice and entries[0].after["points"] == [9, 0, 0]
    assert entries[1].via_link and entries[1].before["points"] == [9, 0, 0]
    assert entries[1].after["points"] == [0, 9, 9]
    assert entries[2].before["points"] == [0, 9, 9] and entries[2].after is None
    client.force_login(alice)
    page = client.get(reverse("sheet:history", kwargs={"pk": sheet.pk}))
    assert page.status_code == 200 and "Spiel korrigiert" in page.content.decode()
    client.force_login(factories.user(club, role="scorer"))
    assert client.get(reverse("sheet:history", kwargs={"pk": sheet.pk})).status_code == 403


def test_sales_payments_draws_and_results_are_audited(client):
    club = factories.club()
    bob = factories.user(club, role="organiser")
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
    cards = []
    for i in range(6):
        cards += sell_cards(t, f"P{i}", 1, actor, uuid.uuid4(), paid=False)
    set_paid(cards[0], actor, paid=True)
    draw_round(t, actor, seed=4)
    pairing = (
        Pairing.objects.select_related("tournament").filter(tournament=t, kind="match").first()
    )
    record_result(pairing, pairing.left_id, "2:0", uuid.uuid4(), actor)
    correct_result(pairing, pairing.right_id, "2:1", uuid.uuid4(), actor)
    actions = list(
        AuditEntry.objects.filter(scope="tournament", scope_id=t.pk)
        .order_by("at", "id")
        .values_list("action", flat=True)
    )
    assert actions == ["tournament created"] + ["cards sold"] * 6 + [
        "card paid",
        "round drawn",
        "result recorded",
        "result corrected",
    ]
    corrected = AuditEntry.objects.filter(
        scope="tournament", scope_id=t.pk, action="result corrected"
    ).get()
    assert corrected.before["score"] == "2:0" and corrected.after["score"] == "2:1"
    client.force_login(bob)
    page = client.get(
        reverse("tournament_history", kwargs={"slug": club.slug, "tournament_id": t.pk})
    )
    assert page.status_code == 200 and "Ergebnis korrigiert" in page.content.decode()


def test_a_tournament_created_is_audited_with_its_cards(db):
    club = factories.club()
    t = factories.tournament(club, cards=16, max_cards=2)
    (entry,) = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk)
    assert (entry.action, entry.before) == ("tournament created", None)
    assert entry.after == {"name": "Test", "cards": 16, "max_cards": 2, "match_bummerl": 2}


def test_a_draw_started_at_the_venue_is_audited_with_its_round(db):
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=5)
    start_physical_draw(t, Actor(factories.user(club)))
    entry = AuditEntry.objects.filter(scope="tournament", scope_id=t.pk).latest("id")
    assert (entry.action, entry.after) == ("draw started", {"round": 1})


def test_a_match_sheet_is_audited_once_when_it_is_opened(db):
    factories.presets()
    club = factories.club()
    t = factories.tournament(club, cards=8, sold=8)
    round_ = draw_round(t, Actor(), seed=1)
    pairing = Pairing.objects.filter(round=round_, kind="match").first()
    sheet = open_match_sheet(pairing, Actor(factories.user(club)))
    assert open_match_sheet(pairing, Actor()).pk == sheet.pk  # made once: nothing written
    (entry,) = AuditEntry.objects.filter(scope_id=t.pk, action="match sheet opened")
    assert entry.after == {"pairing": pairing.number, "round": 1, "sheet": sheet.pk}


def test_renewing_and_revoking_the_table_link_is_kept_without_the_link(client):
    club = factories.club()
    organiser = factories.user(club, role="organiser")
    sheet = factories.sheet(club)
    client.force_login(organiser)
    for action in ("renew", "revoke", "revoke"):  # the second revoke changes nothing
        client.post(reverse("sheet:link_change", kwargs={"pk": sheet.pk, "action": action}))
    entries = AuditEntry.objects.filter(scope="sheet", scope_id=sheet.pk).order_by("id")
    assert [(e.action, e.actor_id, e.before, e.after) for e in entries][1:] == [
        ("link renewed", organiser.pk, None, None),
        ("link revoked", organiser.pk, None, None),
    ]
    sheet.refresh_from_db()
    page = client.get(reverse("sheet:history", kwargs={"pk": sheet.pk})).content.decode()
    assert "Tisch-Link erneuert" in page and "Tisch-Link gesperrt" in page
    assert sheet.entry_token not in page
