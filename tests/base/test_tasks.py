"""Printouts over a second are made by the task worker (base.tasks, base.printing.
queued_pdf_response): the page answers at once with the job's progress, one job per
state however often it is asked, and the same address hands out the PDF once the worker
made it; with the database as broker and with Redis, through a real worker process."""

import io
import os
import re
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from django_q.models import OrmQ
from pypdf import PdfReader

from base import printing as base_printing
from base import tasks
from base.models import PrintJob
from tests import factories
from tests.markup import squeezed
from tests.serving import database_env
from tournaments import printing
from tournaments.services.draws import draw_round

ROOT = Path(__file__).resolve().parents[2]
# A Redis database of each test run's own (CI runs SQLite and PostgreSQL side by side):
# two workers on one queue would take each other's jobs.
REDIS = f"redis://127.0.0.1:6379/{13 if os.environ.get('DATABASE_URL') else 15}"


def sheets_url(t):
    return reverse(
        "print_match_sheets", kwargs={"slug": t.club.slug, "tournament_id": t.pk, "number": 1}
    )


@pytest.mark.django_db
def test_in_the_test_run_a_queued_printout_is_made_in_the_request(client):
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    response = client.get(sheets_url(t))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert OrmQ.objects.count() == 0  # made in the request, nothing left queued
    assert client.get(sheets_url(t)).content == response.content  # kept: no second job


