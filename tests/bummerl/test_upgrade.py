"""Upgrading a club's server (README "Upgrading", CHANGELOG.md): a database made by the
previous release, with its demo night, migrates to this one and everything in it stays
and reads. The previous release's code is taken from the project's own history."""

import json
import os
import re
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

import bummerl

ROOT = Path(__file__).resolve().parents[2]
PREVIOUS = ("0.2.0", "e08c9e03172c0ba782fd57d04d4212e0a81258b9")
"""The release before this one and its commit."""

COUNT = (
    "import django, json; django.setup()\n"
    "from django.apps import apps\n"
    "print(json.dumps({m._meta.label: m.objects.count() for m in apps.get_models()"
    " if m._meta.app_label in ('clubs', 'scoring', 'tournaments', 'seasons')}))\n"
)


def test_the_version_is_one_in_the_code_the_package_and_the_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["version"] == bummerl.__version__
    first = next(
        line for line in (ROOT / "CHANGELOG.md").read_text().splitlines() if line.startswith("## ")
    )
    assert first.startswith(f"## {bummerl.__version__} ")
    assert f"## {PREVIOUS[0]} " in (ROOT / "CHANGELOG.md").read_text()


REGISTER = (
    "import django; django.setup()\n"
    "from tournaments.models import Registration, Tournament\n"
    "t = Tournament.objects.order_by('pk').first()\n"
    "for name in ('Rosa', 'Udo'):\n"
    "    Registration.objects.create(tournament=t, name=name, name_fold=name.lower(), cards=1)\n"
)
REFERENCES = (
    "import django, json; django.setup()\n"
    "from tournaments.models import Registration\n"
    "print(json.dumps(list(Registration.objects.values_list('reference', flat=True))))\n"
)


def run(cwd, *args, env):
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.mark.heavy
def test_a_database_of_the_previous_release_migrates_and_keeps_every_row(tmp_path):
    known = subprocess.run(
        ["git", "cat-file", "-e", PREVIOUS[1] + "^{commit}"], cwd=ROOT, capture_output=True
    )
    if known.returncode != 0:
        pytest.skip("the previous release's commit is not in this clone's history")
    archive = tmp_path / "previous.tar"
    subprocess.run(["git", "archive", "-o", str(archive), PREVIOUS[1]], cwd=ROOT, check=True)
    old = tmp_path / "previous"
    with tarfile.open(archive) as tar:
        tar.extractall(old, filter="data")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bummerl.settings",
        "DJANGO_DEBUG": "1",
        "SQLITE_PATH": str(tmp_path / "club.sqlite3"),
        "BUMMERL_PRINT_CACHE": str(tmp_path / "printouts"),
    }
    env.pop("DATABASE_URL", None)
    run(old, "migrate", "--noinput", env=env)
    run(old, "seed", env=env)  # the previous release's demo data
    run(old, "shell", "-v", "0", "-c", REGISTER, env=env)  # and two registrations
    before = run(old, "shell", "-v", "0", "-c", COUNT, env=env)
    out = run(ROOT, "migrate", "--noinput", env=env)
    assert "Applying tournaments.0014_public_face... OK" in out
    after = json.loads(run(ROOT, "shell", "-v", "0", "-c", COUNT, env=env))
    before = json.loads(before)
    assert {k: after[k] for k in before} == before  # no row lost or added by the upgrade
    assert all(after[k] == 0 for k in after.keys() - before.keys())  # new tables start empty
    assert before["tournaments.Tournament"] > 0  # the demo nights are there
    pages = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "from tournaments.models import Tournament\n"
        "from tournaments.services.reading import load_state\n"
        "for t in Tournament.objects.all():\n"
        "    state = load_state(t)\n"
        "    assert [x.place for x in state.prize_lines] == sorted(int(p['place']) for p in t.prizes)\n"
        "    r = Client().get(f'/p/{t.public_token}/')\n"
        "    assert r.status_code == 200, r.status_code\n"
        "print('read')\n"
    )
    assert run(ROOT, "shell", "-v", "0", "-c", pages, env=env).strip() == "read"
    codes = json.loads(run(ROOT, "shell", "-v", "0", "-c", REFERENCES, env=env))
    assert len(codes) == 2 and len(set(codes)) == 2  # each its own transfer reference
    assert all(re.fullmatch(r"BU-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}", c) for c in codes)
