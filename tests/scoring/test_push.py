"""The push channel (``base.push``) and the push server's held version request
(``scoring.views.live.held_version``, ``bummerl.asgi``), against a real Redis: a held
answer wakes when any writer changes the sheet, and only after its transaction commits;
without the channel, or with Redis gone, it answers at once as a plain poll.

Each test runs its requests in an event loop of its own (``asyncio.run``), whose one
pool thread reads the database and closes its connection at the end."""

import asyncio
import dataclasses
import uuid
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connections, transaction
from django.test import AsyncClient, override_settings
from django.test.client import AsyncClientHandler
from django.urls import reverse

from base import push
from scoring import services, upkeep
from scoring.changes import topic, version_of
from scoring.models import deal_rows
from scoring.views.live import HELD_HEADER, PushServer, door
from tests import factories
from tests.serving import REDIS, redis_answers

pytestmark = [pytest.mark.django_db(transaction=True)]
PUSH = {"PUSH_URL": REDIS}


class PushClientHandler(AsyncClientHandler, PushServer):
    """The async test client's handler, answering as the push server does (its door
    too, ``PushServer.__call__``)."""

    async def __call__(self, scope):
        return await door().let_in(scope, partial(super().__call__, scope))


class PushClient(AsyncClient):
    """Django's async test client sending its requests to the push server
    (``bummerl.asgi``'s ``PushServer``), in the test's event loop."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.handler = PushClientHandler(enforce_csrf_checks=False)


if not redis_answers():
    pytest.skip("Redis does not answer on 127.0.0.1:6379", allow_module_level=True)


def run(main):
    """``main()`` in a new event loop whose default pool is one thread."""

    async def wrapped():
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(max_workers=1))
        if push.enabled():
            # Subscribed before the first request: a younger subscription, which may have
            # missed a change, answers at once (tested on its own below).
            await push.hub().ready(timeout=2)
        try:
            return await main()
        finally:
            await loop.run_in_executor(None, connections.close_all)

    # In a thread of its own: after the browser tests Playwright's loop runs in this one.
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, wrapped()).result()


async def held_on(sheet_id: int, request: asyncio.Task) -> None:
    """Until ``request`` is held on the sheet's topic (it fails when it was answered)."""
    h = push.hub()
    while not h.waiters.get(topic(sheet_id)):
        assert not request.done(), request.result().content
        await asyncio.sleep(0.01)


def version_now(sheet) -> str:
    return version_of(deal_rows(sheet.pk))


def url(sheet, seen: str | None) -> str:
    path = reverse("entry:version", kwargs={"token": sheet.entry_token})
    return path if seen is None else f"{path}?seen={seen}"


@pytest.fixture
def sheet():
    s = factories.sheet(factories.club())
    factories.fill(s, count=2)
    return s


@override_settings(**PUSH, PUSH_SECONDS=60)
def test_an_answer_seen_already_waits_for_the_deal_another_phone_records(sheet):
    before = version_now(sheet)

    async def main():
        request = asyncio.create_task(PushClient().get(url(sheet, before)))
        await held_on(sheet.pk, request)
        await sync_to_async(factories.fill, thread_sensitive=False)(sheet, count=3)
        return await asyncio.wait_for(request, 10)  # woken, long before 60 s

    response = run(main)
    after = version_now(sheet)
    assert after != before
    assert response.status_code == 200
    assert response.content.decode() == after
    assert response[HELD_HEADER] == "1"


@pytest.mark.parametrize("writer", ["correct", "strike", "revoke", "renew"])
@override_settings(**PUSH, PUSH_SECONDS=60)
def test_every_writer_of_the_sheet_wakes_the_held_answer(sheet, writer):
    """Correcting and striking out a deal change the version; revoking and renewing the
    link end the held link's access: its answer is then 404 at once."""
    last = factories.next_entry(sheet)  # the third deal, and its correction: 1 point more
    factories.fill(sheet, count=3)
    before = version_now(sheet)
    newest = deal_rows(sheet.pk)[-1]
    actor = services.Actor()

    def write():
        if writer == "correct":
            entry = dataclasses.replace(last, normal_points=last.normal_points % 3 + 1)
            services.correct_deal(sheet, newest.pk, entry, uuid.uuid4(), actor)
        elif writer == "strike":
            services.void_deal(sheet, newest.pk, actor)
        elif writer == "revoke":
            upkeep.revoke_link(sheet, actor)
        else:
            upkeep.renew_link(sheet, actor)

    async def main():
        request = asyncio.create_task(PushClient().get(url(sheet, before)))
        await held_on(sheet.pk, request)
        await sync_to_async(write, thread_sensitive=False)()
        return await asyncio.wait_for(request, 10)

    response = run(main)
    if writer in ("revoke", "renew"):
        assert response.status_code == 404
    else:
        assert response.content.decode() == version_now(sheet) != before
        assert response[HELD_HEADER] == "1"


