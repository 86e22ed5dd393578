"""``python -m tests.bench_slow``: slow clients against the shipped set-up, a part of
``make bench``. Phones record deals (``tests.load``'s client, a process of its own: 16
tables, each one deal a second on average, open loop) against the site as deployed
(``tests.serving.deployed``: gunicorn with ``bummerl/gunicorn.conf.py``, behind Caddy with
``deploy/Caddyfile``, and gunicorn alone), first alone and then beside ``SLOW`` clients
sending headers and ``SLOW`` sending bodies one byte a second. Prints, as each comes, the
phones' deal p95 without and with them and the ratio (goal: at most 2 times), and the
errors. On PostgreSQL (``BENCH_PG_URL``'s server, a database of this part's own); it says
why when PostgreSQL or Caddy is not there. ``BENCH_SLOW_SECONDS`` is each run's length
(8 s)."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SECONDS = float(os.environ.get("BENCH_SLOW_SECONDS", "8"))
TABLES, GAP = 16, 1.0
SERVER = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/bummerl_bench")
DATABASE = SERVER.rsplit("/", 1)[0] + "/bummerl_bench_slow"


def say(line: str) -> None:
    print(f"slow clients: {line}", flush=True)


def fresh_database() -> str:
    """Why PostgreSQL cannot be used ("" when the part's database was made afresh)."""
    try:
        import psycopg

        with psycopg.connect(SERVER.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            admin.execute('DROP DATABASE IF EXISTS "bummerl_bench_slow"')
            admin.execute('CREATE DATABASE "bummerl_bench_slow"')
    except Exception as error:  # noqa: BLE001 - said, and the part ends
        return f"PostgreSQL does not answer ({error.__class__.__name__})"
    return ""


def phones(base: str, tokens: list[str], seconds: float = SECONDS) -> dict:
    """The deals of the phones at ``tokens`` for ``seconds`` (``tests.load`` open)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.load", "open", base, str(seconds), *tokens],
        cwd=ROOT,
        env={**os.environ, "LOAD_GAP": str(GAP)},
        capture_output=True,
        text=True,
        timeout=SECONDS + 300,
        check=False,
    )
    if done.returncode != 0:
        return {"latencies": [], "errors": [f"client failed: {done.stderr.strip()[-200:]}"]}
    return json.loads(done.stdout)


def main() -> None:
    why = fresh_database()
    if why:
        say(f"skipped: {why}")
        return
    os.environ["DATABASE_URL"] = DATABASE
    work = Path(tempfile.mkdtemp(prefix="bummerl-bench-slow-"))  # not the project's files
    os.environ["BUMMERL_SETUP_CODE_FILE"] = str(work / "setup-code.json")
    os.environ["BUMMERL_PRINT_CACHE"] = str(work / "printouts")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
    os.environ["DJANGO_DEBUG"] = "1"  # this process only sets up; the site serves as deployed
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.urls import reverse

    from tests import factories
    from tests.load import percentile
    from tests.serving import deployed, slow_clients, why_not_deployed

    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club(name="Slow")
    sheets = [factories.sheet(club, names=(f"A{i}", f"B{i}", f"C{i}")) for i in range(TABLES + 1)]
    target, tokens = sheets[0], [s.entry_token for s in sheets[1:]]
    page = reverse("entry:page", kwargs={"token": target.entry_token})
    record = reverse("entry:record", kwargs={"token": target.entry_token})
    connection.close()
    for proxy, label in (("caddy", "behind Caddy"), (None, "gunicorn alone")):
        why = why_not_deployed(proxy, push=False)
        if why:
            say(f"{label}: skipped: {why}")
            continue
        with deployed(proxy=proxy, push=False) as site:
            phones(site.url, tokens, 2)  # every worker warm
            quiet = phones(site.url, tokens)
            p95_quiet = percentile(quiet["latencies"], 0.95) * 1000
            say(f"{label}: {TABLES} phones alone: deal p95 {p95_quiet:.0f} ms")
            with slow_clients(site.url, page, record):
                busy = phones(site.url, tokens)
            p95_busy = percentile(busy["latencies"], 0.95) * 1000
            errors = len(quiet["errors"]) + len(busy["errors"])
            say(
                f"{label}: beside 10 slow headers and 10 slow bodies: deal p95 "
                f"{p95_busy:.0f} ms, {p95_busy / p95_quiet:.1f}x (goal <= 2x); "
                f"{len(busy['latencies'])} deals, errors {errors}"
            )


if __name__ == "__main__":
    main()
