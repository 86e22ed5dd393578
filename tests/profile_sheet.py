"""``python -m tests.profile_sheet [N]``: where the time of a deal goes.

cProfile of recording a deal (the htmx POST and its partial) and of the sheet page at
10, 40 and 100 deals, on a fresh SQLite database in a temporary folder (or on
DATABASE_URL); prints the top ``N`` functions (default 15) by cumulative and by own time.
"""

import cProfile
import os
import pstats
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-profile-"))
os.environ.setdefault("SQLITE_PATH", str(WORK / "profile.sqlite3"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
os.environ["DJANGO_DEBUG"] = "1"  # as make bench: static files without a manifest
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from scoring import reading, services  # noqa: E402
from tests import factories  # noqa: E402

ROUNDS = 30
OURS = r"/(scoring|clubs|bummerl|template|partials|json)/"


def show(title: str, profile: cProfile.Profile, top: int) -> None:
    print(f"\n== {title} ({ROUNDS} calls)")
    # Cumulative: the project's own functions and the template engine; own time: all.
    pstats.Stats(profile).sort_stats("cumulative").print_stats(OURS, top)
    pstats.Stats(profile).strip_dirs().sort_stats("tottime").print_stats(top)


def main() -> None:
    top = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club(name="Profile")
    client = Client()
    client.force_login(factories.user(club, role="organiser"))
    for count in (10, 40, 100):
        sheet = factories.sheet(club, names=(f"A{count}", f"B{count}", f"C{count}"))
        factories.fill(sheet, count=count)
        page = f"/tables/{sheet.pk}/"
        client.get(page)  # warm: templates loaded, translations read
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(ROUNDS):
            client.get(page)
        profile.disable()
        show(f"sheet page, {count} deals", profile, top)
        # Recording: the sheet stays near ``count`` deals (each recorded deal struck again).
        record = f"/tables/{sheet.pk}/record/"
        profile = cProfile.Profile()
        for _ in range(ROUNDS):
            data = factories.deal_form(sheet)
            profile.enable()
            client.post(record, data, headers={"HX-Request": "true"})
            profile.disable()
            last = reading.read_sheet(sheet).live_deals[-1]
            services.void_deal(sheet, last.pk, services.Actor())
        show(f"record a deal (POST + partial), {count} deals", profile, top)


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
