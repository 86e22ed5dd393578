"""gunicorn's settings, the one place for them (``make serve``, deploy/bummerl.service and
the tests' ``tests.serving`` start gunicorn with ``-c bummerl/gunicorn.conf.py``): its log
lines in the site's one format, the private links' tokens redacted and the live pages'
polls left out (``bummerl.logs``)."""

logger_class = "bummerl.logs.GunicornLogger"
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'

# Three worker processes (``-w`` or WORKERS=… of ``make serve`` for another number), 16
# threads each. A connection takes a thread only once its first bytes arrive (a kept-alive
# or silent one waits in the worker's poll loop, closed after ``keepalive`` seconds); from
# then on the thread reads the request to its end, however slowly it comes. So 48 clients
# sending a byte a second fill gunicorn alone, and 16 may fill one worker (a worker may
# accept them all), whose next requests then wait; behind the shipped proxy (deploy/), which
# passes a request on only once it has it whole, none. A club's server runs behind it.
workers = 3
worker_class = "gthread"
threads = 16
# Seconds a worker may take for one request. The largest printout, round 1's 512 match
# sheets of a 1024-card night, takes about 20 s of CPU on a small laptop (`make bench`);
# gunicorn's default of 30 s would kill it on a busy or slower machine.
timeout = 120
# No control socket (gunicorn 25's `gunicornc` interface): by default it lies in
# `$HOME/.gunicorn/`, one for every gunicorn of the same user (a second site, a test run),
# and a system user without a home makes each start log an ERROR. Nothing here uses it;
# a restart is systemd's (deploy/bummerl.service).
control_socket_disable = True


def when_ready(server):
    """Once gunicorn listens: while the server has no account, the first-run page's code
    goes to the log (the end of `make serve`'s output, the unit's journal), from a process
    of its own so that gunicorn's master stays free of Django (clubs.first_run)."""
    import subprocess
    import sys
    from pathlib import Path

    project = Path(__file__).resolve().parents[1]
    subprocess.Popen([sys.executable, "manage.py", "setup_code", "--log"], cwd=project)
