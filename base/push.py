"""The push channel: a writer says that something changed (``announce``), and a request
held open by the push server (``bummerl.asgi``) wakes at once instead of polling
(``hold``). Over Redis publish/subscribe, when ``BUMMERL_PUSH_URL`` names a Redis
(``settings.PUSH_URL``); without it ``announce`` does nothing and every page polls.

A topic is a short string such as ``"sheet:12"`` or ``"account:3"``, its channel ``prefix() + topic``. What changed is never sent: the
woken request reads it from the database again, so a message lost (Redis restarted
between the write and the publish) costs one hold of ``settings.PUSH_SECONDS`` at
most, never a wrong page. A publish that fails is logged and the write stands.

One ``Hub`` per event loop: one Redis connection subscribed to every topic by pattern,
waking the waiters of the topic a message names. While it is not subscribed (Redis down,
reconnecting) ``hold`` answers at once, and the page falls back to polling.
"""

import asyncio
import logging
import re
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import redis
import redis.asyncio
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)


def prefix() -> str:
    """The channels' prefix in Redis, ``bummerl:<database name>:``: channels are the same
    in every Redis database, and two sites sharing one Redis never wake each other."""
    return f"bummerl:{settings.DATABASES['default']['NAME']}:"


RECONNECT_SECONDS = 1.0


def enabled() -> bool:
    return bool(settings.PUSH_URL)


_publisher: redis.Redis | None = None


def _publish(topic: str) -> None:
    global _publisher
    try:
        if _publisher is None:
            _publisher = redis.Redis.from_url(settings.PUSH_URL, socket_timeout=1)
        _publisher.publish(prefix() + topic, b"1")
    except (redis.RedisError, OSError) as error:
        log.warning("push: %s not announced (%s)", topic, error.__class__.__name__)


def announce(topic: str) -> None:
    """Tell the held requests of ``topic`` that it changed, once the current transaction
    commits (at once outside one; nothing on rollback). Never raises."""
    if enabled():
        transaction.on_commit(partial(_publish, topic))


class Hub:
    """The waiters of one event loop and the one subscription that wakes them. It keeps
    when each topic was last announced (``RECENT_SECONDS``) and since when it is
    subscribed, so that a request can tell whether it missed a change while it read."""

    def __init__(self, url: str):
        self.url = url
        self.prefix = prefix()
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.announced: dict[str, float] = {}  # topic -> the loop's time of its last message
        self.subscribed_at: float | None = None  # None: not subscribed
        self.subscribed = asyncio.Event()
        self.task: asyncio.Task | None = None

    def _start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        pattern = re.sub(r"([\\*?\[\]])", r"\\\1", self.prefix) + "*"
        while True:
            client = redis.asyncio.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(pattern)
                    self.subscribed_at = asyncio.get_running_loop().time()
                    self.subscribed.set()
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            self._wake(message["channel"].decode()[len(self.prefix) :])
            except (redis.RedisError, OSError) as error:
                log.warning("push: subscription lost (%s)", error.__class__.__name__)
            finally:
                # Messages may be missed until it is back: every waiter reads again.
                self.subscribed_at = None
                self.subscribed.clear()
                for topic in list(self.waiters):
                    self._wake(topic)
                await client.aclose()
            await asyncio.sleep(RECONNECT_SECONDS)

    def _wake(self, topic: str) -> None:
        now = asyncio.get_running_loop().time()
        self.announced[topic] = now
        if len(self.announced) > 10_000:  # forget what no read in progress can ask about
            self.announced = {
                t: at for t, at in self.announced.items() if now - at < RECENT_SECONDS
            }
        for event in self.waiters.get(topic, ()):
            event.set()

    async def ready(self, timeout: float) -> bool:
        """Whether the subscription stands (waiting up to ``timeout`` seconds for it)."""
        self._start()
        try:
            await asyncio.wait_for(self.subscribed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def hold(self, topics: list[str], since: float, seconds: float) -> bool | None:
        """See the module's ``hold``."""
        if not await self.ready(timeout=1.0):
            return None
        subscribed = self.subscribed_at
        if subscribed is None or subscribed > since:
            return True  # it may have missed a message while the caller read
        if any(self.announced.get(t, float("-inf")) >= since for t in topics):
            return True  # announced while the caller read
        event = asyncio.Event()  # listening from here, with no await since the check
        for t in topics:
            self.waiters.setdefault(t, set()).add(event)
        try:
            await asyncio.wait_for(event.wait(), seconds)
            return True
        except TimeoutError:
            return False
        finally:
            for t in topics:
                waiting = self.waiters[t]
                waiting.discard(event)
                if not waiting:
                    del self.waiters[t]


RECENT_SECONDS = 60.0
"""How long a hub remembers an announcement: longer than any read of a held request."""

_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
T = TypeVar("T")


def of_loop(made: dict[asyncio.AbstractEventLoop, T], make: Callable[[], T]) -> T:
    """The running event loop's entry of ``made``, made by ``make()`` on first use
    (entries of closed loops are dropped then)."""
    loop = asyncio.get_running_loop()
    found = made.get(loop)
    if found is None:
        for old in [o for o in made if o.is_closed()]:
            del made[old]
        found = made[loop] = make()
    return found


def hub() -> Hub:
    """This event loop's hub (made on first use)."""
    return of_loop(_hubs, lambda: Hub(settings.PUSH_URL))


def moment() -> float:
    """Now, on the event loop's clock: take it before reading what a hold is about."""
    return asyncio.get_running_loop().time()


async def hold(topics: list[str], since: float, *, seconds: float) -> bool | None:
    """Hold until one of ``topics`` is announced or ``seconds`` pass. ``since`` is the
    ``moment()`` before the caller read the state it holds on: a change announced since
    then (or a subscription younger than it, which may have missed one) answers True at
    once. True: announced (read again); False: the time passed with no announcement
    (what was read still stands); None: not held, the channel is off or its Redis does
    not answer (the caller answers as a plain poll)."""
    if not enabled():
        return None
    return await hub().hold(topics, since, seconds)


def account_topic(user_id: int) -> str:
    """The topic of an account's sessions: announced when one ends (a sign-out) or the
    account changes (its password, locked or unlocked: any save of the user), so that
    a request held for it reads again, and is sent to sign in when it must."""
    return f"account:{user_id}"


def signed_out(sender, request, user, **kwargs) -> None:
    """Receiver of ``user_logged_out`` (connected in ``bummerl.apps``)."""
    if user is not None:
        announce(account_topic(user.pk))


def account_saved(sender, instance, **kwargs) -> None:
    """Receiver of the user model's ``post_save`` (connected in ``bummerl.apps``)."""
    announce(account_topic(instance.pk))
