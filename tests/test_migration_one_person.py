"""The data migration that makes one person one player: players that exist twice in a
club (same name up to case, spacing and Unicode form) are merged into the oldest; two
of one name who sat at one table stay two, the younger renamed "… (2)"."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("clubs", "0001_initial")


@pytest.fixture
def old_apps(transactional_db):
    """The models as they were before the migration: clubs at 0001, the apps that point
    at players (scoring, tournaments) at their latest."""
    executor = MigrationExecutor(connection)
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] in ("scoring", "tournaments")]
    targets = [BEFORE, *others]
    executor.migrate(targets)
    yield executor.loader.project_state(targets).apps
    # Forward again to the latest state, whatever the test did.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def migrate_forward():
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    return executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps


def test_duplicates_are_merged_into_the_oldest_and_the_folded_name_becomes_unique(old_apps):
    Club = old_apps.get_model("clubs", "Club")
    Player = old_apps.get_model("clubs", "Player")
    Sheet = old_apps.get_model("scoring", "Sheet")
    Seat = old_apps.get_model("scoring", "Seat")
    Tournament = old_apps.get_model("tournaments", "Tournament")
    Card = old_apps.get_model("tournaments", "Card")

    club = Club.objects.create(name="Klub", slug="klub")
    other_club = Club.objects.create(name="Anderer", slug="anderer")
    # The old code stored names as typed (stripped, not NFC, any case).
    anna = Player.objects.create(club=club, name="Anna Österreicher", name_key="x")
    anna2 = Player.objects.create(club=club, name="anna  österreicher", name_key="x")
    anna3 = Player.objects.create(club=club, name="ANNA O\u0308STERREICHER", name_key="x")
    ben = Player.objects.create(club=club, name="Ben", name_key="x")
    clara = Player.objects.create(club=club, name="Clara", name_key="x")
    hans = Player.objects.create(club=club, name="Hans Huber", name_key="x")
    junior = Player.objects.create(club=club, name="hans huber", name_key="x")
    elsewhere = Player.objects.create(club=other_club, name="anna österreicher", name_key="x")

    def sheet(*people):
        s = Sheet.objects.create(
            club=club, variant="dreierschnapsen", rules={}, entry_token=f"t{Sheet.objects.count()}"
        )
        for position, person in enumerate(people):
            Seat.objects.create(sheet=s, player=person, position=position)
        return s

    first = sheet(anna, ben, clara)
    second = sheet(anna2, ben, clara)
    third = sheet(anna3, ben, clara)
    together = sheet(hans, junior, ben)  # father and son at one table: two people
    t = Tournament.objects.create(
        club=club,
        name="Preisschnapsen",
        starts_at="2026-11-01T18:00:00Z",
        cards=8,
        public_token="p",
    )
    Card.objects.create(tournament=t, number=1, player=anna)
    Card.objects.create(tournament=t, number=2, player=anna2)
    Card.objects.create(tournament=t, number=3, player=anna3)

    new_apps = migrate_forward()
    Player = new_apps.get_model("clubs", "Player")
    Seat = new_apps.get_model("scoring", "Seat")
    Card = new_apps.get_model("tournaments", "Card")

    assert list(
        Player.objects.filter(club_id=club.pk).order_by("pk").values_list("pk", "name", "name_fold")
    ) == [
        (anna.pk, "Anna Österreicher", "anna österreicher"),
        (ben.pk, "Ben", "ben"),
        (clara.pk, "Clara", "clara"),
        (hans.pk, "Hans Huber", "hans huber"),
        (junior.pk, "hans huber (2)", "hans huber (2)"),
    ]
    assert Player.objects.get(pk=elsewhere.pk).name == "anna österreicher"
    for s in (first, second, third):
        assert Seat.objects.get(sheet_id=s.pk, position=0).player_id == anna.pk
    assert list(Seat.objects.filter(sheet_id=together.pk).values_list("player_id", flat=True)) == [
        hans.pk,
        junior.pk,
        ben.pk,
    ]
    assert (
        list(Card.objects.filter(tournament_id=t.pk).values_list("player_id", flat=True))
        == [anna.pk] * 3
    )
    assert Player.objects.get(pk=anna.pk).name_key == "anna osterreicher"
