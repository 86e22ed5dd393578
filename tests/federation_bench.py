"""``python -m tests.federation_bench``: a federation's server on one night of many clubs
(issue 30): ``FED_NIGHTS`` nights (50) at once on PostgreSQL, each with ``FED_TABLES``
tables (2: what this two-core machine drives beside its clients; the issue's 6 with
``FED_TABLES=6``) of 2 or 3 phones (in turn) and a room screen, against gunicorn (``make serve``
settings, ``tests.serving``), the task worker (``manage.py qcluster``) and Redis as the
default cache (``BUMMERL_CACHE_URL``) and the task broker (``BUMMERL_TASK_BROKER``).
The phones are client processes of their own (``tests.federation_client``, ``FED_CLIENTS``
of them, 3) on the same machine: every phone polls its sheet's version as live.js does
(every 2 s while the table is busy, backing off to 10 s while it is quiet) and fetches the
sheet when it changed, each table's first phone sends a deal every 10 to 20 s
(``FED_DEAL_SECONDS``, "10-20"; "60-120" is a table's real pace), each room screen
fetches its partial every 10 s.

Prints: one phone alone first (the p95 of a deal, of a poll and of the trivial view,
each one request after the other); then for ``FED_SECONDS`` (90) the requests sent
against those due (clients that cannot keep up are seen there), the p50/p95 of deals and
polls, errors, lost and doubled deals counted in the database, the server's CPU time
(gunicorn's workers, the PostgreSQL backends of the bench's database, Redis, the task
worker; read from /proc, sampled every half second so a backend that ends is kept) per
phone per minute, the clients' own CPU, and from it the cores 5,000 phones need at 60 %
load. Skipped, with the reason, when PostgreSQL (``FED_PG_URL``, a database the bench
may drop and create) or Redis (``FED_REDIS_URL``) does not answer.
"""

import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-fed-"))
PG = os.environ.get("FED_PG_URL", "postgres://postgres@127.0.0.1:5432/bummerl_fed")
REDIS = os.environ.get("FED_REDIS_URL", "redis://127.0.0.1:6379").rstrip("/")
NIGHTS = int(os.environ.get("FED_NIGHTS", "50"))
TABLES = int(os.environ.get("FED_TABLES", "2"))
SECONDS = float(os.environ.get("FED_SECONDS", "90"))
CLIENTS = int(os.environ.get("FED_CLIENTS", "3"))
# Seconds between one table's deals, at random in this range: "10-20" plays far faster
# than a table does (a deal of Schnapsen takes a minute or two); "60-120" plays one.
DEAL_GAP = tuple(float(x) for x in os.environ.get("FED_DEAL_SECONDS", "10-20").split("-"))
# "1": the push server (bummerl.asgi) holds the phones' version requests, as ``make serve``
# runs it; "0": every phone polls gunicorn.
PUSH = os.environ.get("FED_PUSH", "1") == "1"
TARGET_PHONES, TARGET_LOAD, GOAL_CORES = 5000, 0.6, 4
TICK = os.sysconf("SC_CLK_TCK")


def unreachable() -> str | None:
    """Why the bench cannot run (None: it can); makes a fresh database and empties the
    two Redis databases it uses."""
    try:
        import psycopg

        with psycopg.connect(PG.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            name = PG.rsplit("/", 1)[1]
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
    except Exception as error:  # noqa: BLE001 - reported
        return f"PostgreSQL does not answer ({error.__class__.__name__})"
    try:
        import redis

        for db in (5, 6):
            redis.Redis.from_url(f"{REDIS}/{db}", socket_timeout=2).flushdb()
    except Exception as error:  # noqa: BLE001 - reported
        return f"Redis does not answer ({error.__class__.__name__})"
    return None


# -- CPU time from /proc ---------------------------------------------------------------


def stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, command name, utime + stime in ticks), or None once it has ended."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), name, int(fields[11]) + int(fields[12])


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


