"""``python -m tests.load_bench``: 64 phones for 30 s against gunicorn (``make serve``
settings), on the database the environment names (SQLite file, or DATABASE_URL).
Prints requests per second, p50/p95 latency, errors, and lost or doubled writes counted
in the database afterwards. Run by ``make bench`` on SQLite and on PostgreSQL."""

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-load-"))
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(WORK / "load.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from scoring.models import Deal  # noqa: E402
from tests import factories, load  # noqa: E402
from tests.serving import serving  # noqa: E402
from tournaments.models import Pairing, Result  # noqa: E402
from tournaments.simulation import simulate  # noqa: E402

PHONES, RESULT_PHONES, SECONDS = 48, 16, float(os.environ.get("LOAD_SECONDS", "30"))


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club("Load")
    sheets = [factories.sheet(club, names=(f"A{i}", f"B{i}", f"C{i}")) for i in range(PHONES + 1)]
    t = simulate(club, cards=1024, players=1024, max_cards=1, seed=3, stop_after=1)
    # stop_after leaves three matches open; open all of round 1 again for the phones
    Result.objects.filter(pairing__tournament=t).delete()
    tokens = list(
        Pairing.objects.filter(tournament=t, kind="match").values_list("token", flat=True)
    )
    connection.close()

    with serving(WORK, gunicorn=True) as base:
        single = load.run(base, [sheets[-1].entry_token], [], seconds=5)
        many = load.run(
            base, [s.entry_token for s in sheets[:PHONES]], tokens, SECONDS, RESULT_PHONES
        )
    figures = load.summary(many, SECONDS)
    stored = set(
        map(str, Deal.objects.filter(sheet__in=sheets[:PHONES]).values_list("key", flat=True))
    )
    results = set(
        map(str, Result.objects.filter(pairing__tournament=t).values_list("key", flat=True))
    )
    lost = len(many.deal_keys - stored) + len(many.result_keys - results)
    doubled = Deal.objects.filter(sheet__in=sheets[:PHONES]).count() - len(stored)
    p50_single = load.summary(single, 5)["p50"]
    name = connection.vendor
    print(
        f"load {name}: {PHONES + RESULT_PHONES} phones, {SECONDS:.0f} s: "
        f"{figures['per_second']:.0f} requests/s, p50 {figures['p50'] * 1000:.0f} ms, "
        f"p95 {figures['p95'] * 1000:.0f} ms, errors {figures['errors']}, lost {lost}, doubled {doubled}"
    )
    print(
        f"load {name}: one phone p50 {p50_single * 1000:.0f} ms; "
        f"p95 / single p50 = {figures['p95'] / p50_single:.1f}x (goal <= 3x)"
    )


if __name__ == "__main__":
    main()
