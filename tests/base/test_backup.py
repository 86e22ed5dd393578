"""`manage.py backup` / `manage.py restore`: one consistent snapshot, a file checked in a
scratch database before it replaces anything, the data before kept, owner-only files."""

import datetime as dt
import gzip
import io
import json
import os
import queue
import stat
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from base.backups import MicrosecondEncoder, backed_up_models, iter_objects
from clubs import audit, invitations
from clubs.models import Category, Club
from cups import persons
from cups import services as cup_services
from scoring import services as scoring_services
from scoring import upkeep
from scoring.rules import Redeal, RuleError
from seasons import ranking
from seasons import services as season_services
from tests import factories
from tournaments.models import Card, Pairing, Report, TieBreak
from tournaments.services.cards import sell_cards
from tournaments.simulation import simulate

pytestmark = pytest.mark.django_db(transaction=True)

User = get_user_model()


def canonical(obj: dict) -> str:
    return json.dumps(obj, cls=MicrosecondEncoder, sort_keys=True, ensure_ascii=False)


def rows() -> list[str]:
    """Every backed-up row, serialized as in a backup file, in one sorted list."""
    return sorted(canonical(obj) for obj in iter_objects())


def everything() -> dict:
    """The whole database as a test sees it: the rows, the users' ids, the sessions."""
    return {
        "rows": rows(),
        "users": sorted(User.objects.values_list("pk", "username")),
        "sessions": sorted(Session.objects.values_list("session_key", flat=True)),
    }


def populate() -> Club:
    """At least one row of every backed-up model."""
    club = factories.club()
    owner = factories.user(club, role="owner", username="olga")
    group = Group.objects.create(name="Kassa")
    group.permissions.add(Permission.objects.get(codename="view_club"))
    owner.groups.add(group)
    factories.presets()
    sheet = factories.sheet(club)
    scoring_services.record_entry(sheet, Redeal(), factories.key(), scoring_services.Actor(owner))
    upkeep.archive_sheet(sheet, scoring_services.Actor(owner))  # clubs.archived
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1)
    ladies = Category.objects.create(club=club, name="Damen")
    ladies.players.add(Card.objects.filter(tournament=t).first().player)
    pairing = Pairing.objects.filter(tournament=t, kind="match").first()
    TieBreak.objects.create(
        tournament=t, first=5, kind="lot", order=[pairing.left_id, pairing.right_id], seed=3
    )
    Report.objects.create(
        pairing=pairing,
        side="left",
        winner_id=pairing.left_id,
        score="2:1",
        key=uuid.uuid4(),
        closed_at=timezone.now(),
        outcome="set_aside",
    )
    factories.announced_registration(club)  # tournaments.registration (issue 28)
    invitations.create_invitation(club, "member", owner)
    season_services.save_season(
        club, "2026", dt.date(2026, 1, 1), dt.date(2026, 12, 31), audit.by(owner), uuid.uuid4()
    )
    season_services.save_settings(
        club,
        points_key=ranking.parse_key("1: 25\n2-8: 10"),
        participation=1,
        min_games=5,
        pick="both",
        public=False,
        actor=audit.by(owner),
        key=uuid.uuid4(),
    )
    body = factories.body(owner, clubs=[club], public_lists=False)  # cups.body, cups.member
    cup_services.invite_admin(body, factories.user().username, actor=audit.by(owner))
    cup_services.count_night(factories.cup(body), t, actor=audit.by(owner))  # cups.cup, .night
    persons.link_player(
        body, Card.objects.filter(tournament=t).first().player, None, actor=audit.by(owner)
    )
    Session.objects.create(
        session_key="s" * 32, session_data="x", expire_date=timezone.now() + timezone.timedelta(1)
    )
    return club


