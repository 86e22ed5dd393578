"""The push channel: a writer says that something changed (``announce``), and a request
held open by the push server (``bummerl.asgi``) wakes at once instead of polling
(``Hub.wait``). Over Redis publish/subscribe, when ``BUMMERL_PUSH_URL`` names a Redis
(``settings.PUSH_URL``); without it ``announce`` does nothing and every page polls.

A topic is a short string such as ``"sheet:12"``. What changed is never sent: the
woken request reads it from the database again, so a message lost (Redis restarted
between the write and the publish) costs one hold of ``settings.PUSH_SECONDS`` at
most, never a wrong page. A publish that fails is logged and the write stands.

One ``Hub`` per event loop: one Redis connection subscribed to every topic by pattern,
waking the waiters of the topic a message names. While it is not subscribed (Redis down,
reconnecting) ``wait`` answers at once, and the page falls back to polling.
"""

import asyncio
import contextlib
import logging
from functools import partial

import redis
import redis.asyncio
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

PREFIX = "bummerl:"
"""The channels' prefix in Redis: ``bummerl:<topic>``."""

RECONNECT_SECONDS = 1.0


def enabled() -> bool:
    return bool(settings.PUSH_URL)


_publisher: redis.Redis | None = None


def _publish(topic: str) -> None:
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(settings.PUSH_URL, socket_timeout=1)
        _publisher.publish(PREFIX + topic, b"1")
    except (redis.RedisError, OSError) as error:
        log.warning("push: %s not announced (%s)", topic, error.__class__.__name__)


def announce(topic: str) -> None:
    """Tell the held requests of ``topic`` that it changed, once the current transaction
    commits (at once outside one; nothing on rollback). Never raises."""
    if enabled():
        transaction.on_commit(partial(_publish, topic))


class Hub:
    """The waiters of one event loop and the one subscription that wakes them."""

    def __init__(self, url: str):
        self.url = url
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.subscribed = asyncio.Event()
        self.task: asyncio.Task | None = None

    def _start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            client = redis.asyncio.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(PREFIX + "*")
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            self._wake(message["channel"].decode()[len(PREFIX) :])
            except (redis.RedisError, OSError) as error:
                log.warning("push: subscription lost (%s)", error.__class__.__name__)
            finally:
                # Messages may be missed until it is back: every waiter reads again.
                self.subscribed.clear()
                for topic in list(self.waiters):
                    self._wake(topic)
                await client.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    def _wake(self, topic: str) -> None:
        for event in self.waiters.get(topic, ()):
            event.set()

    def listen(self, topic: str) -> asyncio.Event:
        """An event set when ``topic`` is announced from now on; ``forget`` it after."""
        self._start()
        event = asyncio.Event()
        self.waiters.setdefault(topic, set()).add(event)
        return event

    def forget(self, topic: str, event: asyncio.Event) -> None:
        waiting = self.waiters.get(topic)
        if waiting is not None:
            waiting.discard(event)
            if not waiting:
                del self.waiters[topic]

    async def ready(self, timeout: float) -> bool:
        """Whether the subscription stands (waiting up to ``timeout`` seconds for it)."""
        self._start()
        try:
            await asyncio.wait_for(self.subscribed.wait(), timeout)
        except TimeoutError:
            return False
        return True


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (made on first use)."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        for old in [o for o in _hubs if o.is_closed()]:
            del _hubs[old]
        found = _hubs[loop] = Hub(settings.PUSH_URL)
    return found


async def wait(topic: str, changed, *, seconds: float) -> bool:
    """Hold until ``topic`` is announced or ``seconds`` pass. ``changed()`` (a coroutine
    function) is asked once the waiter listens, so that a change between the caller's
    read and the subscription is not missed: when it answers True, no hold. Returns
    whether the request was held (False: the channel is off or not subscribed; the
    caller answers as a plain poll)."""
    if not enabled():
        return False
    h = hub()
    if not await h.ready(timeout=1.0):
        return False
    event = h.listen(topic)
    try:
        if await changed():
            return True
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), seconds)
        return True
    finally:
        h.forget(topic, event)
