"""``python -m tests.bench_speed``: the cost of a deal against two yardsticks, on the
database the environment names (a SQLite file in a temporary folder, or DATABASE_URL).

Medians of the CPU time of each request (``time.process_time``: the figures hold on a
busy machine, where wall time mostly measures the neighbours) over one run, through
the whole middleware stack, signed in, with Django's test client (``tests.bench_urls``
adds the yardsticks): the sheet page at 10 and 100 deals against a trivial view,
recording a deal (htmx POST and the partial) at 10 and 100 deals against a minimal
write view. Each is measured in turns with its yardstick and its other size, request
by request, so that a ratio compares figures taken under the same load (a virtual
machine's speed drifts by half within a minute). Run by ``make bench`` on SQLite and PostgreSQL.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-speed-"))
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(WORK / "speed.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
os.environ["DJANGO_DEBUG"] = "0"
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-" + "k" * 50)
os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
os.environ["DJANGO_SSL_REDIRECT"] = "0"
os.environ["DJANGO_SECURE_COOKIES"] = "0"
os.environ["DJANGO_HSTS_SECONDS"] = "0"
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from tests import factories  # noqa: E402
from tests.turns import in_turns  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "60"))


def main() -> None:
    # Static files as in development (no manifest needed), everything else as served.
    settings.STORAGES["staticfiles"]["BACKEND"] = (
        "django.contrib.staticfiles.storage.StaticFilesStorage"
    )
    settings.ROOT_URLCONF = "tests.bench_urls"
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club(name="Speed")
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    sheets = {}
    for count in (10, 100):
        sheets[count] = factories.sheet(club, names=(f"A{count}", f"B{count}", f"C{count}"))
        factories.fill(sheets[count], count=count)
    pages = [lambda sheet=sheet: client.get(f"/tables/{sheet.pk}/") for sheet in sheets.values()]
    trivial, *page = in_turns(lambda: client.get("/bench/read/"), *pages, rounds=ROUNDS)
    forms = {}

    def post(count):
        url = f"/tables/{sheets[count].pk}/record/"
        response = client.post(url, forms[count], headers={"HX-Request": "true"})
        assert response.status_code == 200 and b"field-error" not in response.content

    def new_forms():  # each sheet grows by one deal a round
        forms.update({count: factories.deal_form(sheet) for count, sheet in sheets.items()})

    write, *record = in_turns(
        lambda: client.post("/bench/write/", {"club": club.pk}),
        lambda: post(10),
        lambda: post(100),
        rounds=ROUNDS // 2,
        before=new_forms,
    )
    page, record = (
        dict(zip((10, 100), page, strict=True)),
        dict(zip((10, 100), record, strict=True)),
    )
    db = connection.vendor

    def say(label: str, value: str) -> None:
        print(f"{db + ': ' + label:<66} {value}")

    say("trivial view (signed in, 1-line template), median CPU", f"{trivial:.2f} ms")
    say("minimal write view (1 row, 1-line template), median CPU", f"{write:.2f} ms")
    for count in (10, 100):
        say(f"sheet page, {count} deals, median CPU", f"{page[count]:.2f} ms")
        say(f"record a deal (POST + partial), {count} deals, median CPU", f"{record[count]:.2f} ms")
    say("ratio sheet page of 100 deals / trivial (goal <= 3x)", f"{page[100] / trivial:.1f}x")
    say("ratio record a deal / minimal write (goal <= 4x)", f"{record[100] / write:.1f}x")
    say("flat: sheet page 100 / 10 deals (goal <= 1.3x)", f"{page[100] / page[10]:.2f}x")
    say("flat: record 100 / 10 deals (goal <= 1.3x)", f"{record[100] / record[10]:.2f}x")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
