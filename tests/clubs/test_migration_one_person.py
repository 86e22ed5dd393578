"""The data migration that makes one person one player: players that exist twice in a
club (same name up to case, spacing and Unicode form) are merged into the oldest; two
of one name who sat at one table stay two, the younger renamed "… (2)"."""

import unicodedata

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


# -- 0005: invisible characters and full-width letters --------------------------------------

BEFORE_LOOK_ALIKES = ("clubs", "0004_invitation")


@pytest.fixture
def apps_before_look_alikes(transactional_db):
    """The models as they were when names kept invisible characters (clubs at 0004)."""
    executor = MigrationExecutor(connection)
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] in ("scoring", "tournaments")]
    targets = [BEFORE_LOOK_ALIKES, *others]
    executor.migrate(targets)
    yield executor.loader.project_state(targets).apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def old_fold(name):
    """The identity as 0002 computed it (NFC, case folded), stored by the old code."""
    return unicodedata.normalize("NFC", " ".join(name.split()).casefold())


def test_look_alike_players_are_merged_and_every_key_is_computed_again(apps_before_look_alikes):
    old_apps = apps_before_look_alikes
    Club = old_apps.get_model("clubs", "Club")
    Player = old_apps.get_model("clubs", "Player")
    Sheet = old_apps.get_model("scoring", "Sheet")
    Seat = old_apps.get_model("scoring", "Seat")
    Tournament = old_apps.get_model("tournaments", "Tournament")
    Card = old_apps.get_model("tournaments", "Card")

    def player(name):
        return Player.objects.create(club=club, name=name, name_fold=old_fold(name), name_key="x")

    club = Club.objects.create(name="Klub", slug="klub")
    brigitte = player("Brigitte Öhlinger")
    hidden = player("Brigitte Öhlinger\u200b")
    soft = player("Brigitte Öh\u00adlinger")
    anna = player("Anna")
    wide = player("\uff21\uff4e\uff4e\uff41")  # "Ａｎｎａ"
    ben = player("Ben")
    nobody = player("\u200b")  # renamed to nothing visible by the old code
    clara = player("Clara")

    def sheet(*people):
        s = Sheet.objects.create(
            club=club, variant="dreierschnapsen", rules={}, entry_token=f"t{Sheet.objects.count()}"
        )
        for position, person in enumerate(people):
            Seat.objects.create(sheet=s, player=person, position=position)
        return s

    first = sheet(hidden, ben, clara)
    together = sheet(anna, wide, ben)  # two people who look alike, at one table
    t = Tournament.objects.create(
        club=club,
        name="Preisschnapsen",
        starts_at="2026-11-01T18:00:00Z",
        cards=8,
        public_token="p",
    )
    for number, holder in enumerate((brigitte, hidden, soft), start=1):
        Card.objects.create(tournament=t, number=number, player=holder)

    new_apps = migrate_forward()
    Player = new_apps.get_model("clubs", "Player")
    Seat = new_apps.get_model("scoring", "Seat")
    Card = new_apps.get_model("tournaments", "Card")

    assert list(
        Player.objects.filter(club_id=club.pk).order_by("pk").values_list("pk", "name", "name_fold")
    ) == [
        (brigitte.pk, "Brigitte Öhlinger", "brigitte öhlinger"),
        (anna.pk, "Anna", "anna"),
        (wide.pk, "\uff21\uff4e\uff4e\uff41 (2)", "anna (2)"),
        (ben.pk, "Ben", "ben"),
        (nobody.pk, f"Spieler {nobody.pk} (ohne Namen)", f"spieler {nobody.pk} (ohne namen)"),
        (clara.pk, "Clara", "clara"),
    ]
    assert Seat.objects.get(sheet_id=first.pk, position=0).player_id == brigitte.pk
    assert list(
        Seat.objects.filter(sheet_id=together.pk).order_by("position").values_list("player_id")
    ) == [(anna.pk,), (wide.pk,), (ben.pk,)]
    assert list(Card.objects.filter(tournament_id=t.pk).values_list("player_id", flat=True)) == (
        [brigitte.pk] * 3
    )
    assert Player.objects.get(pk=brigitte.pk).name_key == "brigitte ohlinger"


def test_migrating_another_database_leaves_the_default_one_as_it_was(transactional_db, tmp_path):
    """The data migrations read and write the database being migrated, never the default
    one: a restore builds its scratch copy this way while the site keeps running."""
    from django.db import connections
    from django.db.utils import load_backend

    from clubs.models import Club, Player

    club = Club.objects.create(name="Verein", slug="verein")
    player = Player.objects.create(club=club, name="Anna", name_fold="anna", name_key="anna")
    # Stored as an older version would have: two spaces, not yet cleaned.
    Player.objects.filter(pk=player.pk).update(name="Anna  Maria")
    config = {**connections["default"].settings_dict}
    config.update(ENGINE="django.db.backends.sqlite3", NAME=str(tmp_path / "other.sqlite3"))
    config["OPTIONS"] = {}
    other = load_backend(config["ENGINE"]).DatabaseWrapper(config, "other")
    connections["other"] = other
    try:
        executor = MigrationExecutor(other)
        executor.migrate(executor.loader.graph.leaf_nodes())
    finally:
        other.close()
        del connections["other"]
    assert Player.objects.get(pk=player.pk).name == "Anna  Maria"