@pytest.mark.django_db
def test_without_a_worker_the_page_says_the_pdf_is_being_made_and_asks_again(client, settings):
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    first = client.get(sheets_url(t))
    assert first.status_code == 202
    html = first.content.decode()
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "Die PDF wird erstellt …" in html
    assert (
        '<progress value="1" max="3">' in html
        and "Schritt 1 von 3: warte auf den Hintergrunddienst" in squeezed(html)
    )
    again = client.get(sheets_url(t))
    assert again.status_code == 202
    assert OrmQ.objects.count() == 1  # one job, however often the page asks
    # A small round is made at once, as before.
    small = factories.tournament(club, cards=8, sold=8)
    draw_round(small, factories.services.Actor(), seed=1)
    assert client.get(sheets_url(small))["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_a_new_state_of_the_night_makes_a_new_job(client, settings):
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    client.get(sheets_url(t))
    before = printing.night_state(t)
    factories.tournament(club, cards=8, sold=1)  # any change of the club is a new history entry
    assert printing.night_state(t) != before
    client.get(sheets_url(t))
    assert OrmQ.objects.count() == 2


def worker_env(broker: str) -> dict:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DJANGO_DEBUG": "1"}
    env["BUMMERL_TASK_BROKER"] = broker
    env.pop("DATABASE_URL", None)
    return env | database_env()


@contextmanager
def running_worker(broker: str):
    """A task worker (``manage.py qcluster``) on the test database for the ``with``
    block, stopped after it."""
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=worker_env(broker),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()


@pytest.mark.parametrize("broker", ["database", REDIS])
def test_a_real_worker_makes_the_pdf_and_the_page_hands_it_out(
    broker, client, settings, transactional_db, monkeypatch
):
    if broker.startswith("redis"):
        import redis

        try:
            redis.from_url(REDIS, socket_timeout=1).flushdb()
        except redis.ConnectionError:
            pytest.skip("no Redis server on this machine")
        from django_q.conf import Conf

        monkeypatch.setattr(Conf, "ORM", None)
        monkeypatch.setattr(Conf, "REDIS", REDIS)
        settings.TASK_BROKER = REDIS
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    assert client.get(sheets_url(t)).status_code == 202
    assert tasks.broker_check() == ""
    with running_worker(broker) as worker:
        response, steps = None, set()
        for _ in range(240):  # up to two minutes on a busy machine
            response = client.get(sheets_url(t))
            if response.status_code == 200:
                break
            steps.add(response.context["step"])
            time.sleep(0.5)
        assert response.status_code == 200, (steps, worker.poll())
        assert response["Content-Type"] == "application/pdf"
        text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
        assert text.count("Runde 1 (128), Partie ") == 36  # a sheet per match of round 1
        assert steps <= {"waiting", "reading", "making"}


def test_the_health_check_names_a_redis_broker_that_does_not_answer(settings):
    settings.TASK_BROKER = "redis://127.0.0.1:1/0"
    assert tasks.broker_check() == "ConnectionError"
    settings.TASK_BROKER = "database"
    assert tasks.broker_check() == ""


@pytest.mark.django_db
def test_every_printout_of_a_large_night_goes_to_the_worker(client, settings):
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.tournament(club, cards=printing.HEAVY_CARDS, sold=300)
    draw_round(t, factories.services.Actor(), seed=1)
    client.force_login(factories.user(club, role="organiser"))
    base = f"/c/{club.slug}/tournaments/{t.pk}"
    urls = [
        f"{base}/print/bracket.pdf",
        f"{base}/rounds/1/draw.pdf",
        f"{base}/print/seats.pdf",
        f"{base}/print/cash.pdf",
        f"{base}/print/personal-links.pdf",
    ]
    answers = [client.get(url) for url in urls]
    assert [(a.status_code, a.context["filename"]) for a in answers] == [
        (202, f"turnierbaum-{t.pk}.pdf"),
        (202, f"auslosung-{t.pk}-1.pdf"),
        (202, f"tische-{t.pk}.pdf"),
        (202, f"kassa-{t.pk}.pdf"),
        (202, f"links-{t.pk}.pdf"),
    ]
    assert OrmQ.objects.count() == len(urls)
    # The prize list stays quick: made in the request.
    assert client.get(f"{base}/print/prizes.pdf")["Content-Type"] == "application/pdf"


# -- one job per printout, failures said, dead workers noticed ---------------------------


def test_two_organisers_asking_at_once_start_one_job(transactional_db, settings):
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.big_round(club)
    phones = [factories.signed_in(factories.user(club, role="organiser")) for _ in range(2)]
    jobs = []
    for _ in range(20):
        PrintJob.objects.all().delete()
        OrmQ.objects.all().delete()
        together, answers = threading.Barrier(2), []

        def ask(phone, together=together, answers=answers):
            try:
                together.wait()
                answers.append(phone.get(sheets_url(t)).status_code)
            finally:
                connection.close()

        threads = [threading.Thread(target=ask, args=(phone,)) for phone in phones]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert answers == [202, 202]
        jobs.append((PrintJob.objects.count(), OrmQ.objects.count()))
    assert jobs == [(1, 1)] * 20


def test_a_job_that_always_fails_is_said_with_a_retry_button_and_not_run_on_refresh(
    client, monkeypatch, db
):
    runs = []

    def broken(*args, base):
        runs.append(args)
        raise RuntimeError("no paper")

    monkeypatch.setattr(printing, "match_sheets_job", broken)
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    first = client.get(sheets_url(t))
    assert len(runs) == base_printing.TRIES == 3  # begun again by itself, then given up
    html = squeezed(first.content.decode())
    assert first.status_code == 202
    assert "Die PDF konnte nicht erstellt werden" in html
    assert f"Erstellen von partieblaetter-{t.pk}-1.pdf ist 3-mal fehlgeschlagen" in html
    assert 'http-equiv="refresh"' not in html
    assert '<button type="submit" id="print-retry">Nochmals versuchen</button>' in html
    for _ in range(5):
        assert client.get(sheets_url(t)).context["failed"] is True
    assert len(runs) == 3  # a refresh runs nothing
    row = PrintJob.objects.get()
    assert (row.step, row.tries, row.error) == ("failed", 3, "RuntimeError: no paper")
    # The button: a POST with the page's one-time key begins it again, once.
    retry_key = re.search(r'name="key" value="([^"]+)"', first.content.decode()).group(1)
    again = client.post(sheets_url(t), {"key": retry_key})
    assert (again.status_code, again["Location"]) == (303, sheets_url(t))
    assert len(runs) == 6
    assert client.post(sheets_url(t), {"key": retry_key}).status_code == 303
    assert len(runs) == 6  # the same key again begins nothing


def test_the_page_says_a_failed_printout_in_english_too(client, monkeypatch, db):
    monkeypatch.setattr(printing, "match_sheets_job", lambda *a, base: 1 / 0)
    club = factories.club()
    t = factories.big_round(club)
    factories.signed_in(factories.user(club, role="organiser"), client=client, language="en")
    html = squeezed(client.get(sheets_url(t)).content.decode())
    assert f"Making partieblaetter-{t.pk}-1.pdf failed, 3 times" in html
    assert ">Try again</button>" in html


def test_a_start_whose_worker_stopped_beating_is_begun_again(client, settings, db):
    settings.TASKS_SYNC = False
    club = factories.club()
    t = factories.big_round(club)
    client.force_login(factories.user(club, role="organiser"))
    client.get(sheets_url(t))
    row = PrintJob.objects.get()
    quiet = timezone.now() - timedelta(seconds=base_printing.STALE_SECONDS - 2)
    PrintJob.objects.filter(pk=row.pk).update(step="making", beat=quiet)
    assert client.get(sheets_url(t)).context["number"] == 3  # still beating lately
    assert OrmQ.objects.count() == 1
    dead = timezone.now() - timedelta(seconds=base_printing.STALE_SECONDS + 1)
    PrintJob.objects.filter(pk=row.pk).update(step="making", beat=dead)
    page = client.get(sheets_url(t))
    row.refresh_from_db()
    assert (row.step, row.run, row.tries) == ("waiting", 2, 1)
    assert page.context["number"] == 1 and OrmQ.objects.count() == 2
    client.get(sheets_url(t))
    assert OrmQ.objects.count() == 2  # begun again once
    # A start of the dead one's, should it come back, does nothing.
    base_printing.make_printout(row.pk, 1)
    assert PrintJob.objects.get().step == "waiting"
