"""The phones of ``tests.federation_bench``: a client process of its own, pure standard
library. ``python -m tests.federation_client BASE SECONDS SPEC`` where SPEC is a JSON
file: ``{"tables": [[token, phones], …], "screens": [token, …]}``.

Every phone of a table polls its sheet's version on the schedule of ``static/js/live.js``
(``HX-Request``, the sheet's ``version/`` address): every 2 s for 30 s after the sheet
changed or the phone was used, then 2 s longer after each poll that finds nothing new, up
to 10 s, each wait counted from the answer before; when the version differs from its
page's ``data-version`` it fetches the ``#sheet`` partial. The table's first phone also
sends a deal every 10 to 20 s (SPEC's ``deal_gap``; at random, open loop; one in ten sent
twice, a retry), which uses that phone, and takes the page it gets back. Every room screen fetches its partial every
10 s (``static/js/screen.js``). With SPEC's ``push`` (the push server's address) a
phone's version request goes there and, when it was held (``Bummerl-Held``), the next one
goes at once; the dealer then deals from a thread of its own, as a phone takes taps while
its request waits. ``single`` instead of SECONDS' run: one phone alone,
its deals one after the other, then its polls one after the other.

Prints ``ready`` once every phone has its page, then one JSON line: latencies of deals and polls, the keys answered, the errors, the
requests sent and due, and this process's own CPU seconds.
"""

import http.client
import json
import random
import re
import sys
import threading
import time
import urllib.parse

from tests.load import Table

VERSION = re.compile(rb'data-version="([^"]*)"')
POLL, POLL_MAX, QUIET, SCREEN_POLL = 2.0, 10.0, 30.0, 10.0  # as live.js and screen.js
DEAL_GAP = (10.0, 20.0)
HELD = "Bummerl-Held"  # scoring.views.live.HELD_HEADER
HOLD_SLACK = 2.0  # a request held at the run's end is let go this much later


def version_of(page: bytes) -> str | None:
    found = VERSION.search(page)
    return found.group(1).decode() if found else None


class Holder:
    """A phone's own kept-alive connection to the push server (``bummerl.asgi``)."""

    def __init__(self, base: str):
        address = urllib.parse.urlsplit(base)
        self.host, self.port = address.hostname, address.port
        self.connection: http.client.HTTPConnection | None = None

    def get(self, path: str, headers: dict, timeout: float) -> tuple[int, bytes, bool]:
        """(status, body, held); OSError when no answer came within ``timeout``."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port)
        self.connection.timeout = timeout
        if self.connection.sock is not None:
            self.connection.sock.settimeout(timeout)
        try:
            self.connection.request("GET", path, headers=headers)
            response = self.connection.getresponse()
            body = response.read()
        except (http.client.HTTPException, OSError) as error:
            self.connection.close()
            self.connection = None
            raise OSError(str(error)) from error
        return response.status, body, response.getheader(HELD) == "1"


class Phone:
    def __init__(self, table: Table, dealer: bool, rng: random.Random, tapped: dict, push):
        self.table = table  # each phone its own connection and cookies
        self.dealer = dealer
        self.rng = rng
        self.seen = version_of(table.page)
        self.headers = {"HX-Request": "true", "HX-Current-URL": table_url(table)}
        self.stirred = time.monotonic()  # the sheet changed or the phone was used
        self.wait = POLL
        self.waited = 0.0  # the waits between polls, summed (without the answers' time)
        self.polls = 0
        self.held = False  # the last version answer was held by the push server
        self.tapped = tapped  # the table's: version -> when the deal that made it was tapped
        self.noticed: dict[str, float] = {}  # version -> when this phone learnt of it
        self.holder = Holder(push) if push else None
        self.lock = threading.Lock()  # one request at a time on the table's connection

    def stir(self) -> None:
        self.stirred = time.monotonic()
        self.wait = POLL

    def plan(self, quiet: bool) -> float:
        """The wait before the next poll, as live.js's ``schedule``."""
        if not quiet or time.monotonic() - self.stirred < QUIET:
            self.wait = POLL
        else:
            self.wait = min(POLL_MAX, self.wait + POLL)
        self.waited += self.wait
        return self.wait


def table_url(table: Table) -> str:
    return f"http://{table.host}:{table.port}/e/{table.token}/"


def browser(phone: Phone) -> dict:
    """A script's GET headers with the phone's cookies, as a browser sends them (without
    them a page's answer would set a new CSRF cookie, and the next deal be refused)."""
    cookies = "; ".join(f"{k}={v}" for k, v in phone.table.cookies.items())
    return {**phone.headers, "Cookie": cookies} if cookies else phone.headers


