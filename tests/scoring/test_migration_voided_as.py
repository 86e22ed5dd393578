"""The data migration that says how each deal struck before it left the sheet: a deal
another replaces was corrected, every other struck deal was struck out (an undo was
stored as a strike-out), a live deal stays unmarked."""

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = ("scoring", "0010_sheet_fold_as_text")
AFTER = ("scoring", "0011_deal_voided_as")


@pytest.fixture
def old_apps(transactional_db):
    executor = MigrationExecutor(connection)
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != "scoring"]
    executor.migrate([BEFORE, *others])
    yield executor.loader.project_state([BEFORE, *others]).apps
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_struck_deals_are_marked_corrected_or_struck(old_apps):
    Club = old_apps.get_model("clubs", "Club")
    Sheet = old_apps.get_model("scoring", "Sheet")
    Deal = old_apps.get_model("scoring", "Deal")
    club = Club.objects.create(name="Klub", slug="klub")
    sheet = Sheet.objects.create(club=club, variant="schnapsen", rules={}, entry_token="t1")
    now = timezone.now()

    def deal(position, voided=False, replaces=None):
        return Deal.objects.create(
            sheet=sheet,
            position=position,
            kind="quick",
            inputs={"winner": 0, "points": 1},
            points=[1, 0],
            key=uuid.uuid4(),
            voided_at=now if voided else None,
            replaces=replaces,
        )

    corrected = deal(1, voided=True)
    correction = deal(1, replaces=corrected)
    struck = deal(2, voided=True)
    live = deal(2)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != "scoring"]
    executor.migrate([AFTER, *others])
    Deal = executor.loader.project_state([AFTER, *others]).apps.get_model("scoring", "Deal")
    marked = dict(Deal.objects.values_list("pk", "voided_as"))
    assert marked == {
        corrected.pk: "corrected",
        correction.pk: "",
        struck.pk: "struck",
        live.pk: "",
    }
