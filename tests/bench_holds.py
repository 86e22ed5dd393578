"""``python -m tests.bench_holds`` (in ``make bench`` unless ``BENCH_HOLDS=0``): the push
server (``bummerl.asgi`` under uvicorn with the shipped unit's flags,
``deploy/bummerl-push.service``) against a burst of holds, on SQLite with Redis
(``HOLDS_REDIS_URL``, default database 7).

Prints, as each comes: the push server's CPU per request answered at once (a plain
poll, ``HOLDS_POLLS`` of them, 2,000); the p50/p95 of other phones' polls (``HOLDS_PHONES``
phones, 30, each asking its own table's version every half second) for
``HOLDS_SECONDS`` (10) alone, then as long again while ``HOLDS_BURST`` (2,000)
connections hold one table's link at once, each asking again as live.js does (at once
after a held answer, 2 s after any other), with how the burst was answered (held,
plain polls, refused); the goal: the phones' p95 with the burst at most twice without.
The polls while the burst arrives (until a second after its last connection asked) are
printed apart: the server reads 2,000 requests then, whatever it does with them. The
burst runs in a process of its own. Says why, and stops, when Redis does not answer.
"""

import asyncio
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
WORK = Path(tempfile.mkdtemp(prefix="bummerl-holds-"))
REDIS = os.environ.get("HOLDS_REDIS_URL", "redis://127.0.0.1:6379/7")
POLLS = int(os.environ.get("HOLDS_POLLS", "2000"))
PHONES = int(os.environ.get("HOLDS_PHONES", "30"))
SECONDS = float(os.environ.get("HOLDS_SECONDS", "10"))
BURST = int(os.environ.get("HOLDS_BURST", "2000"))
TICK = os.sysconf("SC_CLK_TCK")
SETTLE = 1.0
"""Seconds after the burst's last connection has asked until the server has read them
all: the polls meanwhile are the arrival's, printed apart."""


def say(label: str, value: str) -> None:
    print(f"{label:<58} {value}", flush=True)


