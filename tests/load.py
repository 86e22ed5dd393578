"""Load runs: simulated phones record deals (and match results) over HTTP.

Each phone has its own table (opened through its private link), reads the next Rufer
from the partial it gets back and answers a tie-break when one is asked for; one in ten
submits is sent twice (a retry), which must record once.

- ``run``: phones sending as fast as the server answers, with phones entering match
  results beside them (the smoke test, ``tests/bummerl/test_load_smoke.py``).
- ``python -m tests.load closed|open|single BASE SECONDS TOKEN…``: the client of
  ``make bench`` (``tests.load_bench``), a process of its own beside the server; prints
  one JSON line: the latencies, the keys answered 200 and the errors.
  ``closed``: every table sends its next deal as soon as the last is answered (the most
  deals per second); ``open``: each table's deals arrive at random, on average one every
  ``LOAD_GAP`` seconds (10), as a Poisson process that does not wait for the server
  (a latency counts from the moment the deal was due: a deal due while the table's last
  one is still on its way waits, and that wait counts); ``single``: one table, one deal
  after the other with a pause between.
Pure standard library.
"""

import http.client
import http.cookiejar
import json
import os
import random
import re
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
RUFER = re.compile(rb'name="declarer" value="(\d)" checked')
TIEBREAK = re.compile(rb'name="tiebreak_winner" value="(\d)"')


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    deal_keys: set[str] = field(default_factory=set)
    result_keys: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Phone:
    """One browser: its own cookies (CSRF), one base URL."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> bytes:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read()

    def post(self, path: str, data: dict, token: str, htmx: bool = True) -> tuple[int, bytes]:
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(self.base + path, data=body, method="POST")
        request.add_header("Referer", self.base + path)
        if htmx:
            request.add_header("HX-Request", "true")
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


def deal_phone(base: str, token: str, until: float, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    phone = Phone(base)
    page = phone.get(f"/e/{token}/")
    csrf = CSRF.search(page).group(1).decode()
    while time.monotonic() < until:
        tie = TIEBREAK.search(page)
        key = str(uuid.uuid4())
        if tie:
            data = {"key": key, "kind": "tiebreak", "tiebreak_winner": tie.group(1).decode()}
        else:
            rufer = RUFER.search(page).group(1).decode()
            data = {
                "key": key,
                "kind": "dreier",
                "declarer": rufer,
                "contract": "normal",
                "normal_points": rng.choice("123"),
                "won": rng.choice("10"),
            }
        sends = 2 if rng.random() < 0.1 else 1  # a retried request
        for _ in range(sends):
            start = time.perf_counter()
            status, body = phone.post(f"/e/{token}/record/", data, csrf)
            took = time.perf_counter() - start
            with tally.lock:
                tally.latencies.append(took)
                if status != 200 or b"field-error" in body:
                    tally.errors.append(f"deal {status}")
                else:
                    tally.deal_keys.add(key)
            page = body


def result_phone(base: str, tokens: list[str], until: float, tally: Tally, seed: int) -> None:
    rng = random.Random(seed)
    phone = Phone(base)
    for token in tokens:
        if time.monotonic() >= until:
            return
        page = phone.get(f"/m/{token}/")
        csrf = CSRF.search(page).group(1).decode()
        winners = re.findall(rb'name="winner" value="(\d+)"', page)
        seen = re.search(rb'name="seen" value="(\w+)"', page)
        key = str(uuid.uuid4())
        data = {
            "key": key,
            "seen": seen.group(1).decode() if seen else "none",
            "winner": rng.choice(winners).decode(),
            "score": rng.choice(["2:0", "2:1"]),
        }
        start = time.perf_counter()
        status, _body = phone.post(f"/m/{token}/", data, csrf, htmx=False)
        with tally.lock:
            tally.latencies.append(time.perf_counter() - start)
            if status not in (200, 302):
                tally.errors.append(f"result {status}")
            else:
                tally.result_keys.add(key)


def run(
    base: str,
    sheet_tokens: list[str],
    match_tokens: list[str],
    seconds: float,
    result_phones: int = 0,
) -> Tally:
    """Every sheet token gets a deal phone; ``result_phones`` share the match tokens."""
    tally = Tally()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=deal_phone, args=(base, token, until, tally, i))
        for i, token in enumerate(sheet_tokens)
    ]
    for i in range(result_phones):
        share = match_tokens[i::result_phones]
        threads.append(
            threading.Thread(target=result_phone, args=(base, share, until, tally, 1000 + i))
        )
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summary(tally: Tally, seconds: float) -> dict:
    return {
        "requests": len(tally.latencies),
        "per_second": len(tally.latencies) / seconds,
        "p50": statistics.median(tally.latencies) if tally.latencies else 0.0,
        "p95": percentile(tally.latencies, 0.95),
        "errors": len(tally.errors),
    }


# -- the client of make bench: keep-alive connections, one per table --------------------


class Table:
    """One phone at one table, on a kept-alive connection: its CSRF cookie, the page
    last answered (for the Rufer and a due tie-break)."""

    def __init__(self, base: str, token: str, seed: int):
        address = urllib.parse.urlsplit(base)
        self.host, self.port = address.hostname, address.port
        self.token = token
        self.rng = random.Random(seed)
        self.connection = None
        self.used = 0.0
        self.cookies: dict[str, str] = {}
        status, page = self._request("GET", f"/e/{token}/")
        csrf = CSRF.search(page)
        if status != 200 or csrf is None:
            raise RuntimeError(f"table page: {status}")
        self.csrf = csrf.group(1).decode()
        self.page = page

    def _request(self, method: str, path: str, body: bytes | None = None, headers=None):
        if self.connection is not None and time.monotonic() - self.used > 1.0:
            self.connection.close()  # the server lets an idle connection go after 2 s
            self.connection = None
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
            try:
                self.connection.request(method, path, body=body, headers=headers or {})
                response = self.connection.getresponse()
                data = response.read()
                self.used = time.monotonic()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 2 or method == "POST":
                    raise
                continue
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name] = rest.split(";", 1)[0]
            if response.getheader("Connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
            return response.status, data
        raise RuntimeError("unreachable")

    def next_deal(self) -> dict:
        key = str(uuid.uuid4())
        tie = TIEBREAK.search(self.page)
        if tie:
            return {"key": key, "kind": "tiebreak", "tiebreak_winner": tie.group(1).decode()}
        return {
            "key": key,
            "kind": "dreier",
            "declarer": RUFER.search(self.page).group(1).decode(),
            "contract": "normal",
            "normal_points": self.rng.choice("123"),
            "won": self.rng.choice("10"),
        }

    def send(self, data: dict) -> tuple[bool, str]:
        """POST one deal as htmx does; (recorded, what went wrong)."""
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.csrf}).encode()
        path = f"/e/{self.token}/record/"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
            "Referer": f"http://{self.host}:{self.port}{path}",
            "HX-Request": "true",
        }
        try:
            status, page = self._request("POST", path, body, headers)
        except (http.client.HTTPException, OSError) as error:
            self.connection = None
            return False, f"deal {error.__class__.__name__}"
        if status != 200 or b"field-error" in page or b'class="banner error"' in page:
            return False, f"deal {status}"
        self.page = page
        return True, ""


def _table_loop(table: Table, mode: str, until: float, gap: float, out: dict) -> None:
    due = time.monotonic()
    while True:
        if mode == "open":
            due += table.rng.expovariate(1 / gap)
            if due >= until:
                return
            time.sleep(max(0.0, due - time.monotonic()))
        elif time.monotonic() >= until:
            return
        else:
            due = time.monotonic()
        data = table.next_deal()
        sends = 2 if table.rng.random() < 0.1 else 1  # a retried request
        for _ in range(sends):
            ok, error = table.send(data)
            took = time.monotonic() - due
            with out["lock"]:
                out["latencies"].append(took)
                if ok:
                    out["keys"].add(data["key"])
                else:
                    out["errors"].append(error)
            due = time.monotonic()
        if mode == "single":
            time.sleep(0.1)


def drive(base: str, tokens: list[str], mode: str, seconds: float, gap: float = 10.0) -> dict:
    """Drive one table per token for ``seconds`` (see the module's text for ``mode``)."""
    out = {"latencies": [], "keys": set(), "errors": [], "lock": threading.Lock()}
    tables = [Table(base, token, seed) for seed, token in enumerate(tokens)]
    started = time.monotonic()
    until = started + seconds
    threads = [
        threading.Thread(target=_table_loop, args=(t, mode, until, gap, out)) for t in tables
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {
        "seconds": time.monotonic() - started,
        "latencies": out["latencies"],
        "keys": sorted(out["keys"]),
        "errors": out["errors"],
    }


if __name__ == "__main__":
    mode, base, seconds, *tokens = sys.argv[1:]
    gap = float(os.environ.get("LOAD_GAP", "10"))
    print(json.dumps(drive(base, tokens, mode, float(seconds), gap)))
