"""``python -m tests.load_bench``: the load figures of ``make bench`` against gunicorn
(``make serve`` settings), on the database the environment names (SQLite file, or
DATABASE_URL). The phones are client processes of their own (``python -m tests.load``),
beside the server on this machine:

- one phone alone, one deal after the other: its p50 (the yardstick of the night);
- a night: 64 tables, each one deal every 10 s on average, arriving at random (open
  loop): deals per second, p50 and p95 (goal: p95 at most 3 times the single p50);
- the most deals per second: 16 tables in 2 client processes, each table sending its
  next deal as soon as the last one is answered;

- the night again for ``LOAD_BUSY_SECONDS`` (20 s), without and then while the task
  worker (``manage.py qcluster``) makes round 1's 512 match sheets of a sold-out
  1024-card night twice: the p95 of the phones' deals, busy against quiet (goal: at most
  2 times);

then counted in the database: errors, deals lost (answered, not stored) and doubled
(a retried deal stored twice). ``LOAD_SECONDS`` is the night's length (default 30 s:
a short run; a real night is hours), ``LOAD_PEAK_SECONDS`` the peak's (10 s).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-load-"))
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(WORK / "load.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
os.environ.setdefault("BUMMERL_PRINT_CACHE", str(WORK / "printouts"))  # shared with the worker
os.environ.setdefault("BUMMERL_SETUP_CODE_FILE", str(WORK / "setup-code.json"))  # not the project's
# this process only sets up; the site serves as in production
os.environ.setdefault("DJANGO_DEBUG", "1")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.cache import caches  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from base import tasks  # noqa: E402
from scoring.models import Deal  # noqa: E402
from scoring.services import Actor  # noqa: E402
from tests import factories  # noqa: E402
from tests.load import percentile  # noqa: E402
from tests.serving import serving  # noqa: E402
from tournaments.services.draws import draw_round  # noqa: E402

NIGHT_PHONES, PEAK_PHONES, PEAK_CLIENTS = 64, 16, 2
NIGHT = float(os.environ.get("LOAD_SECONDS", "30"))
BUSY = float(os.environ.get("LOAD_BUSY_SECONDS", "20"))
PEAK = float(os.environ.get("LOAD_PEAK_SECONDS", "10"))


def clients(base: str, mode: str, seconds: float, groups: list[list]) -> dict:
    """Run one client process per group of sheets; their results joined."""
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.load", mode, base, str(seconds)]
            + [s.entry_token for s in group],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        for group in groups
    ]
    joined = {"seconds": 0.0, "latencies": [], "keys": [], "errors": []}
    for run in runs:
        out, _ = run.communicate(timeout=seconds + 300)
        result = json.loads(out) if run.returncode == 0 else {"errors": ["client failed"]}
        joined["seconds"] = max(joined["seconds"], result.get("seconds", 0.0))
        for name in ("latencies", "keys", "errors"):
            joined[name] += result.get(name, [])
    return joined


def counted(result: dict, sheets: list) -> str:
    """Errors, and lost and doubled deals counted in the database."""
    rows = list(Deal.objects.filter(sheet__in=sheets).values_list("key", flat=True))
    stored = {str(k) for k in rows}
    lost = len(set(result["keys"]) - stored)
    doubled = len(rows) - len(stored)
    kinds = ", ".join(f"{n} {kind}" for kind, n in Counter(result["errors"]).most_common(3))
    return (
        f"errors {len(result['errors'])}{f' ({kinds})' if kinds else ''}, lost {lost}, "
        f"doubled {doubled} (database: {len(rows)} deals)"
    )


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club(name="Load")

    def tables(n: int, prefix: str) -> list:
        return [
            factories.sheet(club, names=(f"{prefix}A{i}", f"{prefix}B{i}", f"{prefix}C{i}"))
            for i in range(n)
        ]

    alone, night, peak = tables(1, "S"), tables(NIGHT_PHONES, "N"), tables(PEAK_PHONES, "P")
    big = factories.tournament(club, cards=1024, sold=1024, name="Load 512 sheets")
    first = draw_round(big, Actor(), seed=5)
    connection.close()
    name = connection.vendor
    ms = 1000
    with serving(WORK, gunicorn=True) as base:
        clients(base, "closed", 3, [alone])  # every worker warm: templates, translations
        single = clients(base, "single", 5, [alone])
        evening = clients(base, "open", NIGHT, [night[:32], night[32:]])
        most = clients(base, "closed", PEAK, [peak[i::PEAK_CLIENTS] for i in range(PEAK_CLIENTS)])
        quiet = clients(base, "open", BUSY, [night[:32], night[32:]])
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"], cwd=ROOT, stderr=subprocess.DEVNULL
        )
        keys = [f"load-{i}" for i in range(2)]
        for key in keys:  # as the page of the match sheets hands them to the worker
            tasks.enqueue(
                "base.printing.make_printout",
                "tournaments.printing.match_sheets_job",
                [big.pk, first.pk],
                "de-at",
                base,
                None,
                key,
            )
        busy = clients(base, "open", BUSY, [night[:32], night[32:]])
        made = sum(
            1 for key in keys if (caches["printouts"].get(key + ":status") or {}).get("step")
        )
        worker.terminate()
        worker.wait(timeout=60)
    p50_single = statistics.median(single["latencies"])
    print(f"load {name}: one phone alone, p50 {p50_single * ms:.0f} ms ({counted(single, alone)})")
    p50, p95 = statistics.median(evening["latencies"]), percentile(evening["latencies"], 0.95)
    print(
        f"load {name}: night, {NIGHT_PHONES} phones, one deal per 10 s each, open loop, "
        f"{NIGHT:.0f} s: {len(evening['keys']) / evening['seconds']:.1f} deals/s, "
        f"p50 {p50 * ms:.0f} ms, p95 {p95 * ms:.0f} ms, {counted(evening, night)}"
    )
    print(f"load {name}: night p95 / one phone p50 (goal <= 3x): {p95 / p50_single:.1f}x")
    print(
        f"load {name}: most deals per second, {PEAK_PHONES} phones back to back in "
        f"{PEAK_CLIENTS} client processes, {PEAK:.0f} s (goal >= 150 on SQLite): "
        f"{len(most['keys']) / most['seconds']:.0f} deals/s, "
        f"p50 {statistics.median(most['latencies']) * ms:.0f} ms, {counted(most, peak)}"
    )
    p95_quiet, p95_busy = (percentile(r["latencies"], 0.95) for r in (quiet, busy))
    print(
        f"load {name}: night p95 while the worker makes 512 match sheets twice / without "
        f"(goal <= 2x): {p95_busy / p95_quiet:.1f}x (p95 {p95_quiet * ms:.0f} ms -> "
        f"{p95_busy * ms:.0f} ms; jobs started {made} of {len(keys)}; {counted(busy, night)})"
    )


if __name__ == "__main__":
    main()
