"""Each seat keeps its figures (games, Bummerl received, Schneider) as the sheet stands,
through every writer: a deal recorded, corrected or struck out, and an import; the
season rankings sum them in the database."""

import uuid

import pytest

from scoring import services
from scoring.models import Deal, Seat
from scoring.rules import DreierDeal, QuickDeal, TieBreak
from scoring.transfer import import_document
from tests import factories

pytestmark = pytest.mark.django_db


def figures(sheet):
    return [
        (s.player.name, s.games, s.bummerl, s.schneider)
        for s in Seat.objects.filter(sheet=sheet).select_related("player").order_by("position")
    ]


def test_a_schneider_and_a_bummerl_are_kept_on_the_seats():
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    factories.bummerl(sheet, loser=1)
    assert figures(sheet) == [("Anna", 1, 0, 0), ("Ben", 1, 1, 0)]
    factories.bummerl(sheet, loser=0, schneider=True)  # counts 2: the Partie is Ben's
    assert figures(sheet) == [("Anna", 2, 2, 1), ("Ben", 2, 1, 0)]


def test_a_correction_and_a_strike_out_change_the_kept_figures():
    club = factories.club()
    sheet = factories.sheet(club)  # Anna, Ben (first Rufer), Clara
    actor = services.Actor()
    services.record_entry(sheet, DreierDeal("trumpfringerl", 1, True), uuid.uuid4(), actor)
    services.record_entry(sheet, TieBreak(2), uuid.uuid4(), actor)
    assert figures(sheet) == [("Anna", 1, 2, 1), ("Ben", 1, 0, 0), ("Clara", 1, 0, 0)]
    tiebreak = Deal.objects.get(sheet=sheet, kind="tiebreak")
    services.void_deal(sheet, tiebreak.pk, actor)
    assert figures(sheet) == [("Anna", 0, 0, 0), ("Ben", 0, 0, 0), ("Clara", 0, 0, 0)]
    services.record_entry(sheet, TieBreak(0), uuid.uuid4(), actor)
    assert figures(sheet) == [("Anna", 1, 0, 0), ("Ben", 1, 0, 0), ("Clara", 1, 2, 1)]
    live_tb = Deal.objects.live().get(sheet=sheet, kind="tiebreak")
    services.correct_deal(sheet, live_tb.pk, TieBreak(2), uuid.uuid4(), actor)
    assert figures(sheet) == [("Anna", 1, 2, 1), ("Ben", 1, 0, 0), ("Clara", 1, 0, 0)]


def test_an_imported_sheet_keeps_its_figures():
    club = factories.club()
    deals = [{"winner": "Ben", "points": 3}] * 2 + [{"winner": "Ben", "points": 1}]
    sheet = import_document(
        club,
        {"variant": "schnapsen", "rule_set": "wiki", "players": ["Anna", "Ben"], "deals": deals},
        services.Actor(),
    )
    assert figures(sheet) == [("Anna", 1, 2, 1), ("Ben", 1, 0, 0)]


def test_a_quick_deal_that_ends_no_game_keeps_zeros():
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    services.record_entry(sheet, QuickDeal(0, 3), uuid.uuid4(), services.Actor())
    assert figures(sheet) == [("Anna", 0, 0, 0), ("Ben", 0, 0, 0)]


def test_the_migration_fills_the_figures_of_sheets_recorded_before():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0008_seasons_seat_figures")
    club = factories.club()
    sheet = factories.sheet(club, names=("Anna", "Ben"))
    factories.bummerl(sheet, loser=1)
    Seat.objects.filter(sheet=sheet).update(games=0, bummerl=0, schneider=0)
    migration.fill_figures(apps, None)
    assert figures(sheet) == [("Anna", 1, 0, 0), ("Ben", 1, 1, 0)]