def timed_get(phone: Phone, out: dict, kind: str, path: str) -> tuple[int, bytes] | None:
    """GET ``path`` as ``phone``, its time and error kept under ``kind`` ("polls",
    "pages"); None when no answer came."""
    start = time.monotonic()
    try:
        with phone.lock:
            status, body = phone.table._request("GET", path, headers=browser(phone))
    except OSError as error:
        record(out, kind, None, f"{kind[:-1]} {error.__class__.__name__}")
        return None
    record(out, kind, time.monotonic() - start, None if status == 200 else f"{kind[:-1]} {status}")
    return status, body


def held_get(phone: Phone, out: dict, path: str, until: float) -> tuple[int, bytes] | None:
    """The version from the push server; its time is kept only when it was not held (a
    held answer's time is the sheet's quiet). None when no answer came, or the run ended
    while it was held."""
    assert phone.holder is not None
    start = time.monotonic()
    try:
        status, body, held = phone.holder.get(path, browser(phone), until - start + HOLD_SLACK)
    except OSError as error:
        if time.monotonic() < until:
            record(out, "polls", None, f"poll {error.__class__.__name__}")
        else:
            phone.polls -= 1  # held when the run ended: neither sent nor due
        return None
    phone.held = held
    record(
        out, "polls", None if held else time.monotonic() - start, None if status == 200 else "poll"
    )
    return status, body


def poll(phone: Phone, out: dict, until: float = float("inf")) -> bool:
    """One poll (and the sheet when it changed); True: it came through, nothing new."""
    t = phone.table
    phone.polls += 1
    path = f"/e/{t.token}/version/?seen={phone.seen or ''}"
    if phone.holder is not None:
        answer = held_get(phone, out, path, until)
    else:
        answer = timed_get(phone, out, "polls", path)
    if answer is None or answer[0] != 200:
        phone.held = False
        return False
    version = answer[1].decode()
    if version == phone.seen:
        return True
    phone.noticed.setdefault(version, time.monotonic())
    phone.stir()
    page = timed_get(phone, out, "pages", f"/e/{t.token}/")
    if page is not None and page[0] == 200:
        t.page = page[1]
        phone.seen = version_of(t.page) or version
    return False


def deal(phone: Phone, due: float, out: dict) -> None:
    phone.stir()  # tapped
    data = phone.table.next_deal()
    sends = 2 if phone.rng.random() < 0.1 else 1
    for _ in range(sends):
        tapped = time.monotonic()
        with phone.lock:
            ok, error = phone.table.send(data)
        record(out, "deals", time.monotonic() - due, error or None)
        if ok:
            with out["lock"]:
                out["keys"].add(data["key"])
            phone.seen = version_of(phone.table.page) or phone.seen
            if phone.seen:
                phone.tapped.setdefault(phone.seen, tapped)
        due = time.monotonic()


def record(out: dict, kind: str, took: float | None, error: str | None) -> None:
    with out["lock"]:
        out["sent"][kind] += 1
        if took is not None:
            out[kind].append(took)
        if error:
            out["errors"].append(error)


def first_deal(phone: Phone, gap: tuple[float, float]) -> float:
    """Seconds to a table's first deal: the table is met in the middle of its evening
    (the mean wait for the next deal of gaps uniform in ``gap`` is about half a gap)."""
    return phone.rng.uniform(0, sum(gap) / 2)


def deal_loop(phone: Phone, until: float, out: dict, gap: tuple[float, float]) -> None:
    """The dealer's deals on their own, while its version request is held (push)."""
    due = time.monotonic() + first_deal(phone, gap)
    while due < until:
        time.sleep(max(0.0, due - time.monotonic()))
        deal(phone, due, out)
        due += phone.rng.uniform(*gap)


def held_loop(phone: Phone, until: float, out: dict) -> None:
    """As live.js with the push server: after a held answer the next request at once,
    after any other the poll's schedule."""
    time.sleep(phone.rng.uniform(0, POLL))
    while time.monotonic() < until:
        quiet = poll(phone, out, until)
        if not phone.held:
            time.sleep(min(phone.plan(quiet), max(0.0, until - time.monotonic())))


def phone_loop(phone: Phone, until: float, out: dict, gap: tuple[float, float]) -> None:
    if phone.holder is not None:
        dealing = threading.Thread(target=deal_loop, args=(phone, until, out, gap))
        if phone.dealer:
            dealing.start()
        held_loop(phone, until, out)
        if phone.dealer:
            dealing.join()
        return
    now = time.monotonic()
    next_poll = now + phone.rng.uniform(0, POLL)
    next_deal = now + first_deal(phone, gap) if phone.dealer else float("inf")
    while True:
        due = min(next_poll, next_deal)
        if due >= until:
            return
        time.sleep(max(0.0, due - time.monotonic()))
        if next_deal <= next_poll:
            deal(phone, next_deal, out)
            next_deal += phone.rng.uniform(*gap)
            next_poll = min(next_poll, time.monotonic() + POLL)  # used: 2 s again
        else:
            quiet = poll(phone, out, until)
            next_poll = time.monotonic() + phone.plan(quiet)


