"""The kept fold becomes JSON text (scoring 0010): a fold kept before is read after the
migration as it was written, and the migration goes back to the JSON field, a sheet
without a kept fold included."""

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from scoring import foldcache, reading
from scoring.models import Sheet
from tests import factories

BEFORE = ("scoring", "0009_fastsheet_fold")


def migrate(*targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(list(targets) or executor.loader.graph.leaf_nodes())
    return executor.loader.project_state(list(targets)).apps if targets else None


@pytest.mark.django_db(transaction=True)
def test_a_fold_kept_as_json_is_read_as_text_after_the_migration_and_back():
    club = factories.club()
    sheet = factories.sheet(club)
    factories.fill(sheet, count=25)
    fresh = factories.sheet(club, names=("Dora", "Emil", "Franz"))
    text = Sheet.objects.get(pk=sheet.pk).fold
    assert Sheet.objects.get(pk=fresh.pk).fold == ""
    try:
        old = migrate(BEFORE).get_model("scoring", "Sheet")
        assert old.objects.get(pk=sheet.pk).fold == json.loads(text)
        assert old.objects.get(pk=fresh.pk).fold == {}
    finally:
        migrate()
    kept = Sheet.objects.get(pk=sheet.pk)
    assert json.loads(kept.fold) == json.loads(text)
    assert foldcache.kept(kept.fold, 0) is not None
    with CaptureQueriesContext(connection) as queries:
        recent = reading.read_recent(kept, reading.load_players(kept))
    assert len(queries) == 3  # the kept fold was used: no whole read
    assert recent.state == reading.recent_part(reading.read_sheet(kept)).state
    again = Sheet.objects.get(pk=fresh.pk)
    assert foldcache.kept(again.fold, 0) is None  # "{}": no fold, made afresh when read
