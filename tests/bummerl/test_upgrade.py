"""Upgrading a club's server (README "Upgrading", ``bummerl/upgrade.py``): from each tagged
release, a clone of the project at that tag with its own virtualenv, demo data and
finished night is pulled to this commit and upgraded with ``make upgrade``, as a club
does; everything stays and reads. Where it cannot go on, the upgrade refuses and changes
nothing."""

import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tomllib
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

import bummerl
from bummerl.releases import RELEASES, Release, code_migrations, code_version, last_migrations
from bummerl.upgrade import Upgrade

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_one_in_the_code_the_package_and_the_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == bummerl.__version__
    changelog = (ROOT / "CHANGELOG.md").read_text()
    first = next(line for line in changelog.splitlines() if line.startswith("## "))
    assert first.startswith(f"## {bummerl.__version__} ")
    for release in RELEASES:
        assert f"## {release.version} " in changelog
        assert release.tag == f"v{release.version}"


def test_no_two_releases_end_at_the_same_migrations():
    """``make upgrade`` knows a database's release by its last migrations alone."""
    ends = [tuple(sorted(release.migrations.items())) for release in RELEASES]
    assert len(set(ends)) == len(RELEASES)


def test_each_release_s_migrations_are_in_this_code_and_in_its_commit():
    code = code_migrations(ROOT)
    for release in RELEASES:
        for app, name in release.migrations.items():
            assert name in code[app], (release.version, app, name)
        listed = subprocess.run(
            ["git", "ls-tree", "-r", "--name-only", release.commit],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if listed.returncode != 0:
            continue  # not a git checkout (an unpacked archive): the heavy test skips too
        shipped: dict[str, list[str]] = {}
        for path in map(Path, listed.stdout.splitlines()):
            if len(path.parts) == 3 and path.parts[1] == "migrations" and path.name[0] == "0":
                shipped.setdefault(path.parts[0], []).append(path.stem)
        assert last_migrations(shipped) == release.migrations, release.version


def test_each_release_s_tag_where_there_is_one_names_its_commit():
    for release in RELEASES:
        tagged = subprocess.run(
            ["git", "rev-parse", "-q", "--verify", f"refs/tags/{release.tag}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        if tagged.returncode == 0:
            assert tagged.stdout.strip() == release.commit, release.tag


# -- a club's project folder ------------------------------------------------------------


def git(*args, cwd):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def has_commit(commit):
    found = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT)
    return found.returncode == 0


def club_env(**more):
    """The environment of a club's shell: none of the test run's own settings."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "SQLITE_", "BUMMERL_", "MAKE", "PYTEST"))
        and key not in {"DATABASE_URL", "MFLAGS", "VIRTUAL_ENV", "ENV_FILE"}
    }
    return env | more


def make(folder, *args, env):
    done = subprocess.run(["make", *args], cwd=folder, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def manage(folder, *args, env):
    key = folder / ".secret_key"  # 0.1.0 made none: it ran in debug mode without
    done = subprocess.run(
        [str(folder / ".venv" / "bin" / "python"), "manage.py", *args],
        cwd=folder,
        env=env | ({"DJANGO_SECRET_KEY": key.read_text().strip()} if key.exists() else {}),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def snippet(folder, *parts, env):
    """The parts run in one ``manage.py shell``; each puts what it read in ``out``."""
    code = "\n".join(("import json\nout = {}", *parts, "print(json.dumps(out))"))
    return json.loads(manage(folder, "shell", "-v", "0", "-c", code, env=env))


@pytest.fixture
def club_database():
    """A PostgreSQL database of the club's own when the tests run on PostgreSQL (its
    URL), else None (the club's SQLite file in its project folder)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield None
        return
    import psycopg

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/')}_club"
    server = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')
    yield urlunsplit(parts._replace(path=f"/{name}"))
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- what the test reads, through the release's code and through this one --------------

COUNT = (
    "from django.apps import apps\n"
    "out['count'] = {m._meta.label: m.objects.count() for m in apps.get_models()"
    " if m._meta.app_label in ('auth', 'clubs', 'scoring', 'tournaments', 'seasons')"
    " and m._meta.label != 'auth.Permission'}\n"  # migrate makes one per new model
)
FIELDS = (
    "from django.apps import apps\n"
    "out['fields'] = {m._meta.label_lower: sorted(f.name for f in"
    " [*m._meta.local_fields, *m._meta.local_many_to_many] if f.serialize)"
    " for m in apps.get_models()}\n"
)
"""The fields a backup by this code writes of each model."""
REGISTER = (
    "from tournaments.models import Registration, Tournament\n"
    "t = Tournament.objects.order_by('pk').first()\n"
    "for name in ('Rosa', 'Udo'):\n"
    "    Registration.objects.create(tournament=t, name=name, name_fold=name.lower(), cards=1)\n"
)
READ = """
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from clubs.models import Club
from ratings.models import Rating
from scoring.models import Sheet
from tournaments.models import Round, Tournament
from tournaments.services.reading import load_state

client = Client()
client.force_login(get_user_model().objects.get(username="demo"))
wrong, finished, pdfs = [], [], 0

def read(url, pdf=False):
    global pdfs
    answer = client.get(url, secure=True)
    if answer.status_code != 200:
        wrong.append((url, answer.status_code))
    elif pdf:
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        if body.startswith(b"%PDF"):
            pdfs += 1
        else:
            wrong.append((url, answer["Content-Type"]))

for club in Club.objects.all():
    slug = {"slug": club.slug}
    for name in ("club", "players", "rule_sets", "tournaments", "ratings:list"):
        read(reverse(name, kwargs=slug))
    for player in club.players.all():
        read(reverse("player", kwargs={**slug, "player_id": player.pk}))
    for sheet in Sheet.objects.filter(club=club):
        read(reverse("sheet:page", kwargs={"pk": sheet.pk}))
        read(reverse("sheet:print_summary", kwargs={"pk": sheet.pk}), pdf=True)
    for t in Tournament.objects.filter(club=club):
        state = load_state(t)
        assert [x.place for x in state.prize_lines] == sorted(int(p["place"]) for p in t.prizes)
        if state.drawn and not state.still_playing():
            finished.append(t.pk)
        night = {**slug, "tournament_id": t.pk}
        for name in ("tournament", "tournament_export", "seats", "tournament_ranking"):
            read(reverse(name, kwargs=night))
        for number in Round.objects.filter(tournament=t).values_list("number", flat=True):
            read(reverse("round", kwargs={**night, "number": number}))
        read(reverse("print_prizes", kwargs=night), pdf=True)
        for name in ("bracket", "room_screen", "public_seats", "verify_draws"):
            read(reverse(name, kwargs={"token": t.public_token}))
out["read"] = {"wrong": wrong, "finished": finished, "pdfs": pdfs,
               "ratings": Rating.objects.count()}
"""
REFERENCES = (
    "from tournaments.models import Registration\n"
    "out['references'] = list(Registration.objects.values_list('reference', flat=True))\n"
)


@pytest.mark.heavy
@pytest.mark.parametrize("release", RELEASES, ids=lambda r: r.tag)
def test_make_upgrade_takes_a_club_from_each_release_to_this_one(
    release: Release, tmp_path, club_database
):
    if not has_commit(release.commit):
        pytest.skip(f"the commit of {release.tag} is not in this clone (git fetch --unshallow)")
    club = tmp_path / "club"
    git("clone", "-q", str(ROOT), str(club), cwd=tmp_path)
    git("checkout", "-q", release.commit, cwd=club)
    settings = {"DJANGO_ALLOWED_HOSTS": "testserver"}
    if club_database:
        settings["DATABASE_URL"] = club_database
    env = club_env(**settings)

    # the release as the club installed and used it: its venv, its demo club and nights
    code, out = make(club, "seed", env=env)
    assert code == 0, out
    registrations = release.migrations["tournaments"] >= "0013_registrations"
    old = snippet(club, *([REGISTER] if registrations else []), COUNT, FIELDS, env=env)
    before, old_fields = old["count"], old["fields"]

    # git pull, then make upgrade with the settings in the server's environment file
    git("fetch", "-q", str(ROOT), "HEAD", cwd=club)
    git("checkout", "-q", "FETCH_HEAD", cwd=club)
    env_file = tmp_path / "bummerl.env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    code, out = make(club, "upgrade", env=club_env(ENV_FILE=str(env_file)))
    assert code == 0, out
    assert f"Bummerl before: {release.version}\n" in out
    assert f"Bummerl now: {code_version(club)}\n" in out
    assert ("manage.py rerate" in out) == ("ratings" not in release.migrations)

    # the backup, made first, by the release's own code
    (backup,) = (club / "backups").glob("bummerl-*.json.gz")
    document = json.loads(gzip.decompress(backup.read_bytes()))
    applied: dict[str, list[str]] = {}
    for migration in document["migrations"]:
        app, name = migration.split(".", 1)
        applied.setdefault(app, []).append(name)
    assert {app: last_migrations(applied)[app] for app in release.migrations} == (
        release.migrations
    )
    assert set(applied) & {"ratings", "cups", "base"} <= set(release.migrations)
    assert document["objects"]
    for obj in document["objects"]:
        assert set(obj["fields"]) <= set(old_fields[obj["model"]]), obj["model"]

    # every row kept; every page of the club and its nights reads, printouts too
    new = snippet(club, COUNT, READ, *([REFERENCES] if registrations else []), env=env)
    after, read = new["count"], new["read"]
    assert {label: after[label] for label in before} == before
    assert before["tournaments.Tournament"] > 0 and before["scoring.Deal"] > 0
    assert read["wrong"] == []
    assert read["finished"], "the demo has a finished night"
    assert read["pdfs"] >= 2
    # Rated by the upgrade when the ratings are new; a release with ratings keeps its own
    # (its demo's games are rated by the worker, which `make seed` does not start).
    assert read["ratings"] > 0 or "ratings" in release.migrations
    if registrations:
        codes = new["references"]
        assert len(codes) == 2 and len(set(codes)) == 2  # each its own transfer reference
        assert all(re.fullmatch(r"BU-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", c) for c in codes)

    if release == RELEASES[-1]:  # once more: the data is this code's, this code backs it up
        code, out = make(club, "upgrade", env=club_env(ENV_FILE=str(env_file)))
        assert code == 0, out
        assert f"Bummerl before: {code_version(club)}\n" in out and "rerate" not in out
        assert len(list((club / "backups").glob("bummerl-*.json.gz"))) == 2


# -- refusals: nothing changed ------------------------------------------------------------


@pytest.fixture
def site(tmp_path):
    """A clone of this commit with the test run's virtualenv: a club's folder whose
    database the test writes itself (only its table of applied migrations)."""
    if not (ROOT / ".venv" / "bin" / "python").exists() or not (ROOT / ".git").exists():
        pytest.skip("needs the project's git checkout and its .venv (make install)")
    folder = tmp_path / "site"
    git("clone", "-q", str(ROOT), str(folder), cwd=tmp_path)
    (folder / ".venv").symlink_to((ROOT / ".venv").resolve())
    return folder


def database(path: Path, migrations: dict[str, list[str]]) -> Path:
    with sqlite3.connect(path) as connection:
        connection.execute(
            "CREATE TABLE django_migrations (id integer PRIMARY KEY, app text, name text, "
            "applied text)"
        )
        connection.executemany(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, '2026-12-01')",
            [(app, name) for app, names in migrations.items() for name in names],
        )
    connection.close()
    return path


def up_to(release: Release) -> dict[str, list[str]]:
    code = code_migrations(ROOT)
    return {app: [n for n in code[app] if n <= last] for app, last in release.migrations.items()}


def refused(site: Path, db: Path, env_file: Path):
    """``make upgrade`` with the database named in the environment file only."""
    env_file.write_text(f"# the club's settings\nexport SQLITE_PATH='{db}'\n")
    before = db.read_bytes()
    listing = sorted(p.name for p in site.iterdir())
    code, out = make(site, "upgrade", env=club_env(ENV_FILE=str(env_file)))
    assert code == 2, out
    assert db.read_bytes() == before
    assert sorted(p.name for p in site.iterdir()) == listing  # no backups/, no static files
    assert "Nothing was changed." in out and "Bummerl now" not in out
    return out


def test_data_newer_than_the_code_is_refused(site, tmp_path):
    newer = code_migrations(ROOT) | {"clubs": [*code_migrations(ROOT)["clubs"], "0099_later"]}
    out = refused(site, database(tmp_path / "club.sqlite3", newer), tmp_path / "env")
    assert "written by a newer release than this code" in out and "clubs.0099_later" in out


def test_data_of_no_release_is_refused(site, tmp_path):
    half = up_to(RELEASES[0]) | {"tournaments": up_to(RELEASES[-1])["tournaments"]}
    out = refused(site, database(tmp_path / "club.sqlite3", half), tmp_path / "env")
    assert "are those of no release and not of this code" in out


def test_a_release_whose_tag_is_missing_upgrades_from_its_commit(site, tmp_path):
    release = RELEASES[1]
    subprocess.run(["git", "tag", "-d", release.tag], cwd=site, capture_output=True)
    updater = Upgrade(site, ".venv", "python3", tmp_path / "no-such.env")
    code = updater.release_code(release, tmp_path)
    assert last_migrations(code_migrations(code)) == release.migrations


def test_a_release_whose_commit_is_missing_is_refused(tmp_path):
    if not (ROOT / ".venv" / "bin" / "python").exists() or not (ROOT / ".git").exists():
        pytest.skip("needs the project's git checkout and its .venv (make install)")
    shallow = tmp_path / "shallow"
    git("clone", "-q", "--depth", "1", f"file://{ROOT}", str(shallow), cwd=tmp_path)
    (shallow / ".venv").symlink_to((ROOT / ".venv").resolve())
    release = RELEASES[1]
    out = refused(shallow, database(tmp_path / "club.sqlite3", up_to(release)), tmp_path / "env")
    assert f"Bummerl before: {release.version}" in out
    assert f"commit {release.commit[:12]} ({release.tag}) is not in this checkout" in out


def test_local_changes_are_refused(site, tmp_path):
    with (site / "Makefile").open("a") as makefile:
        makefile.write("\n# changed here\n")
    out = refused(site, database(tmp_path / "club.sqlite3", up_to(RELEASES[-1])), tmp_path / "env")
    assert "local changes" in out and "Makefile" in out


def test_without_a_virtualenv_it_is_refused(site, tmp_path):
    (site / ".venv").unlink()
    shutil.rmtree(site / ".venv", ignore_errors=True)
    out = refused(site, database(tmp_path / "club.sqlite3", up_to(RELEASES[-1])), tmp_path / "env")
    assert "no virtualenv" in out
