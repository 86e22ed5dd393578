"""``make bench``: the figures the score-keeping issue asks for, from one run.

Prints, on a fresh SQLite database in a temporary folder (or on DATABASE_URL):
- queries of recording a deal, and of the sheet page at 10 and 100 deals;
- the time of recording a deal (htmx POST and the partial) divided by the time of a
  trivial view (``/healthz``), medians over the same run;
- the gzip weight of the sheet page with its CSS and scripts (HTML, CSS, JS apart);
- the Lighthouse scores of the sheet page, phone profile (npm lighthouse 12 driving the
  system Chromium), when Node and Chromium are there; a missing or failing Lighthouse
  is reported, never fatal.

``BENCH_LIGHTHOUSE=0``, ``BENCH_LOAD=0`` and ``BENCH_TOURNAMENT=0`` leave those parts out.
"""

import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path(tempfile.mkdtemp(prefix="bummerl-bench-"))
os.environ.setdefault("SQLITE_PATH", str(WORK / "bench.sqlite3"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
os.environ["DJANGO_DEBUG"] = "1"
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring import services  # noqa: E402
from scoring.rules import DreierDeal, TieBreak  # noqa: E402
from tests import factories  # noqa: E402
from tests.serving import serving  # noqa: E402


def say(label: str, value: str) -> None:
    print(f"{label:<58} {value}")


def next_entry(sheet):
    state = services.read_sheet(sheet).state
    if state.awaiting_tiebreak:
        return TieBreak(state.awaiting_tiebreak[0])
    return DreierDeal("normal", state.rufer, True, 0, 1 + len(state.lines) % 3)


def fill(sheet, count: int) -> None:
    while len(services.read_sheet(sheet).deals) < count:
        services.record_entry(sheet, next_entry(sheet), uuid.uuid4(), services.Actor())


def form_data(sheet) -> dict:
    entry = next_entry(sheet)
    if isinstance(entry, TieBreak):
        return {"key": str(uuid.uuid4()), "kind": "tiebreak", "tiebreak_winner": entry.winner}
    return {
        "key": str(uuid.uuid4()),
        "kind": "dreier",
        "declarer": entry.declarer,
        "contract": "normal",
        "normal_points": entry.normal_points,
        "won": "1",
    }


def statements(captured) -> int:
    """Queries sent, less the transaction's own BEGIN/COMMIT/SAVEPOINT statements."""
    skip = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
    return sum(1 for q in captured.captured_queries if not q["sql"].startswith(skip))


def queries(client, method, url, data=None) -> int:
    connection.queries_log.clear()  # a full log would make the capture count nothing
    with CaptureQueriesContext(connection) as captured:
        if method == "post":
            client.post(url, data, headers={"HX-Request": "true"})
        else:
            client.get(url)
    return statements(captured)


def median_time(call, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club("Bench")
    user = factories.user(club, "organiser")
    client = Client()
    client.force_login(user)
    sheet = factories.sheet(club)
    page = f"/tables/{sheet.pk}/"
    record = f"/tables/{sheet.pk}/record/"

    print(f"Bummerl bench · database {connection.vendor} · {time.strftime('%Y-%m-%d %H:%M')}")
    fill(sheet, 10)
    at_10 = queries(client, "get", page)
    fill(sheet, 99)
    say(
        "queries: record a deal (goal <= 8)", str(queries(client, "post", record, form_data(sheet)))
    )
    say("queries: sheet page, 10 deals", str(at_10))
    say("queries: sheet page, 100 deals (goal <= 6, flat)", str(queries(client, "get", page)))

    trivial = median_time(lambda: client.get("/healthz"), 200)
    second = factories.sheet(club, names=("Dora", "Emil", "Fritz"))
    second_record = f"/tables/{second.pk}/record/"
    fill(second, 20)
    posts = []
    for _ in range(60):
        data = form_data(second)
        start = time.perf_counter()
        client.post(second_record, data, headers={"HX-Request": "true"})
        posts.append(time.perf_counter() - start)
    recording = statistics.median(posts)
    say("trivial view /healthz, median", f"{trivial * 1000:.2f} ms")
    say("record a deal (POST + partial), median, 20-80 deals", f"{recording * 1000:.2f} ms")
    say("ratio record / trivial (goal <= 1.5x)", f"{recording / trivial:.1f}x")

    page_weight(client.get(page).content)
    taps_table()
    if os.environ.get("BENCH_TOURNAMENT", "1") == "1":
        tournament_figures(club, client)
    if os.environ.get("BENCH_LIGHTHOUSE", "1") == "1":
        try:
            lighthouse(second)
        except (OSError, subprocess.SubprocessError) as error:
            say("lighthouse", f"skipped: {error.__class__.__name__}")
    if os.environ.get("BENCH_LOAD", "1") == "1":
        load_figures()


SHEET_ASSETS = {
    "CSS": ["static/css/site.css"],
    "JS": ["static/vendor/htmx-2.0.11.min.js", "static/js/site.js", "static/js/live.js"],
}
"""What the sheet page loads besides its HTML (the fonts and icons are not asked for by
a phone showing the sheet; the service worker's own script is counted with the JS)."""


def page_weight(html: bytes) -> None:
    """The sheet page's HTML, CSS and JS, each gzip-compressed (level 6), and the sum."""
    sizes = {"HTML": len(gzip.compress(html, 6))}
    for kind, files in SHEET_ASSETS.items():
        sizes[kind] = sum(len(gzip.compress((ROOT / f).read_bytes(), 6)) for f in files)
    worker = Client().get("/sw.js").content
    sizes["JS"] += len(gzip.compress(worker, 6))
    parts = " + ".join(f"{kind} {size / 1024:.1f}" for kind, size in sizes.items())
    say(
        "sheet page of 100 deals + assets, gzip (goal <= 40 KB)",
        f"{sum(sizes.values()) / 1024:.1f} KB",
    )
    say("  of which (KB)", parts)


def taps_table() -> None:
    """Taps and scrolls per deal kind of a 20-deal evening on two phone sizes
    (``tests.thumb``, the measurement of the browser test)."""
    from tests import thumb
    from tests.conftest import CHROMIUM

    if not CHROMIUM or os.environ.get("BENCH_TAPS", "1") != "1":
        say("taps table", "skipped: needs chromium")
        return
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with serving(WORK) as base:
        try:
            results = thumb.measure(
                lambda: f"{base}/e/{factories.sheet(factories.club('Taps')).entry_token}/",
                {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu"]},
            )
        except Exception as error:  # noqa: BLE001 - report and go on
            say("taps table", f"failed: {error.__class__.__name__}: {str(error)[:200]}")
            return
    print("taps/scrolls per deal (goal: normal 2/0, contract 2-3/0, Spritzen <=4/0,")
    print("tie-break 1/0, undo 1/0):")
    for line in thumb.table(results):
        print("  " + line)


def load_figures() -> None:
    """64 phones for 30 s against gunicorn, on SQLite and (when it answers) PostgreSQL."""
    runs = [{"DATABASE_URL": ""}]
    pg = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/bummerl_bench")
    try:
        import psycopg

        with psycopg.connect(pg.rsplit("/", 1)[0] + "/postgres", autocommit=True) as admin:
            name = pg.rsplit("/", 1)[1]
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            admin.execute(f'CREATE DATABASE "{name}"')
        runs.append({"DATABASE_URL": pg})
    except Exception as error:  # noqa: BLE001 - report and go on
        say("load on PostgreSQL", f"skipped: {error.__class__.__name__}")
    for extra in runs:
        env = {**os.environ, **extra}
        env.pop("SQLITE_PATH", None)
        if not extra["DATABASE_URL"]:
            env.pop("DATABASE_URL")
        done = subprocess.run(
            [sys.executable, "-m", "tests.load_bench"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        print(done.stdout.strip() or f"load run failed: {done.stderr.strip()[-300:]}")


def tournament_figures(club, client) -> None:
    """The draw's time and growth, and the live bracket of a finished 1024-card night."""
    import random

    from tournaments.draw import Holder, digital_draw
    from tournaments.simulation import simulate

    def holders(cards: int, players: int) -> list:
        rng = random.Random(cards)
        counts = [1] * players
        while sum(counts) < cards:
            i = rng.randrange(players)
            if counts[i] < 3:
                counts[i] += 1
        out, next_card = [], 1
        for player, count in enumerate(counts, start=1):
            out.append(Holder(player, tuple(range(next_card, next_card + count))))
            next_card += count
        return out

    per_card = []
    for cards in (128, 256, 512, 1024):
        field = holders(cards, max(cards * 400 // 1024, cards // 3 + 1))
        took = median_time(
            lambda field=field, cards=cards: digital_draw(field, cards // 2, 7, False), 15
        )
        per_card.append(took / cards)
        say(f"draw round 1, {cards} cards, {len(field)} players", f"{took * 1000:.2f} ms")
    growth = per_card[-1] / per_card[0]
    say("time per card, 1024 vs 128 cards (linear: about 1)", f"{growth:.2f}")

    started = time.perf_counter()
    finished = simulate(club, cards=1024, players=400, max_cards=3, seed=7, name="Bench 1024")
    say("simulate a whole 1024-card night (setup)", f"{time.perf_counter() - started:.0f} s")
    small = simulate(club, cards=16, players=10, max_cards=3, seed=7, name="Bench 16")
    pdf_figures(club, small, finished)
    for t in (small, finished):
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/p/{t.public_token}/")
        say(
            f"queries: live bracket, finished {t.cards}-card night (goal <= 12)",
            f"{statements(captured)} ({len(response.content) // 1024} KB)",
        )
    verify_figures(client, finished)


def verify_figures(client, finished) -> None:
    """The check of every draw (RULES.md 5.12) of the finished 1024-card night."""
    from tournaments.export import export
    from tournaments.verify import check_export

    document = export(finished)
    took = median_time(lambda: check_export(document), 3)
    say("verify every draw of a 1024-card night (replay, hashes)", f"{took * 1000:.0f} ms")
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        client.get(f"/p/{finished.public_token}/verify/")
        took = time.perf_counter() - started
    say(
        "public check page, 1024-card night",
        f"{took * 1000:.0f} ms, {statements(captured)} queries",
    )


def pdf_figures(club, small, finished) -> None:
    """Printing: a 128-card bracket against a one-page PDF, and the 1024-card bracket."""
    import io

    from pypdf import PdfReader

    from bummerl.printing import render_pdf
    from tournaments import printing
    from tournaments.simulation import simulate

    middle = simulate(club, cards=128, players=60, max_cards=3, seed=8, name="Bench 128")
    one_page = median_time(
        lambda: render_pdf("print/prizes.html", printing.prizes_context(small)), 5
    )
    bracket = median_time(
        lambda: render_pdf("print/bracket.html", printing.bracket_context(middle)), 3
    )
    say("PDF: one page (prize list), median", f"{one_page * 1000:.0f} ms")
    say("PDF: 128-card bracket, median", f"{bracket * 1000:.0f} ms")
    say("PDF: ratio 128-card bracket / one page (goal <= 4x)", f"{bracket / one_page:.1f}x")
    started = time.perf_counter()
    pdf = render_pdf("print/bracket.html", printing.bracket_context(finished))
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    say(
        "PDF: 1024-card bracket",
        f"{time.perf_counter() - started:.1f} s, {pages} pages, {len(pdf) // 1024} KB",
    )
    match_sheet_figures(club)


def match_sheet_figures(club) -> None:
    """The largest printout: round 1's match sheets of a sold-out 1024-card night (512
    sheets), through the view, against the trivial view (gunicorn's timeout is 30 s by
    default; ``make serve`` sets 120 s)."""
    import io

    from pypdf import PdfReader

    from tournaments.services.draws import draw_round
    from tournaments.services.sheets import Actor

    organiser = factories.user(club, "organiser")
    client = Client()
    client.force_login(organiser)
    t = factories.tournament(club, cards=1024, sold=1024, name="Bench 512 sheets")
    draw_round(t, Actor(), seed=5)
    url = f"/c/{club.slug}/tournaments/{t.pk}/rounds/1/sheets.pdf"
    trivial = median_time(lambda: client.get("/healthz"), 50)
    started, cpu = time.perf_counter(), time.process_time()
    response = client.get(url)
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    pages = len(PdfReader(io.BytesIO(response.content)).pages)
    say(
        "PDF: 512 match sheets of round 1, 1024 cards (view)",
        f"{took:.1f} s ({cpu:.1f} s CPU), {pages} pages, {len(response.content) // 1024} KB",
    )
    say("ratio 512 match sheets / trivial view", f"{took / trivial:.0f}x")


def lighthouse(sheet) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not shutil.which("node") or not shutil.which("npm") or not chromium:
        say("lighthouse", "skipped: needs node, npm and chromium")
        return
    tools = ROOT / "bench-out"
    tools.mkdir(exist_ok=True)
    binary = tools / "node_modules/.bin/lighthouse"
    if not binary.exists():
        done = subprocess.run(
            ["npm", "install", "--prefix", str(tools), "--no-audit", "--no-fund", "lighthouse@12"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            say("lighthouse", "skipped: npm install lighthouse@12 failed")
            return
    with serving(WORK) as base:
        report = tools / "lighthouse.json"
        url = f"{base}/e/{sheet.entry_token}/"
        flags = "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run"
        done = subprocess.run(
            [
                str(binary),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={report}",
                "--only-categories=performance,accessibility,best-practices",
                f"--chrome-flags={flags}",
            ],
            env={**os.environ, "CHROME_PATH": chromium},
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        if done.returncode != 0 or not report.exists():
            say("lighthouse", f"failed: {done.stderr.strip()[-200:]}")
            return
        scores = json.loads(report.read_text())["categories"]
        for key, goal in (("performance", 95), ("accessibility", 100), ("best-practices", 100)):
            score = round(scores[key]["score"] * 100)
            say(f"lighthouse {key}, phone (goal >= {goal})", str(score))


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
