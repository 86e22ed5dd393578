"""``make bench``: the figures the score-keeping issue asks for, from one run.

Prints, on a fresh SQLite database in a temporary folder (or on DATABASE_URL):
- queries of recording a deal, and of the sheet page at 10 and 100 deals;
- on SQLite and PostgreSQL (``tests.bench_speed``, a process per database): recording
  a deal against a minimal write view, the sheet page of 100 deals against a trivial
  view, and both at 100 against 10 deals;
- the gzip weight of the sheet page with its CSS and scripts (HTML, CSS, JS apart);
- the Lighthouse scores of the sheet page, phone profile (npm lighthouse 12 driving the
  system Chromium), when Node and Chromium are there; a missing or failing Lighthouse
  is reported, never fatal.

- the season ranking (RULES.md 7): its queries at 100 players and 1,000 sheets and at
  200 players and 2,000 sheets (flat), its time against the trivial view, and the time
  of a player's page.
- the load run (``tests.load_bench``, on SQLite and PostgreSQL): one phone alone, a night
  of 64 phones (open loop) and the most deals per second, against gunicorn.
- a federation's server (``tests.federation_bench``): 50 nights at once on PostgreSQL
  with Redis, the server's CPU per phone per minute and the cores 5,000 phones need.
- slow clients (``tests.bench_slow``): 10 sending headers and 10 sending bodies one byte
  a second beside phones recording deals, behind Caddy and against gunicorn alone: the
  phones' deal p95 with and without them.
- the push server under a burst (``tests.bench_holds``): 2,000 holds on one link while
  other phones poll, their p95 against without.

``BENCH_LIGHTHOUSE=0``, ``BENCH_LOAD=0``, ``BENCH_TOURNAMENT=0``, ``BENCH_SEASON=0``,
``BENCH_FORMATS=0``, ``BENCH_FEDERATION=0``, ``BENCH_SLOW=0`` and ``BENCH_HOLDS=0`` leave
those parts out.
PostgreSQL: ``BENCH_PG_URL`` names a database the bench may drop and create (default
``postgres://postgres@127.0.0.1:5432/bummerl_bench``); unreachable, those lines say so.
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
os.environ.setdefault("BUMMERL_SETUP_CODE_FILE", str(WORK / "setup-code.json"))  # not the project's
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bummerl.settings")
os.environ["DJANGO_DEBUG"] = "1"
# Printouts kept by an earlier run must not answer this run's PDF figures.
os.environ["BUMMERL_PRINT_CACHE"] = str(WORK / "printouts")
sys.path.insert(0, str(ROOT))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from tests import factories  # noqa: E402
from tests.serving import serving  # noqa: E402


def say(label: str, value: str) -> None:
    print(f"{label:<58} {value}")


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
    club = factories.club(name="Bench")
    user = factories.user(club, role="organiser")
    client = Client()
    client.force_login(user)
    sheet = factories.sheet(club)
    page = f"/tables/{sheet.pk}/"
    record = f"/tables/{sheet.pk}/record/"

    print(f"Bummerl bench · database {connection.vendor} · {time.strftime('%Y-%m-%d %H:%M')}")
    factories.fill(sheet, count=10)
    at_10 = queries(client, "get", page)
    factories.fill(sheet, count=99)
    say(
        "queries: record a deal (goal <= 8)",
        str(queries(client, "post", record, factories.deal_form(sheet))),
    )
    say("queries: sheet page, 10 deals", str(at_10))
    say("queries: sheet page, 100 deals (goal <= 6, flat)", str(queries(client, "get", page)))
    say(
        "queries: sheet page shown again (kept, scoring.fragments)",
        str(queries(client, "get", page)),
    )

    second = factories.sheet(club, names=("Dora", "Emil", "Fritz"))
    factories.fill(second, count=20)
    speed_figures()

    page_weight(client.get(page).content)
    if os.environ.get("BENCH_SEASON", "1") == "1":
        season_figures(client, median_time(lambda: client.get("/healthz"), 200))
    taps_table()
    if os.environ.get("BENCH_TOURNAMENT", "1") == "1":
        tournament_figures(club, client)
    if os.environ.get("BENCH_FORMATS", "1") == "1":
        format_figures(club, client)
    if os.environ.get("BENCH_LIGHTHOUSE", "1") == "1":
        try:
            lighthouse(second)
        except (OSError, subprocess.SubprocessError) as error:
            say("lighthouse", f"skipped: {error.__class__.__name__}")
    if os.environ.get("BENCH_LOAD", "1") == "1":
        load_figures()
    if os.environ.get("BENCH_FEDERATION", "1") == "1":
        federation_figures()
    if os.environ.get("BENCH_SLOW", "1") == "1":
        slow_figures()
    if os.environ.get("BENCH_HOLDS", "1") == "1":
        holds_figures()


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
                lambda: f"{base}/e/{factories.sheet(factories.club(name='Taps')).entry_token}/",
                {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu"]},
            )
        except Exception as error:  # noqa: BLE001 - report and go on
            say("taps table", f"failed: {error.__class__.__name__}: {str(error)[:200]}")
            return
    print("taps/scrolls per deal (goal: normal 2/0, contract 2-3/0, Spritzen <=4/0,")
    print("tie-break 1/0, undo 1/0):")
    for line in thumb.table(results):
        print("  " + line)
    with serving(WORK) as base:

        def bauern_sheet():
            sheet = factories.sheet(
                factories.club(name="Taps"), names=thumb.NAMES_4, preset="bauern"
            )
            return f"{base}/e/{sheet.entry_token}/"

        try:
            results = thumb.measure(
                bauern_sheet,
                {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu"]},
                play=thumb.play_bauern_evening,
            )
        except Exception as error:  # noqa: BLE001 - report and go on
            say("Bauernschnapsen taps table", f"failed: {error.__class__.__name__}: {error}"[:240])
            return
    print("Bauernschnapsen, taps/scrolls per deal (the same goals):")
    for line in thumb.table(results):
        print("  " + line)


def databases(what: str):
    """The environments of a run on SQLite and, when it answers, on a fresh PostgreSQL
    database (``BENCH_PG_URL``)."""
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
        say(f"{what} on PostgreSQL", f"skipped: {error.__class__.__name__}")
    for extra in runs:
        env = {**os.environ, **extra}
        env.pop("SQLITE_PATH", None)
        if not extra["DATABASE_URL"]:
            env.pop("DATABASE_URL")
        yield env


def speed_figures() -> None:
    """The cost of a deal against the yardsticks, on SQLite and PostgreSQL."""
    per_database("tests.bench_speed", "speed")


def load_figures() -> None:
    """The load run against gunicorn, on SQLite and (when it answers) PostgreSQL."""
    per_database("tests.load_bench", "load")


def federation_figures() -> None:
    """50 nights at once on PostgreSQL with Redis (``tests.federation_bench``), in a
    process of its own; it says why when PostgreSQL or Redis does not answer."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.federation_bench"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH", "DATABASE_URL")},
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    print(done.stdout.strip() or f"federation run failed: {done.stderr.strip()[-300:]}")