class Sampler:
    """The CPU ticks of the server's processes by group, sampled every half second from
    the start: a process's first sample is its baseline (0 for one started later)."""

    def __init__(self, database: str, worker_pid: int):
        self.database, self.worker = database, worker_pid
        self.first: dict[int, int] = {}
        self.last: dict[int, tuple[str, int]] = {}
        self.started = False
        self.stop = threading.Event()

    def groups(self) -> dict[int, tuple[str, int]]:
        procs = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                found = stat(int(entry.name))
                if found:
                    procs[int(entry.name)] = found
        me = os.getpid()
        masters = {
            p for p, (ppid, _, _) in procs.items() if ppid == me and "gunicorn" in cmdline(p)
        }
        pushers = {p for p, (ppid, _, _) in procs.items() if ppid == me and "uvicorn" in cmdline(p)}
        worker = {self.worker} | {p for p, (ppid, _, _) in procs.items() if ppid == self.worker}
        out = {}
        for pid, (ppid, name, ticks) in procs.items():
            if ppid in masters or pid in masters:
                out[pid] = ("gunicorn", ticks)
            elif pid in pushers:
                out[pid] = ("push server", ticks)
            elif pid in worker or ppid in worker:
                out[pid] = ("task worker", ticks)
            elif name == "postgres" and f" {self.database} " in cmdline(pid):
                out[pid] = ("postgres", ticks)
            elif name.startswith("redis-server"):
                out[pid] = ("redis", ticks)
        return out

    def sample(self) -> None:
        for pid, (group, ticks) in self.groups().items():
            self.first.setdefault(pid, ticks if not self.started else 0)
            self.last[pid] = (group, ticks)
        self.started = True

    def run(self) -> None:
        while not self.stop.wait(0.5):
            self.sample()

    def seconds(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for pid, (group, ticks) in self.last.items():
            out[group] = out.get(group, 0.0) + (ticks - self.first[pid]) / TICK
        return out


# -- the run -----------------------------------------------------------------------------


def main() -> None:
    reason = unreachable()
    if reason:
        print(f"federation: skipped: {reason}")
        return
    os.environ.update(
        {
            "DATABASE_URL": PG,
            "BUMMERL_CACHE_URL": f"{REDIS}/5",
            "BUMMERL_TASK_BROKER": f"{REDIS}/6",
            **({"BUMMERL_PUSH_URL": f"{REDIS}/7"} if PUSH else {}),
            "DJANGO_SETTINGS_MODULE": "bummerl.settings",
            "BUMMERL_PRINT_CACHE": str(WORK / "printouts"),
            "BUMMERL_SETUP_CODE_FILE": str(WORK / "setup-code.json"),
            "DJANGO_DEBUG": "1",  # this process only sets up; the site serves as in production
        }
    )
    os.environ.pop("SQLITE_PATH", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.models import Deal
    from tests import factories
    from tests.load import percentile
    from tests.serving import push_serving, serving

    def pushing():
        return push_serving(WORK) if PUSH else contextlib.nullcontext(None)

    from tournaments.simulation import simulate

    started = time.monotonic()
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    nights, tables, screens = [], [], []
    for n in range(NIGHTS):
        club = factories.club(name=f"Verein {n}")
        night = simulate(
            club, cards=16, players=10, max_cards=3, seed=n, name=f"Nacht {n}", stop_after=1
        )
        screens.append(night.public_token)
        for i in range(TABLES):
            sheet = factories.sheet(club, names=(f"A{n}-{i}", f"B{n}-{i}", f"C{n}-{i}"))
            factories.fill(sheet, count=10)
            tables.append((sheet, 2 + (n * TABLES + i) % 2))
        nights.append(night)
    alone = factories.sheet(factories.club(name="Allein"), names=("Xaver", "Yvonne", "Zita"))
    connection.close()
    setup = time.monotonic() - started
    phones = sum(count for _, count in tables)
    ms = 1000

    def clients(base: str, how: str, spec: dict) -> subprocess.Popen:
        path = WORK / f"spec-{len(list(WORK.glob('spec-*')))}.json"
        path.write_text(json.dumps(spec))
        return subprocess.Popen(
            [sys.executable, "-m", "tests.federation_client", base, how, str(path)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )

    def result(run: subprocess.Popen) -> dict:
        out, _ = run.communicate(timeout=SECONDS + 600)
        return json.loads(out) if run.returncode == 0 else {"errors": ["client failed"]}

    load_before = os.getloadavg()[0]
    with serving(WORK, gunicorn=True) as base, pushing() as push:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            warm = {"tables": [[alone.entry_token, 1]], "seconds": 4}
            result(clients(base, "single", warm))  # every worker warm
            one = result(clients(base, "single", {**warm, "seconds": 12}))
            groups = [
                {
                    "tables": [[s.entry_token, c] for s, c in tables[i::CLIENTS]],
                    "screens": screens[i::CLIENTS],
                    "deal_gap": DEAL_GAP,
                    "push": push,
                }
                for i in range(CLIENTS)
            ]
            runs = [clients(base, str(SECONDS), g) for g in groups]
            for run in runs:  # every phone has opened its page
                run.stdout.readline()
            sampler = Sampler(PG.rsplit("/", 1)[1], worker.pid)
            sampler.sample()
            measured = time.monotonic()
            thread = threading.Thread(target=sampler.run, daemon=True)
            thread.start()
            joined = [result(runs[0])]  # counted while every client runs
            sampler.stop.set()
            thread.join()
            sampler.sample()
            joined += [result(r) for r in runs[1:]]
            wall = time.monotonic() - measured
        finally:
            worker.terminate()
            worker.wait(timeout=60)

    def p(values, share):
        return percentile(values, share) * ms if values else float("nan")

    print(
        f"federation {time.strftime('%Y-%m-%d')} · PostgreSQL, Redis cache and broker, "
        f"gunicorn {os.environ.get('WORKERS', '3')} workers, "
        f"{'the push server (polls held), ' if PUSH else 'no push server (polls), '}task worker · "
        f"{os.cpu_count()} cores · setup {setup:.0f} s"
    )
    print(
        f"federation: one phone alone: deal p95 {p(one['deals'], 0.95):.0f} ms "
        f"(p50 {p(one['deals'], 0.5):.0f}), version poll p95 {p(one['polls'], 0.95):.1f} ms "
        f"(p50 {p(one['polls'], 0.5):.1f}), trivial view p95 {p(one['trivial'], 0.95):.1f} ms "
        f"(p50 {p(one['trivial'], 0.5):.1f}): poll / trivial (p50) "
        f"{statistics.median(one['polls']) / statistics.median(one['trivial']):.1f}x"
    )
    total = {k: [] for k in ("deals", "polls", "pages", "screens", "errors", "keys", "reach")}
    sent = {k: 0 for k in ("deals", "polls", "pages", "screens")}
    due = {k: 0.0 for k in ("deals", "polls", "screens")}
    client_cpu, seconds = 0.0, 0.0
    for j in joined:
        for k in total:
            total[k] += j.get(k, [])
        for k in sent:
            sent[k] += j.get("sent", {}).get(k, 0)
        for k in due:
            due[k] += j.get("due", {}).get(k, 0.0)
        client_cpu += j.get("cpu", 0.0)
        seconds = max(seconds, j.get("seconds", 0.0))
    rows = list(Deal.objects.filter(sheet__in=[s for s, _ in tables]).values_list("key", flat=True))
    stored = {str(k) for k in rows}
    lost, doubled = len(set(total["keys"]) - stored), len(rows) - len(stored)
    kinds = sorted({e: total["errors"].count(e) for e in set(total["errors"])}.items())
    print(
        f"federation: {NIGHTS} nights x {TABLES} tables, {phones} phones (2-3 a table), "
        f"{len(screens)} room screens, a deal every {DEAL_GAP[0]:.0f}-{DEAL_GAP[1]:.0f} s a "
        f"table, in {CLIENTS} client processes, {seconds:.0f} s: "
        f"polls {sent['polls'] / seconds:.0f}/s of {due['polls'] / seconds:.0f}/s due "
        f"({sent['polls'] / phones / seconds * 60:.1f} a phone a minute), "
        f"deals {sent['deals'] / seconds:.1f}/s of {due['deals'] / seconds:.1f}/s due, "
        f"sheet pages {sent['pages'] / seconds:.1f}/s, screens {sent['screens'] / seconds:.1f}/s"
    )
    print(
        f"federation: deal p50 {p(total['deals'], 0.5):.0f} ms p95 {p(total['deals'], 0.95):.0f} ms, "
        f"poll p50 {p(total['polls'], 0.5):.0f} ms p95 {p(total['polls'], 0.95):.0f} ms, "
        f"screen p95 {p(total['screens'], 0.95):.0f} ms; a deal reaches the table's other "
        f"phones p50 {p(total['reach'], 0.5):.0f} ms p95 {p(total['reach'], 0.95):.0f} ms "
        f"({len(total['reach'])} seen); errors {len(total['errors'])}"
        f"{' (' + ', '.join(f'{n} {e}' for e, n in kinds[:3]) + ')' if kinds else ''}, "
        f"lost {lost}, doubled {doubled} (database: {len(rows)} deals)"
    )
    cpu = sampler.seconds()
    server = sum(cpu.values())
    minutes = phones * wall / 60
    per_phone = server / minutes  # CPU seconds per phone per minute, as the phones sent
    keep_up = min(1.0, sent["polls"] / due["polls"]) if due["polls"] else 1.0
    at_due = per_phone / keep_up
    parts = ", ".join(f"{k} {v:.1f} s" for k, v in sorted(cpu.items()))
    print(
        f"federation: server CPU {server:.1f} s in {wall:.0f} s ({parts}); "
        f"clients' CPU {client_cpu:.1f} s; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    cores = at_due * TARGET_PHONES / 60 / TARGET_LOAD
    print(
        f"federation: server CPU per phone per minute {per_phone * ms:.0f} ms "
        f"({at_due * ms:.0f} ms at the due rate: the clients sent {keep_up:.0%} of the polls)"
    )
    print(
        f"federation: {TARGET_PHONES:,} phones at once at {TARGET_LOAD:.0%} load need "
        f"{cores:.1f} cores (goal <= {GOAL_CORES}): {'met' if cores <= GOAL_CORES else 'not met'}"
    )


if __name__ == "__main__":
    main()
