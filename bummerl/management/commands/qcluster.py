"""``manage.py qcluster``: the task worker (``base.tasks``), django-q2's cluster with a
stop that a service manager can rely on. It takes the place of django-q2's own command of
that name (this app comes before ``django_q`` in ``INSTALLED_APPS``), so the units and
``make run`` of every release start it unchanged.

django-q2's cluster is three layers of processes: this one, its sentinel, and the
sentinel's workers, pusher and monitor. Alone it does not stop when a signal reaches all of
them at once (a terminal's Ctrl-C, ``kill`` of a process group, a service manager that
signals every process of the service): the sentinel dies at once on SIGTERM, its children
are orphaned, and this process waits for them until it is killed. Here:

- only this process acts on SIGTERM and SIGINT; the sentinel, the pusher and the monitor
  ignore both and are stopped by the cluster's own queues;
- a worker finishes the job it has, for ``GRACE`` seconds; then it is ended and its job is
  handed back (a printout's job is begun again by the next worker, ``base.printing``);
- after ``LIMIT`` seconds whatever is left is killed, so a stop never takes longer.

One line in the site's log says that the worker started and one that it stopped; each job
is one line (``base.tasks.log_job``).
"""

import contextlib
import logging
import os
import signal
import time
from pathlib import Path

from django.core.management.base import BaseCommand
from django_q import cluster as q_cluster
from django_q.signals import post_execute, post_spawn

from base.tasks import log_job

log = logging.getLogger("base.tasks")

GRACE = 5.0
"""Seconds a busy worker is given to finish its job once the worker is told to stop."""
LIMIT = 15.0
"""Seconds after which a stop kills what is left of the cluster."""


class _Sentinel(q_cluster.Sentinel):
    """django-q2's sentinel, deaf to SIGTERM and SIGINT: this command stops it through
    the cluster's stop event. Its workers hear SIGTERM again (``base.tasks``), so that a
    job past its time can still be ended."""

    def start(self):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        super().start()


def _hear_sigterm(sender, proc_name, **kwargs) -> None:
    """In a worker, as it starts: SIGTERM ends it again (it inherits the sentinel's deaf ear)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _children(pid: int) -> list[int]:
    """The ids of the live child processes of ``pid`` (Linux's ``/proc``; none elsewhere)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _signal_all(pids: list[int], signum: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)


class Command(BaseCommand):
    help = "Runs the task worker until SIGTERM or SIGINT; stops within 15 seconds."

    def handle(self, *args, **options):
        q_cluster.Sentinel = _Sentinel  # the cluster starts its sentinel by this name
        post_spawn.connect(_hear_sigterm, dispatch_uid="bummerl.qcluster.sigterm")
        post_execute.connect(log_job, dispatch_uid="bummerl.qcluster.log_job")
        stopping: list[int] = []

        def stop(signum, frame):
            stopping.append(signum)

        cluster = q_cluster.Cluster()  # sets django-q2's own handlers: replaced below
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        cluster.start()
        sentinel = cluster.sentinel
        log.info("task worker %s started", os.getpid())
        while sentinel.is_alive() and not stopping:
            sentinel.join(0.5)
        if stopping:
            log.info("task worker %s stopping (%s)", os.getpid(), signal.strsignal(stopping[0]))
            cluster.stop_event.set()
            ended = False
            begun = time.monotonic()
            while sentinel.is_alive() and time.monotonic() - begun < LIMIT:
                if not ended and time.monotonic() - begun > GRACE:
                    # The busy workers' jobs are handed back; the pusher and the monitor
                    # ignore SIGTERM and stop when their queues tell them.
                    _signal_all(_children(sentinel.pid), signal.SIGTERM)
                    ended = True
                sentinel.join(0.2)
            if sentinel.is_alive():
                _signal_all([*_children(sentinel.pid), sentinel.pid], signal.SIGKILL)
                sentinel.join(2)
        log.info("task worker %s stopped", os.getpid())