def slow_figures() -> None:
    """Slow clients beside phones recording deals, behind Caddy and against gunicorn alone
    (``tests.bench_slow``), in a process of its own whose lines print as they come."""
    env = {k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH", "DATABASE_URL")}
    subprocess.run([sys.executable, "-m", "tests.bench_slow"], cwd=ROOT, env=env, timeout=600)


def holds_figures() -> None:
    """The push server under a burst of holds (``tests.bench_holds``), in a process of
    its own, its lines printed as they come; it says why when Redis does not answer."""
    subprocess.run(
        [sys.executable, "-m", "tests.bench_holds"],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k not in ("SQLITE_PATH", "DATABASE_URL")},
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=600,
    )


def per_database(module: str, what: str) -> None:
    """Run ``python -m module`` once per database of ``databases`` and print its lines."""
    print(
        f"machine load average (1 min) before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for env in databases(what):
        done = subprocess.run(
            [sys.executable, "-m", module],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=900,
        )
        print(done.stdout.strip() or f"{what} run failed: {done.stderr.strip()[-300:]}")


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
    round_one = simulate(
        club, cards=1024, players=400, max_cards=3, seed=7, name="Bench 1024 R1", stop_after=1
    )
    for t, when in ((round_one, "round 1 open"), (finished, "finished")):
        room_screen_figures(client, t, when)
    verify_figures(client, finished)


ROOM_ASSETS = ["static/css/screen.css", "static/js/screen.js"]


def room_screen_figures(client, t, when: str) -> None:
    """The room screen of a 1024-card night: queries, and its weight (HTML, and with
    its CSS and JS, gzip level 6)."""
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/p/{t.public_token}/screen/")
    html = response.content
    assets = sum(len(gzip.compress((ROOT / f).read_bytes(), 6)) for f in ROOM_ASSETS)
    say(f"queries: room screen, {t.cards} cards, {when} (goal <= 12)", str(statements(captured)))
    say(
        f"room screen page, {t.cards} cards, {when}: HTML / gzip / gzip with CSS+JS",
        f"{len(html) / 1024:.0f} KB / {len(gzip.compress(html, 6)) / 1024:.1f} KB"
        f" / {(len(gzip.compress(html, 6)) + assets) / 1024:.1f} KB",
    )


def season_sheets(club, people, count: int, first_day) -> None:
    """``count`` two-player Schnapsen sheets among ``people``, each a decided Partie,
    written in bulk (the rule core scores the deals as the services would), spread over
    100 days from ``first_day``."""
    import datetime as dt

    from scoring import rules as core
    from scoring.models import Deal, Seat, Sheet
    from seasons.days import start_of

    rules = factories.presets()["wiki"]
    core_rules = rules.rules
    q = core.QuickDeal
    to_first = [q(0, 1), q(1, 3), q(1, 3), q(1, 1)]  # a Bummerl to seat 0
    to_second = [q(1, 1), q(0, 3), q(0, 3), q(0, 1)]
    plans = [
        [q(1, 3), q(1, 3), q(1, 1)],  # Schneider to seat 0: 2 Bummerl, the Partie decided
        to_first + to_second + to_first,
    ]
    scored = [core.score_sheet("schnapsen", core_rules, 0, plan) for plan in plans]
    sheets = Sheet.objects.bulk_create(
        Sheet(club=club, variant="schnapsen", rule_set=rules, rules=rules.data)
        for _ in range(count)
    )
    seats, deals = [], []
    n = len(people)
    for i, sheet in enumerate(sheets):
        first, second = people[i % n], people[(i * 7 + 1 + i // n) % n]
        if first == second:
            second = people[(i + 1) % n]
        plan, state = plans[i % 2], scored[i % 2]
        figures = state.seat_figures()
        seats += [Seat(sheet=sheet, player=first, position=0, **figures[0])]
        seats += [Seat(sheet=sheet, player=second, position=1, **figures[1])]
        for position, (entry, line) in enumerate(zip(plan, state.lines, strict=True), 1):
            kind, inputs = Deal.inputs_of(entry)
            deals.append(
                Deal(
                    sheet=sheet,
                    position=position,
                    kind=kind,
                    inputs=inputs,
                    points=list(line.points),
                    key=uuid.uuid4(),
                )
            )
    Seat.objects.bulk_create(seats, batch_size=2000)
    Deal.objects.bulk_create(deals, batch_size=2000)
    for day in range(100):
        ids = [s.pk for i, s in enumerate(sheets) if i % 100 == day]
        when = start_of(first_day + dt.timedelta(days=day)) + dt.timedelta(hours=19)
        Sheet.objects.filter(pk__in=ids).update(created_at=when)


def season_figures(client, trivial: float) -> None:
    """The season ranking's queries at two sizes, its time, and a player's page."""
    import datetime as dt

    from seasons.models import Season

    club = factories.club(name="Bench season")
    user = factories.user(club, role="owner")
    client.force_login(user)
    first_day = dt.date(2026, 1, 1)
    season = Season.objects.create(
        club=club, name="2026", first_day=first_day, last_day=dt.date(2026, 12, 31)
    )
    url = f"/c/{club.slug}/seasons/{season.pk}/"
    people = factories.players(club, *[f"Spieler {i:03d}" for i in range(200)])
    season_sheets(club, people[:100], 1000, first_day)
    small = queries(client, "get", url)
    season_sheets(club, people[100:], 1000, first_day)
    say("queries: season ranking, 100 players, 1,000 sheets", str(small))
    say(
        "queries: season ranking, 200 players, 2,000 sheets (flat)",
        str(queries(client, "get", url)),
    )
    took = median_time(lambda: client.get(url), 5)
    say("season ranking, 200 players, 2,000 sheets, median", f"{took * 1000:.0f} ms")
    say("ratio season ranking / trivial", f"{took / trivial:.0f}x")
    player = f"/c/{club.slug}/players/{people[0].pk}/"
    took = median_time(lambda: client.get(player), 5)
    say("player's page, 20 sheets of 2,000, median", f"{took * 1000:.0f} ms")


def format_figures(club, client) -> None:
    """Leben and points events (RULES.md 5.10, 6): the draw of a round through the
    service (the tournament read, the pure core, the rows written) at 128 to 1024
    players and its growth per player, and the queries of the public standings board."""
    import random

    from tournaments.services.draws import draw_round, undo_draw
    from tournaments.services.sheets import Actor
    from tournaments.simulation import play_open_matches, simulate_format

    actor = Actor()

    def draw_time(t) -> tuple[float, float]:
        """Medians (wall, CPU of this process) of drawing the next round, undone again
        after each measurement. The growth is read on the CPU time: on a shared machine
        the wall time also counts the waits for other processes and the disk."""
        walls, cpus = [], []
        for i in range(5):
            t.refresh_from_db()
            wall, cpu = time.perf_counter(), time.process_time()
            round_ = draw_round(t, actor, seed=i)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            undo_draw(t, round_.pk, actor)
        return statistics.median(walls), statistics.median(cpus)

    boards = []
    for kind, label in (("leben", "Leben round 1"), ("points", "Danish round 3")):
        per_player = []
        for players in (128, 256, 512, 1024):
            t = simulate_format(club, kind, players, 1, rounds=5, stop_after=0)
            if kind == "points":  # two rounds played: round 3 pairs by the standing
                rng = random.Random(players)
                for _ in range(2):
                    draw_round(t, actor, seed=rng.getrandbits(32))
                    play_open_matches(t, rng)
            wall, cpu = draw_time(t)
            per_player.append(cpu / players)
            say(
                f"draw: {label}, {players} players (service)",
                f"{wall * 1000:.1f} ms (CPU {cpu * 1000:.1f} ms)",
            )
            if players in (128, 1024):
                boards.append((kind, players, t))
        say(
            f"CPU time per player, {label}, 1024 vs 128 (linear: about 1)",
            f"{per_player[-1] / per_player[0]:.2f}",
        )
    for kind, players, t in boards:
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/p/{t.public_token}/")
        say(
            f"queries: standings board, {kind}, {players} players (flat)",
            f"{statements(captured)} ({len(response.content) // 1024} KB)",
        )
    format_verify_figures(club, client)


def format_verify_figures(club, client) -> None:
    """The check of every draw (RULES.md 5.12) of a finished Leben and points event: the
    replay of the export, and the public check page (export and replay)."""
    from tournaments.export import export
    from tournaments.simulation import simulate_format
    from tournaments.verify import check_export

    for kind, players, options in (("leben", 256, {"lives": 2}), ("points", 256, {"rounds": 10})):
        t = simulate_format(club, kind, players, 2, **options)
        document = export(t)
        took = median_time(lambda document=document: check_export(document), 3)
        rounds = len(document["rounds"])
        say(
            f"verify every draw of a {kind} event, {players} players, {rounds} rounds",
            f"{took * 1000:.0f} ms",
        )
        client.get(f"/p/{t.public_token}/verify/")  # templates loaded
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            client.get(f"/p/{t.public_token}/verify/")
            took = time.perf_counter() - started
        say(
            f"public check page, {kind} event, {players} players",
            f"{took * 1000:.0f} ms, {statements(captured)} queries",
        )


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

    from base.printing import render_pdf
    from tests.turns import in_turns
    from tournaments import bracket_sheet, printing
    from tournaments.simulation import simulate

    middle = simulate(club, cards=128, players=60, max_cards=3, seed=8, name="Bench 128")
    # In turns, by CPU time, so that both are measured under the same load (fonts are
    # registered in the first round, which is not counted).
    one_page, bracket = in_turns(  # ms
        lambda: render_pdf("print/prizes.html", printing.prizes_context(small)),
        lambda: render_pdf("print/bracket.html", bracket_sheet.bracket_context(middle)),
        rounds=5,
    )
    pdf = render_pdf("print/bracket.html", bracket_sheet.bracket_context(middle))
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    say("PDF: one page (prize list), median CPU", f"{one_page:.0f} ms")
    say("PDF: 128-card bracket, median CPU", f"{bracket:.0f} ms, {pages} pages")
    say("PDF: ratio 128-card bracket / one page (goal <= 3x)", f"{bracket / one_page:.1f}x")
    started, cpu = time.perf_counter(), time.process_time()
    pdf = render_pdf("print/bracket.html", bracket_sheet.bracket_context(finished))
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    say(
        "PDF: 1024-card bracket (goal <= 3 s)",
        f"{took:.1f} s ({cpu:.1f} s CPU), {pages} pages, {len(pdf) // 1024} KB",
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

    organiser = factories.user(club, role="organiser")
    client = Client()
    client.force_login(organiser)
    from django.core.cache import caches

    from base.printing import make_printout

    t = factories.tournament(club, cards=1024, sold=1024, name="Bench 512 sheets")
    draw_round(t, Actor(), seed=5)
    url = f"/c/{club.slug}/tournaments/{t.pk}/rounds/1/sheets.pdf"
    trivial = median_time(lambda: client.get("/healthz"), 50)
    # The request: the task worker makes the file (base.tasks); the page answers at once.
    started = time.perf_counter()
    asked = client.get(url)
    request_time = time.perf_counter() - started
    one_page = median_time(
        lambda: (
            caches["printouts"].clear(),
            client.get(f"/c/{club.slug}/tournaments/{t.pk}/print/prizes.pdf"),
        ),
        5,
    )
    say(
        "PDF: 512 match sheets, the request (the worker makes it)",
        f"{request_time * 1000:.0f} ms, status {asked.status_code}",
    )
    say(
        "ratio 512 match sheets request / a one-page PDF (goal <= 3x)",
        f"{request_time / one_page:.1f}x ({one_page * 1000:.0f} ms)",
    )
    # The worker's job, made here as the worker makes it.
    started, cpu = time.perf_counter(), time.process_time()
    make_printout(
        "tournaments.printing.match_sheets_job",
        [t.pk, t.rounds.get().pk],
        "de-at",
        "http://192.168.1.20:8000",
        None,
        "bench",
    )
    took, cpu = time.perf_counter() - started, time.process_time() - cpu
    pdf = caches["printouts"].get("bench")
    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    say(
        "PDF: 512 match sheets of round 1, 1024 cards (the worker's job)",
        f"{took:.1f} s ({cpu:.1f} s CPU), {pages} pages, {len(pdf) // 1024} KB",
    )
    say("ratio 512 match sheets (worker) / trivial view", f"{took / trivial:.0f}x")
    desk_figures(client, club, t)


def desk_figures(client, club, t) -> None:
    """The desk of a sold-out 1024-card night with round 1 drawn and 100 tables: its
    queries, and the "where do I play" (1024 lines) and cash report PDFs, through the views."""
    t.tables = 100
    t.save(update_fields=["tables"])
    base = f"/c/{club.slug}/tournaments/{t.pk}"
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"{base}/")
    say(
        "queries: desk, 1024 cards, round 1 drawn",
        f"{statements(captured)} ({len(response.content) // 1024} KB)",
    )
    for label, path in (
        ("PDF: where do I play, 1024 cards (view)", "/print/seats.pdf"),
        ("PDF: cash report, 1024 cards (view)", "/print/cash.pdf"),
    ):
        started = time.perf_counter()
        response = client.get(base + path)
        say(label, f"{time.perf_counter() - started:.1f} s, {len(response.content) // 1024} KB")


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