def read(path: Path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return json.load(stream)


def write(path: Path, document) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as stream:
        json.dump(document, stream)
    return path


def backup(path=None) -> Path:
    out = io.StringIO()
    call_command("backup", *([str(path)] if path else []), stdout=out)
    text = out.getvalue().strip()
    assert text.startswith("Backup written to ")
    return Path(text.removeprefix("Backup written to ").rsplit(" (", 1)[0])


def refused(path, match: str) -> str:
    with pytest.raises(CommandError, match=match) as error:
        call_command("restore", str(path), stdout=io.StringIO())
    message = str(error.value)
    assert "\n" not in message
    return message


# -- Backup files -------------------------------------------------------------------------


def test_backup_file_and_folder_are_owner_only(folder):
    populate()
    old = os.umask(0o022)
    try:
        path = backup()
    finally:
        os.umask(old)
    assert path.parent == folder
    assert path.name.startswith("bummerl-") and path.name.endswith(".json.gz")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in folder.iterdir()] == [path.name]  # no temporary file left


def test_backup_refuses_to_overwrite_a_file(folder, tmp_path):
    populate()
    path = backup(tmp_path / "x.json.gz")
    before = path.read_bytes()
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(path), stdout=io.StringIO())
    assert path.read_bytes() == before
    with pytest.raises(CommandError, match="x.json.gz: cannot be written"):
        call_command("backup", str(path / "y.json.gz"), stdout=io.StringIO())


def test_backup_holds_every_row_with_microseconds(folder):
    populate()
    path = backup()
    document = read(path)
    assert document["format"] == "bummerl-backup"
    assert sorted(canonical(obj) for obj in document["objects"]) == rows()
    labels = {obj["model"] for obj in document["objects"]}
    assert labels == {m._meta.label_lower for m in backed_up_models()}
    assert not labels & {"contenttypes.contenttype", "auth.permission", "sessions.session"}
    assert not any(label.startswith(("axes.", "admin.")) for label in labels)
    card = Card.objects.order_by("pk").first()
    stored = next(o for o in document["objects"] if o["model"] == "tournaments.card")
    assert stored["fields"]["sold_at"] == card.sold_at.isoformat()
    assert len(stored["fields"]["sold_at"].split("+")[0].split(".")[1]) == 6


# -- Restores that are refused ------------------------------------------------------------


def test_restore_missing_file_changes_nothing(folder, tmp_path):
    populate()
    was = everything()
    refused(tmp_path / "nicht-da.json.gz", "nicht-da.json.gz: no such file")
    assert everything() == was
    assert not folder.exists() or not list(folder.iterdir())


def test_restore_command_exits_non_zero_with_one_line(tmp_path):
    run = subprocess.run(
        [sys.executable, "manage.py", "restore", str(tmp_path / "nicht-da.json.gz")],
        cwd=django_settings.BASE_DIR,
        capture_output=True,
        text=True,
        env=os.environ | {"SQLITE_PATH": str(tmp_path / "unused.sqlite3")},
    )
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"CommandError: Restore refused: {tmp_path / 'nicht-da.json.gz'}: no such file"
    ]


