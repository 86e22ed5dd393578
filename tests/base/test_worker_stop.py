"""The task worker (``manage.py qcluster``, bummerl/management/commands/qcluster.py) as a
service manager runs it: it stops by itself on SIGTERM or SIGINT, whether the signal
reaches only its first process or every process of its group at once, hands back the job
it could not finish, and writes one line of the site's log per job."""

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django_q.models import OrmQ

from base import tasks
from tests.base.test_tasks import ROOT, worker_env


def start_worker(log: Path) -> subprocess.Popen:
    """The worker in a process group of its own, its log in ``log``, once it is ready."""
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=ROOT,
        env=worker_env("database"),
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
        start_new_session=True,
    )
    for _ in range(600):
        if "task worker" in log.read_text() or worker.poll() is not None:
            break
        time.sleep(0.1)
    return worker


def group_is_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_for(condition, seconds=60.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_every_process_stops_the_worker_and_hands_back_its_job(
    signum, transactional_db, settings, tmp_path
):
    settings.TASKS_SYNC = False
    tasks.enqueue("time.sleep", 600, name="lange Arbeit")
    worker = start_worker(tmp_path / "worker.log")
    try:
        # The job is taken: the database broker locks its row.
        assert wait_for(lambda: OrmQ.objects.filter(lock__isnull=False).exists())
        os.killpg(worker.pid, signum)  # as a terminal's Ctrl-C, or a unit's stop
        # The grace for a busy job (5 s) and the hard limit (15 s) end it: no SIGKILL
        # from outside is needed.
        assert worker.wait(timeout=60) == 0
        assert wait_for(lambda: group_is_gone(worker.pid), 10)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    log = (tmp_path / "worker.log").read_text()
    assert re.search(r"INFO base\.tasks \d+: task worker \d+ stopped$", log, re.M), log
    # Handed back: the job stays queued for the next start, nothing says it ran.
    assert OrmQ.objects.count() == 1
    assert " job time.sleep " not in log


def test_each_job_is_one_line_in_the_sites_log(transactional_db, settings, tmp_path):
    settings.TASKS_SYNC = False
    tasks.enqueue("os.getpid", name="kurz")
    tasks.enqueue("base.tasks.no_such_job", name="kaputt")
    worker = start_worker(tmp_path / "worker.log")
    try:
        assert wait_for(lambda: not OrmQ.objects.exists())
        assert wait_for(lambda: "no_such_job" in (tmp_path / "worker.log").read_text(), 20)
        worker.send_signal(signal.SIGTERM)  # to its first process only, as systemd does
        assert worker.wait(timeout=60) == 0
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
    lines = (tmp_path / "worker.log").read_text().splitlines()
    stamp = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "
    done = [line for line in lines if " job os.getpid " in line]
    failed = [line for line in lines if " job base.tasks.no_such_job " in line]
    assert len(done) == 1 and re.match(
        stamp + r"INFO base\.tasks \d+: job os\.getpid \(kurz\) done in \d+\.\d s$", done[0]
    ), lines
    assert len(failed) == 1 and re.match(
        stamp + r"ERROR base\.tasks \d+: job base\.tasks\.no_such_job \(kaputt\) failed after "
        r"\d+\.\d s: ValueError: Function base\.tasks\.no_such_job is not defined$",
        failed[0],
    ), lines
    # django-q2's own lines for the same jobs are not written twice.
    assert not any("Processed '" in line or "Failed '" in line for line in lines)
