"""A load run: simulated phones record deals and match results at once over HTTP.

Each phone has its own table (opened through its private link) and records deals as
fast as the server answers, reading the next Rufer from the partial it gets back and
answering a tie-break when one is asked for; one in ten submits is sent twice (a retry),
which must record once. Other phones enter match results through match links. Used by
``make bench`` (64 phones, 30 s, against ``make serve``) and, as a short smoke, by the
tests. Pure standard library on the client side.
"""

import http.cookiejar
import random
import re
import statistics
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
