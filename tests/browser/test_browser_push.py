"""live.js with the push server: a held version answer (``held_version``) that another
phone's deal wakes shows that deal at once, and the page asks again at once, not on the
poll's schedule. The page's version requests are answered by the push server's view
itself (``scoring.views.live.held_version``, run in an event loop of this test's, as
uvicorn runs it), against a real Redis; everything else by the live server."""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import connection, connections
from django.test import AsyncRequestFactory
from playwright.sync_api import Browser, expect

from base import push
from scoring.changes import version_of
from scoring.models import deal_rows
from scoring.views.live import HELD_HEADER, held_version
from tests import factories
from tests.browser.conftest import PHONE
from tests.browser.test_browser_live import POLLS, entry_url
from tests.serving import REDIS, redis_answers

HOLD = 8  # seconds: far longer than the deal's way to the page
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.skipif(not redis_answers(), reason="Redis does not answer on 127.0.0.1:6379")
def test_a_deal_from_another_phone_wakes_the_held_answer_and_the_page_asks_again_at_once(
    live_server, browser: Browser, settings
):
    settings.PUSH_URL, settings.PUSH_SECONDS = REDIS, HOLD
    sheet = factories.sheet(factories.club())
    # The push server's loop, in a thread of its own (Playwright runs one in this one):
    # one hub, subscribed throughout.
    loop = asyncio.new_event_loop()
    loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
    server = threading.Thread(target=loop.run_forever, daemon=True)
    server.start()

    def run(coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=HOLD * 3)

    run(ready())
    asked: list[dict] = []
    done = threading.Event()

    def other_phone():
        factories.fill(sheet, count=1)
        connection.close()

    def held(route, request):
        if done.is_set():
            route.abort()
            return
        address = urlsplit(request.url)
        seen = parse_qs(address.query).get("seen", [""])[0]
        ask = {"start": time.monotonic(), "seen": seen}
        asked.append(ask)
        if len(asked) == 1:  # the other phone's deal, a second into the first hold
            threading.Timer(1.0, other_phone).start()
        factory = AsyncRequestFactory()
        answer = run(held_version(factory.get(address.path, {"seen": seen})))
        ask.update(end=time.monotonic(), held=answer.get(HELD_HEADER))
        route.fulfill(status=answer.status_code, headers=dict(answer.items()), body=answer.content)

    context = browser.new_context(viewport=PHONE, locale="de-AT")
    page = context.new_page()
    page.route(POLLS, held)
    try:
        page.goto(entry_url(live_server, sheet))
        before = page.locator("#sheet").get_attribute("data-version")
        expect(page.locator("#sheet ol.deals li.deal")).to_have_count(1, timeout=HOLD * 1000)
        page.wait_for_timeout(500)  # the next request goes, and is held its time
    finally:
        done.set()
        context.close()
        run(closed())
        loop.call_soon_threadsafe(loop.stop)
        server.join(timeout=5)
    after = version_of(deal_rows(sheet.pk))
    first, second = asked[0], asked[1]
    assert first["seen"] == before != after
    # Woken by the deal, long before its hold's end; its answer was marked held.
    assert first["held"] == "1" and first["end"] - first["start"] < HOLD - 2
    # The page took the deal and asked again with it at once, not 2 s later as a poll.
    assert second["seen"] == after and second["held"] == "1"
    assert second["start"] - first["end"] < 1.5


async def ready():
    assert await push.hub().ready(timeout=5)


async def closed():
    """The pool thread's database connection closed."""
    await asyncio.get_running_loop().run_in_executor(None, connections.close_all)