def screen_loop(table: Table, token: str, until: float, out: dict, rng) -> None:
    due = time.monotonic() + rng.uniform(0, SCREEN_POLL)
    while due < until:
        time.sleep(max(0.0, due - time.monotonic()))
        start = time.monotonic()
        try:
            status, _ = table._request("GET", f"/p/{token}/screen/", headers={"HX-Request": "true"})
            error = None if status == 200 else f"screen {status}"
        except OSError as failure:
            error = f"screen {failure.__class__.__name__}"
        record(out, "screens", time.monotonic() - start, error)
        due += SCREEN_POLL


def run(base: str, seconds: float, spec: dict) -> dict:
    out = {
        "lock": threading.Lock(),
        "deals": [],
        "polls": [],
        "pages": [],
        "screens": [],
        "keys": set(),
        "errors": [],
        "sent": {"deals": 0, "polls": 0, "pages": 0, "screens": 0},
    }
    rng = random.Random(hash(tuple(t for t, _ in spec["tables"])))
    phones = []
    push = spec.get("push")
    for token, count in spec["tables"]:
        tapped: dict[str, float] = {}
        for i in range(count):
            table = Table(base, token, rng.randrange(1 << 30))
            phones.append(Phone(table, i == 0, rng, tapped, push))
    screens = spec.get("screens", [])
    # a screen's own connection (a Table opened on a sheet: only its connection is used)
    viewers = [Table(base, spec["tables"][0][0], i) for i in range(len(screens))]
    print("ready", flush=True)  # every page open: the bench starts counting
    started = time.monotonic()
    until = started + seconds
    gap = tuple(spec.get("deal_gap", DEAL_GAP))
    threads = [threading.Thread(target=phone_loop, args=(p, until, out, gap)) for p in phones]
    threads += [
        threading.Thread(target=screen_loop, args=(v, token, until, out, random.Random(i)))
        for i, (v, token) in enumerate(zip(viewers, screens, strict=True))
    ]
    cpu = time.process_time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    dealers = sum(1 for p in phones if p.dealer)
    # From the tap on the dealer's phone to each other phone of its table knowing the deal.
    reach = [
        noticed - p.tapped[version]
        for p in phones
        if not p.dealer
        for version, noticed in p.noticed.items()
        if version in p.tapped
    ]
    return {
        "seconds": elapsed,
        "cpu": time.process_time() - cpu,
        "phones": len(phones),
        "reach": reach,
        "due": {
            # With answers at once: each phone's polls in the time it waited between them
            # (a held request is due as soon as the one before is answered).
            "polls": sum(
                p.polls if p.holder else elapsed / p.waited * p.polls
                for p in phones
                if p.holder or p.waited
            ),
            "deals": dealers * elapsed / (sum(gap) / 2),
            "screens": len(screens) * elapsed / SCREEN_POLL,
        },
        **{k: out[k] for k in ("deals", "polls", "pages", "screens", "errors", "sent")},
        "keys": sorted(out["keys"]),
    }


def single(base: str, token: str, seconds: float) -> dict:
    """One phone alone: deals one after the other, then polls one after the other."""
    out = {"lock": threading.Lock(), "deals": [], "polls": [], "keys": set(), "errors": []}
    out["sent"] = {"deals": 0, "polls": 0, "pages": 0}
    phone = Phone(Table(base, token, 1), True, random.Random(1), {}, None)
    until = time.monotonic() + seconds / 2
    while time.monotonic() < until:
        deal(phone, time.monotonic(), out)
        time.sleep(0.1)
    phone.seen = None  # every poll answered, none followed by a page
    until = time.monotonic() + seconds / 2
    while time.monotonic() < until:
        t = phone.table
        start = time.monotonic()
        status, _ = t._request("GET", f"/e/{t.token}/version/", headers=phone.headers)
        record(out, "polls", time.monotonic() - start, None if status == 200 else "poll")
        time.sleep(0.05)
    trivial = []
    until = time.monotonic() + seconds / 4
    while time.monotonic() < until:
        start = time.monotonic()
        phone.table._request("GET", "/healthz")
        trivial.append(time.monotonic() - start)
        time.sleep(0.05)
    return {**{k: out[k] for k in ("deals", "polls", "errors")}, "trivial": trivial} | {
        "keys": sorted(out["keys"])
    }


if __name__ == "__main__":
    base, seconds, spec = sys.argv[1:4]
    with open(spec) as file:
        spec = json.load(file)
    if seconds == "single":
        print(json.dumps(single(base, spec["tables"][0][0], float(spec.get("seconds", 10)))))
    else:
        print(json.dumps(run(base, float(seconds), spec)))
