"""The task queue: work that takes more than a second runs in a worker process, off the
request workers that the phones' deals go through (django-q2).

``enqueue`` hands a function (by its dotted path) and its arguments to the queue. The
broker is the site's database by default (``BUMMERL_TASK_BROKER`` unset: nothing else to
install, ``make run`` starts the worker beside the site) or Redis
(``BUMMERL_TASK_BROKER=redis://127.0.0.1:6379/0`` on a club's server); the worker is
``manage.py qcluster``. With ``settings.TASKS_SYNC`` (the test run) a task runs at once
in the process that enqueues it. ``broker_check`` is what ``/healthz`` asks.
"""

import logging

from django.conf import settings

log = logging.getLogger(__name__)


def enqueue(function: str, *args, name: str = "") -> None:
    """Run ``function`` (a dotted path, "base.printing.make_printout") with ``args``
    (values the broker can store: ids, strings) in the worker; at once in this process
    when ``settings.TASKS_SYNC``. ``name`` labels it in the admin's list of tasks."""
    from django_q.tasks import async_task

    async_task(function, *args, task_name=name[:100] or None, sync=settings.TASKS_SYNC)


def broker_check() -> str:
    """ "" when the task broker answers, else why not ("ConnectionError"); the database
    broker is the site's database, which ``/healthz`` checks anyway."""
    if not settings.TASK_BROKER.startswith("redis"):
        return ""
    try:
        import redis

        redis.from_url(settings.TASK_BROKER, socket_timeout=2).ping()
    except Exception as error:  # any failure of the connection: the broker cannot serve
        return type(error).__name__
    return ""


def log_job(sender, task: dict, **kwargs) -> None:
    """One line in the site's log for each job the worker ran (django-q2's
    ``post_execute``, in the worker's monitor): "job base.printing.make_printout
    (Turnierbaum) done in 4.2 s" at info, or "… failed after 0.3 s: ValueError: …" at
    error, with the last line of the job's traceback. The token of a private link in it is
    hidden by the log's filter (``bummerl.logs``)."""
    func = task["func"] if isinstance(task["func"], str) else task["func"].__qualname__
    seconds = (task["stopped"] - task["started"]).total_seconds()
    if task["success"]:
        log.info("job %s (%s) done in %.1f s", func, task["name"], seconds)
    else:
        lines = str(task["result"]).strip().splitlines() or [""]
        log.error("job %s (%s) failed after %.1f s: %s", func, task["name"], seconds, lines[-1])


class NotJobLines(logging.Filter):
    """Drops django-q2's own line per job (``log_job`` writes the site's), and keeps the
    rest of what it says (a worker reincarnated, a broker that does not answer)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(("Processed '", "Failed '"))
