"""The migration that gives a registration's calendar feed a token of its own: every
existing registration gets a random one, none the same, none its private link's."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = ("tournaments", "0014_public_face")
AFTER = ("tournaments", "0015_registration_feed_token")


@pytest.fixture
def old_apps(transactional_db):
    executor = MigrationExecutor(connection)
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != "tournaments"]
    executor.migrate([BEFORE, *others])
    yield executor.loader.project_state([BEFORE, *others]).apps
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_each_existing_registration_gets_a_feed_token_of_its_own(old_apps):
    Club = old_apps.get_model("clubs", "Club")
    Tournament = old_apps.get_model("tournaments", "Tournament")
    Registration = old_apps.get_model("tournaments", "Registration")
    club = Club.objects.create(name="Klub", slug="klub")
    t = Tournament.objects.create(
        club=club, name="Nacht", starts_at=timezone.now() + datetime.timedelta(days=2), cards=8
    )
    for n, name in enumerate(("Anna", "Ben", "Clara")):
        Registration.objects.create(
            tournament=t,
            name=name,
            name_fold=name.lower(),
            cards=1,
            token=f"tok{n}",
            reference=f"BU-AAAA-AAA{n}",
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    others = [n for n in executor.loader.graph.leaf_nodes() if n[0] != "tournaments"]
    executor.migrate([AFTER, *others])
    new = executor.loader.project_state([AFTER, *others]).apps.get_model(
        "tournaments", "Registration"
    )
    rows = list(new.objects.values_list("token", "feed_token"))
    assert len(rows) == 3
    feeds = {feed for _, feed in rows}
    assert len(feeds) == 3 and all(len(feed) >= 20 for feed in feeds)
    assert not feeds & {token for token, _ in rows}