async def ask(connection, path: str) -> tuple[int, dict[str, str], bytes]:
    """One GET on an open connection (``asyncio`` streams): status, headers, body."""
    reader, writer = connection
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
    status = int(head[0].split()[1])
    headers = {}
    for line in head[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    body = b""
    while size := int((await reader.readuntil(b"\r\n")).strip(), 16):
        body += (await reader.readexactly(size + 2))[:-2]
    await reader.readuntil(b"\r\n")
    return status, headers, body


async def connect(port: int):
    return await asyncio.open_connection("127.0.0.1", port)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def polls_cpu(port: int, path: str, pid: int) -> float:
    """The push server's CPU milliseconds per plain poll, ``POLLS`` of them on 4
    connections at once."""
    connections = [await connect(port) for _ in range(4)]
    for c in connections:
        await ask(c, path)  # warm
    before = cpu_seconds(pid)

    async def one(c):
        for _ in range(POLLS // 4):
            await ask(c, path)

    await asyncio.gather(*(one(c) for c in connections))
    spent = cpu_seconds(pid) - before
    for _reader, writer in connections:
        writer.close()
    return spent * 1000 / (POLLS // 4 * 4)


async def phones(port: int, paths: list[str], seconds: float) -> list[tuple[float, float]]:
    """Each phone asks its table's version every half second: when each asked (the
    ``time.monotonic()``) and how long its answer took (s; a refusal: infinity)."""
    times: list[tuple[float, float]] = []
    end = time.monotonic() + seconds

    async def phone(path: str, offset: float):
        c = await connect(port)
        await asyncio.sleep(offset)
        while time.monotonic() < end:
            start = time.monotonic()
            status, _h, _b = await ask(c, path)
            took = time.monotonic() - start
            times.append((start, took if status == 200 else float("inf")))
            await asyncio.sleep(max(0.0, 0.5 - took))
        c[1].close()

    await asyncio.gather(*(phone(p, i * 0.5 / len(paths)) for i, p in enumerate(paths)))
    return times


def burst(port: int, path: str, count: int, seconds: float) -> dict:
    """``count`` connections asking ``path`` at once and again as live.js does, for
    ``seconds``: how they were answered, and how many still waited at the end."""
    seen = {"held": 0, "plain": 0, "refused": 0, "failed": 0, "waiting at the end": 0}

    sent = asyncio.Event()
    first = [0]

    async def one():
        try:
            c = await connect(port)
        except OSError:
            seen["failed"] += 1
            return
        try:
            first[0] += 1
            if first[0] == count:
                sent.set()
            while True:
                seen["waiting at the end"] += 1
                status, headers, _b = await ask(c, path)
                seen["waiting at the end"] -= 1
                if status != 200:
                    seen["refused"] += 1
                    await asyncio.sleep(2)
                    continue
                held = headers.get("bummerl-held") == "1"
                seen["held" if held else "plain"] += 1
                if not held:
                    await asyncio.sleep(2)
        except (OSError, asyncio.IncompleteReadError):
            seen["failed"] += 1
        finally:
            c[1].close()

    async def main():
        tasks = [asyncio.create_task(one()) for _ in range(count)]
        await sent.wait()
        print("open", flush=True)  # every connection has asked
        await asyncio.sleep(seconds)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    return seen


def server_pid(port: int) -> int:
    """The process listening on ``port`` (from /proc: its socket's inode among its files)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                inodes.add(fields[9])
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                links = {os.readlink(fd) for fd in (proc / "fd").iterdir()}
            except OSError:
                continue
            if any(f"socket:[{inode}]" in links for inode in inodes):
                return int(proc.name)
    raise LookupError(f"nothing listens on port {port}")


def unreachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_timeout=2).ping()
    except Exception as error:  # noqa: BLE001 - reported
        return f"Redis does not answer at {REDIS} ({error.__class__.__name__})"
    return None


def main() -> None:
    reason = unreachable()
    if reason:
        say("push server under a burst of holds", f"skipped: {reason}")
        return
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bummerl.settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": "holds-bench-" + "x" * 40,
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "SQLITE_PATH": str(WORK / "holds.sqlite3"),
            "BUMMERL_PUSH_URL": REDIS,
            "BUMMERL_PUSH_SECONDS": "25",
        }
    )
    os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from scoring.changes import version_of
    from scoring.models import deal_rows
    from tests import factories
    from tests.load import percentile
    from tests.serving import push_serving

    call_command("migrate", verbosity=0)
    call_command("seed", no_demo=True, verbosity=0)
    club = factories.club(name="Burst")
    target = factories.sheet(club)
    factories.fill(target, count=5)
    held = f"/e/{target.entry_token}/version/?seen={version_of(deal_rows(target.pk))}"
    tables = [
        factories.sheet(factories.club(name=f"Tisch {n}"), names=(f"A{n}", f"B{n}", f"C{n}"))
        for n in range(PHONES)
    ]
    paths = [f"/e/{s.entry_token}/version/" for s in tables]
    connection.close()

    with push_serving(WORK) as base:
        port = int(base.rsplit(":", 1)[1])
        pid = server_pid(port)
        say(
            f"push server: CPU a plain poll ({POLLS} polls)",
            f"{asyncio.run(polls_cpu(port, paths[0], pid)):.2f} ms",
        )
        alone = [took for _at, took in asyncio.run(phones(port, paths, SECONDS))]
        say(
            f"{PHONES} phones' polls alone: p50 / p95",
            f"{statistics.median(alone) * 1000:.1f} / {percentile(alone, 0.95) * 1000:.1f} ms",
        )
        spec = json.dumps({"port": port, "path": held, "count": BURST, "seconds": SECONDS})
        attacker = subprocess.Popen(
            [sys.executable, "-m", "tests.bench_holds", "burst", spec],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )
        opened: list[float] = []

        def wait_open():
            if attacker.stdout is not None and attacker.stdout.readline().strip() == "open":
                opened.append(time.monotonic())

        watcher = threading.Thread(target=wait_open)
        watcher.start()
        began, cpu = time.monotonic(), cpu_seconds(pid)
        asked = asyncio.run(phones(port, paths, SECONDS + 2))
        cpu = cpu_seconds(pid) - cpu
        watcher.join(timeout=60)
        out, _ = attacker.communicate(timeout=SECONDS + 120)
    answered = json.loads(out) if attacker.returncode == 0 else {"failed": "the burst failed"}
    if not opened:
        say(f"... with {BURST} holds on one link", "the burst never opened")
        return
    settled = opened[0] + SETTLE
    arriving = [took for at, took in asked if at < settled]
    during = [took for at, took in asked if at >= settled]
    ratio = percentile(during, 0.95) / percentile(alone, 0.95)
    say(
        f"... the burst arriving ({settled - began:.1f} s): polls, p95 / most",
        f"{len(arriving)}, {percentile(arriving, 0.95) * 1000:.1f} / "
        f"{max(arriving, default=0) * 1000:.1f} ms",
    )
    say(
        f"... with {BURST} holds on one link: p50 / p95",
        f"{statistics.median(during) * 1000:.1f} / {percentile(during, 0.95) * 1000:.1f} ms"
        f" ({ratio:.1f}x without; goal <= 2x)",
    )
    say("... the burst's answers", ", ".join(f"{k} {v}" for k, v in answered.items()))
    say("... the push server's CPU meanwhile", f"{cpu:.1f} s in {SECONDS + 2:.0f} s")
    say("machine load average (1 min)", f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    if sys.argv[1:2] == ["burst"]:
        spec = json.loads(sys.argv[2])
        print(json.dumps(burst(spec["port"], spec["path"], spec["count"], spec["seconds"])))
    else:
        main()