def test_restore_truncated_gzip_changes_nothing(folder, tmp_path):
    populate()
    good = backup().read_bytes()
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(good[: len(good) // 2])
    was = everything()
    refused(cut, "damaged or incomplete gzip file")
    assert everything() == was
    assert len(list(folder.iterdir())) == 1  # no before-file for a refused file


FOREIGN = {
    "text": (b"Das ist keine Sicherung.\n", "not a Bummerl backup \\(no JSON"),
    "dumpdata-fixture": (
        json.dumps([{"model": "clubs.club", "pk": 1, "fields": {"name": "A", "slug": "a"}}]),
        "not a Bummerl backup \\(not written by `manage.py backup`\\)",
    ),
    "other-app": (  # another app's rows under a backup's header
        json.dumps(
            {
                "format": "bummerl-backup",
                "version": 1,
                "migrations": [],
                "objects": [{"model": "axes.accessattempt", "pk": 1, "fields": {}}],
            }
        ),
        "object 1 \\('axes.accessattempt'\\) is not a row a Bummerl backup holds",
    ),
    "unknown-model": (
        json.dumps({"format": "bummerl-backup", "version": 1, "objects": [{"model": "x"}]}),
        "object 1 \\('x'\\) is not a row",
    ),
    "newer-schema": (
        json.dumps(
            {
                "format": "bummerl-backup",
                "version": 1,
                "migrations": ["clubs.9999_from_the_future"],
                "objects": [],
            }
        ),
        "newer version of Bummerl \\(migration clubs.9999_from_the_future is unknown\\)",
    ),
}


def test_restore_foreign_files_change_nothing(folder, tmp_path):
    populate()
    was = everything()
    for name, (content, match) in FOREIGN.items():
        path = tmp_path / f"{name}.json.gz"
        path.write_bytes(gzip.compress(content if isinstance(content, bytes) else content.encode()))
        refused(path, match)
        assert everything() == was, name
    assert not folder.exists() or not list(folder.iterdir())


def first(objects, model) -> dict:
    return next(obj for obj in objects if obj["model"] == model)


def to_nowhere(objects):
    """A card of a player who is not in the file (a broken foreign key)."""
    first(objects, "tournaments.card")["fields"]["player"] = 999_999


def to_stranger(objects):
    """A membership of a user who is not in the file (by natural key)."""
    first(objects, "clubs.membership")["fields"]["user"] = ["niemand"]


def same_slug(objects):
    """Two clubs with one short name (a unique field)."""
    clubs = [obj for obj in objects if obj["model"] == "clubs.club"]
    clubs[1]["fields"]["slug"] = clubs[0]["fields"]["slug"]


def two_results(objects):
    """Two live results for one match (a conditional unique constraint)."""
    results = [o for o in objects if o["model"] == "tournaments.result"]
    assert all(o["fields"]["voided_at"] is None for o in results[:2])
    results[1]["fields"]["pairing"] = results[0]["fields"]["pairing"]


def negative(objects):
    """A tournament of -8 cards (a check constraint: a positive integer)."""
    first(objects, "tournaments.tournament")["fields"]["cards"] = -8


EDITS = [
    (to_nowhere, "edited.json.gz", "does not load \\(IntegrityError: .*\\); nothing was changed"),
    (to_stranger, "edited.json", "does not load \\(DeserializationError: .*niemand"),
    (same_slug, "edited.json.gz", "does not load \\(IntegrityError: .*slug"),
    (two_results, "edited.json.gz", "does not load \\(IntegrityError: "),
    (negative, "edited.json.gz", "does not load \\(IntegrityError: "),
]


def test_restore_hand_edited_files_change_nothing(folder, tmp_path):
    """Each edit breaks a foreign key or a constraint; the file is refused in the
    scratch database and the live rows stay as they were (no before-file either)."""
    populate()
    factories.club()
    good = read(backup())
    was = everything()
    for change, name, match in EDITS:
        document = json.loads(json.dumps(good))
        change(document["objects"])
        path = tmp_path / name
        if name.endswith(".gz"):
            write(path, document)
        else:
            path.write_text(json.dumps(document), encoding="utf-8")
        refused(path, match)
        assert everything() == was, change.__name__
    assert len(list(folder.iterdir())) == 1  # the good backup only


# -- A restore that replaces the data -----------------------------------------------------


def test_restore_replaces_data_and_keeps_the_data_before(folder):
    club = populate()
    saved = rows()
    path = backup()
    # the data moves on after the backup: a new club, a player renamed, a sale
    factories.club(name="Später")
    club.players.filter(name="Anna").update(name="Anna Maria")
    sell_cards(factories.tournament(club), "Neu", 1, scoring_services.Actor(), paid=True)
    later = rows()
    assert later != saved
    users = dict(User.objects.values_list("username", "pk"))

    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    text = out.getvalue().strip()
    before = Path(text.split("The data before the restore is in ")[1].rstrip("."))
    assert text.startswith(f"Restored {len(saved)} objects from {path}.")

    assert rows() == saved
    assert Session.objects.count() == 0  # sessions name users by id: signed out
    assert Permission.objects.filter(codename="view_club").exists()
    assert User.objects.get(username="olga").groups.get().permissions.get().codename == (
        "view_club"
    )
    assert set(User.objects.values_list("username", flat=True)) == set(users)
    assert before.parent == folder and before.name.startswith("bummerl-before-restore-")
    assert stat.S_IMODE(before.stat().st_mode) == 0o600
    assert sorted(canonical(obj) for obj in read(before)["objects"]) == later

    # the database goes on: new rows get fresh ids (sequences follow the restored ids)
    scoring_services.record_entry(
        factories.sheet(club, names=("X", "Y", "Z")),
        Redeal(),
        factories.key(),
        scoring_services.Actor(),
    )
    # and the before-file puts the later state back
    call_command("restore", str(before), stdout=io.StringIO())
    assert rows() == later


# -- A backup taken while the site is in use ----------------------------------------------


def references_resolve(objects: list[dict]) -> None:
    """Every foreign key in ``objects`` points at an object in ``objects``."""
    models = {m._meta.label_lower: m for m in backed_up_models()}
    present = {(obj["model"], obj.get("pk")) for obj in objects}
    usernames = {obj["fields"]["username"] for obj in objects if obj["model"] == "auth.user"}
    for obj in objects:
        for field in models[obj["model"]]._meta.concrete_fields:
            value = obj["fields"].get(field.name)
            if not field.is_relation or value is None:
                continue
            target = field.related_model._meta.label_lower
            if target == "auth.user":
                assert value[0] in usernames, (obj, field.name)
            else:
                assert (target, value) in present, (obj, field.name)


def test_backup_under_writes_is_one_state_and_restores_exactly(folder):
    """Another connection sells a card (a new player with it) or records a deal after
    each query the backup makes: the file is the database as it was when the backup
    began, however the writes fall between its reads of the tables."""
    club = populate()
    fair = factories.tournament(club, cards=512, max_cards=1)
    sheet = factories.sheet(club, names=("Doris", "Emil", "Fritz"))
    at_start = rows()
    asked, answered = queue.Queue(), queue.Queue()

    def writer():
        try:
            for step in iter(asked.get, None):
                if step % 2:
                    sell_cards(fair, f"Gast {step}", 1, scoring_services.Actor(), paid=True)
                else:
                    scoring_services.record_entry(
                        sheet, Redeal(), uuid.uuid4(), scoring_services.Actor()
                    )
                answered.put(None)
        except Exception as error:  # reported in the test's thread
            answered.put(error)
        finally:
            connection.close()

    writes = []

    def write_after(execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().upper().startswith("SELECT") and len(writes) < 100:
            writes.append(sql)
            asked.put(len(writes))
            assert answered.get(timeout=30) is None
        return result

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        with connection.execute_wrapper(write_after):
            path = backup()
    finally:
        asked.put(None)
        thread.join(60)
    assert len(writes) >= 15  # one after each table's read at least
    assert {"clubs_player", "tournaments_card", "scoring_deal", "clubs_auditentry"} <= {
        table for table in connection.introspection.table_names() if f'"{table}"' in str(writes)
    }
    assert Card.objects.filter(tournament=fair).count() == (len(writes) + 1) // 2
    assert rows() != at_start

    objects = read(path)["objects"]
    references_resolve(objects)
    in_file = sorted(canonical(obj) for obj in objects)
    assert in_file == at_start

    call_command("flush", interactive=False, verbosity=0)
    assert rows() == []
    call_command("restore", str(path), stdout=io.StringIO())
    assert rows() == at_start
    # new rows get ids after the restored ones (the sequences were set past them)
    sell_cards(fair, "Nachher", 1, scoring_services.Actor(), paid=True)
    factories.club(name="Nachher")


def test_restores_while_phones_record_deals_go_through(folder):
    """Two tables record deals without a pause while the database is restored four
    times: every restore goes through (on PostgreSQL a try that would wait in a circle
    with a deal gives way and is begun again), and no deal fails but by the rules (a
    deal typed on a sheet the restore put back may not fit it any more)."""
    club = factories.club()
    sheets = [factories.sheet(club, names=(f"A{n}", f"B{n}", f"C{n}")) for n in range(2)]
    path = backup()
    stop, errors, recorded = threading.Event(), [], [0, 0]

    def phone(n: int) -> None:
        try:
            while not stop.is_set():
                try:
                    scoring_services.record_entry(
                        sheets[n],
                        factories.next_entry(sheets[n]),
                        uuid.uuid4(),
                        scoring_services.Actor(),
                    )
                    recorded[n] += 1
                except RuleError:
                    pass
        except Exception as error:  # reported in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    answers = []
    try:
        for _ in range(4):
            out = io.StringIO()
            call_command("restore", str(path), stdout=out)
            answers.append(out.getvalue())
            time.sleep(0.2)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    assert errors == []
    assert len(answers) == 4 and all("Restored" in answer for answer in answers), answers
    assert min(recorded) > 0
