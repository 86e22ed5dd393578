"""Safe defaults: deploy checks, sign-in rate limit, stale tabs, backup and restore."""

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests import factories
from tournaments.export import export
from tournaments.models import Tournament
from tournaments.simulation import simulate

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_is_clean_under_production_settings(tmp_path):
    env = {
        **os.environ,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "k" * 20 + "-a-long-random-looking-secret-" + "z9" * 20,
        "DJANGO_ALLOWED_HOSTS": "bummerl.example.org",
        "SQLITE_PATH": str(tmp_path / "deploy.sqlite3"),
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by conftest for Playwright only
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.django_db
def test_sign_in_is_locked_after_five_wrong_passwords(client):
    factories.user(username="anna")  # password "pw-anna"
    url = reverse("login")
    for _ in range(4):
        response = client.post(url, {"username": "anna", "password": "wrong"})
        assert response.status_code == 200
    assert client.post(url, {"username": "anna", "password": "wrong"}).status_code == 429
    response = client.post(url, {"username": "anna", "password": "pw-anna"})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_stale_htmx_tab_is_sent_to_sign_in_as_a_full_page():
    club = factories.club()
    sheet = factories.sheet(club)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(factories.user(club, role="organiser"))
    page = reverse("sheet:page", kwargs={"pk": sheet.pk})
    response = strict.post(
        reverse("sheet:record", kwargs={"pk": sheet.pk}),
        {"key": factories.key(), "kind": "redeal"},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{page}"},
    )
    assert response.status_code == 403
    assert response["Bummerl-Sign-In"] == f"/accounts/login/?next={quote(page)}"
    assert "HX-Redirect" not in response  # the page keeps what was typed and says why
    plain = strict.post(reverse("sheet:record", kwargs={"pk": sheet.pk}), {"kind": "redeal"})
    assert plain.status_code == 403
    assert "Nichts wurde gespeichert" in plain.content.decode()


@pytest.mark.django_db(transaction=True)
def test_backup_and_restore_round_trip_a_club_with_a_finished_tournament(tmp_path):
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club()
    factories.user(club, role="owner")
    t = simulate(club, cards=16, players=10, max_cards=3, seed=3)
    sheet = factories.sheet(club, names=("Xaver", "Yvonne", "Zenzi"))
    before = (json.dumps(export(t), sort_keys=True), sheet.pk)
    backup = tmp_path / "backup.json.gz"
    call_command(
        "dumpdata",
        "--natural-foreign",
        "--natural-primary",
        "--exclude",
        "contenttypes",
        "--exclude",
        "auth.permission",
        "--exclude",
        "sessions",
        "--exclude",
        "axes",
        "--exclude",
        "admin.logentry",
        "-o",
        str(backup),
        verbosity=0,
    )
    call_command("flush", "--noinput", verbosity=0)
    assert not Tournament.objects.exists()
    call_command("loaddata", str(backup), verbosity=0)
    restored = Tournament.objects.get(pk=t.pk)
    assert (json.dumps(export(restored), sort_keys=True), sheet.pk) == before


@pytest.mark.django_db
def test_private_links_expire_a_set_time_after_the_event(client, settings):
    import datetime

    from django.utils import timezone

    from scoring.models import Sheet

    club = factories.club()
    sheet = factories.sheet(club)
    url = reverse("entry:page", kwargs={"token": sheet.entry_token})
    assert client.get(url).status_code == 200
    Sheet.objects.filter(pk=sheet.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=settings.LINK_DAYS, minutes=1)
    )
    assert client.get(url).status_code == 404
    # Match links: tests/tournaments/test_match_link_expiry.py.


@pytest.mark.django_db
def test_records_that_hold_results_cannot_be_deleted():
    import uuid

    from django.db.models import ProtectedError

    from scoring import services as scoring
    from scoring.rules import DreierDeal

    club = factories.club()
    sheet = factories.sheet(club)
    scoring.record_entry(sheet, DreierDeal("gang", 0, True), uuid.uuid4(), scoring.Actor())
    player = sheet.players.first()
    t = simulate(club, cards=8, players=6, max_cards=2, seed=1)
    for thing in (sheet, player, t, club):
        with pytest.raises(ProtectedError):
            thing.delete()