@override_settings(**PUSH, PUSH_SECONDS=1)
def test_an_unchanged_sheet_is_answered_after_the_hold_with_its_version(sheet):
    before = version_now(sheet)
    response = run(lambda: PushClient().get(url(sheet, before)))
    assert response.status_code == 200
    assert response.content.decode() == before
    assert response[HELD_HEADER] == "1"
    assert "no-store" in response["Cache-Control"]


@override_settings(**PUSH, PUSH_SECONDS=60)
def test_an_older_version_or_none_is_answered_at_once_as_a_poll(sheet):
    now = version_now(sheet)
    for seen in (None, "1-0", ""):
        response = run(lambda seen=seen: asyncio.wait_for(PushClient().get(url(sheet, seen)), 10))
        assert response.content.decode() == now
        assert HELD_HEADER not in response


@pytest.mark.parametrize("channel", ["", "redis://127.0.0.1:1/0"])
def test_without_the_channel_or_its_redis_the_answer_is_a_plain_poll(sheet, channel):
    now = version_now(sheet)
    with override_settings(**{**PUSH, "PUSH_URL": channel}, PUSH_SECONDS=60):
        response = run(lambda: asyncio.wait_for(PushClient().get(url(sheet, now)), 10))
    assert response.status_code == 200
    assert response.content.decode() == now
    assert HELD_HEADER not in response


@override_settings(**PUSH)
def test_the_push_server_refuses_what_the_site_refuses(sheet):
    """A wrong link 404; an account's sheet signed out: 401 with the site's own sign-in
    address (the site's own answers, ``test_push_parity`` asks many more)."""
    base = reverse("sheet:version", kwargs={"pk": sheet.pk})

    async def main():
        client = PushClient()
        return [
            await client.get("/e/no-such-link/version/?seen=1-0"),
            await client.get(
                base, headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{base}"}
            ),
        ]

    wrong, signed_out = run(main)
    assert wrong.status_code == 404
    assert signed_out.status_code == 401
    assert signed_out["Bummerl-Sign-In"] == reverse("login") + "?next=" + base


@override_settings(**PUSH, PUSH_SECONDS=60)
def test_an_account_s_held_answer_wakes_too(sheet):
    user = factories.user(sheet.club, role="scorer")
    client = factories.signed_in(user)
    before = version_now(sheet)
    path = reverse("sheet:version", kwargs={"pk": sheet.pk}) + f"?seen={before}"

    async def main():
        c = PushClient()
        c.cookies = client.cookies
        request = asyncio.create_task(c.get(path))
        await held_on(sheet.pk, request)
        await sync_to_async(factories.fill, thread_sensitive=False)(sheet, count=3)
        return await asyncio.wait_for(request, 10)

    response = run(main)
    assert response.content.decode() == version_now(sheet) != before


@override_settings(PUSH_URL=REDIS)
def test_a_change_is_announced_once_its_transaction_commits_and_never_on_rollback(sheet):
    listener = redis.Redis.from_url(REDIS).pubsub()
    listener.subscribe(push.prefix() + topic(sheet.pk))
    assert listener.get_message(timeout=2)["type"] == "subscribe"

    def heard() -> int:
        count = 0
        while listener.get_message(timeout=0.5) is not None:
            count += 1
        return count

    class Undone(Exception):
        pass

    with pytest.raises(Undone), transaction.atomic():
        factories.fill(sheet, count=3)
        raise Undone
    assert heard() == 0
    with transaction.atomic():
        factories.fill(sheet, count=3)
        assert heard() == 0  # not before the commit
    assert heard() == 1
    listener.close()


@override_settings(PUSH_URL=REDIS)
def test_a_hold_knows_what_was_announced_while_its_caller_read():
    """``since`` is taken before the read: an announcement after it answers at once, and
    so does a subscription younger than it (it may have missed one); otherwise the hold
    waits its time and answers False."""

    async def main():
        h = push.hub()
        assert h.subscribed_at is not None
        # A read begun before the subscription:
        first = await asyncio.wait_for(h.hold(["sheet:-1"], h.subscribed_at - 0.001, 60), 5)
        before = push.moment()
        await sync_to_async(push._publish, thread_sensitive=False)("sheet:-1")
        while h.announced.get("sheet:-1", float("-inf")) < before:
            await asyncio.sleep(0.01)
        missed = await asyncio.wait_for(h.hold(["sheet:-1"], before, 60), 5)
        quiet = await h.hold(["sheet:-1"], push.moment(), 0.2)
        other = await h.hold(["sheet:-2"], before, 0.2)  # another sheet's change wakes none
        return first, missed, quiet, other

    assert run(main) == (True, True, False, False)
