"""One per process: hears which games and players' logs have news, and wakes the streams that follow
them. With Redis it holds one pub/sub subscription for the whole process (redis.asyncio), however
many streams are open; marks the games it follows, so that the processes making moves render them
for it (live.changes); and compares, every few seconds, the revisions it knows with the database's,
so that a message lost while Redis was away only delays an event. Without Redis (make run) that
comparison, made twice a second, is the whole mechanism: one query for every game and one for
every player followed in this process. It also wakes the streams that have been quiet for a while,
for their keep-alives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import defaultdict

from django.conf import settings
from django.db.models import Max

from config.collector import tenure
from config.outage import database_unavailable, gate, outage_log
from games.models import Game

from . import feeds
from .audiences import Audiences
from .changes import FOLLOWED_SECONDS, followed_key
from .connection import redis_client, redis_may_be_away
from .models import EventKind, StreamCursor, StreamEvent
from .publish import PREFIX, game_channel, keys_channel, user_channel
from .threads import in_thread

logger = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # without Redis
RECONNECT_SECONDS = (0.5, 1, 2, 5)
GAMES = game_channel("")
# A game's changes are kept this long after its last stream here ended (less than the mark the
# publishers render it for: live.changes.FOLLOWED_SECONDS).
LATELY_SECONDS = 30.0


class Listener:
    """A stream's doorbell: set when a game or log it follows has news, with the channels that rang,
    or with none when the stream has been quiet for LIVE_KEEPALIVE_SECONDS (time for a keep-alive)."""

    def __init__(self) -> None:
        self.rang = asyncio.Event()
        self.channels: set[str] = set()
        self.spoke_at = time.monotonic()

    def answer(self) -> set[str]:
        channels, self.channels = self.channels, set()
        self.rang.clear()
        return channels

    def spoke(self) -> None:
        """The stream sent something: no keep-alive is due for a while."""
        self.spoke_at = time.monotonic()

    def keepalive_due(self) -> bool:
        return time.monotonic() - self.spoke_at >= settings.LIVE_KEEPALIVE_SECONDS

    def again(self, channels: set[str], after: float) -> None:
        """What `channels` rang for could not be read (the database is away): ring again `after`
        seconds from now, whatever else rings meanwhile."""
        self.channels |= channels
        asyncio.get_running_loop().call_later(after, self.rang.set)


class Hub:
    def __init__(self) -> None:
        self.listeners: dict[str, set[Listener]] = defaultdict(set)
        self.streams: set[Listener] = set()
        self.known: dict[str, int] = {}  # channel -> the latest revision or log number heard of
        self.task: asyncio.Task | None = None
        self.connected = asyncio.Event()
        self.audiences = Audiences()
        self.lately: dict[str, float] = {}  # game channel followed until a moment ago -> until when kept
        self.unmarked: set[str] = set()  # games newly followed, marked together in a moment
        self.marking: asyncio.Task | None = None

    def follow(self, listener: Listener, channels: list[str]) -> None:
        """Ring `listener` on news of `channels`. It rings once at once too: the stream's first events
        were read before it followed, and news in between would otherwise wait for the next check."""
        self.streams.add(listener)
        new_games = [c.removeprefix(GAMES) for c in channels if c.startswith(GAMES) and c not in self.listeners]
        for channel in channels:
            self.listeners[channel].add(listener)
            self.lately.pop(channel, None)
        if new_games and settings.REDIS_URL:
            self.mark_soon(new_games)
        listener.channels.add(channels[0])
        listener.rang.set()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    def mark_soon(self, games: list[str]) -> None:
        """Mark these games followed (mark_followed) with the others newly followed meanwhile: one
        round trip for the streams of hundreds of games coming back at once."""
        self.unmarked.update(games)
        if self.marking is None or self.marking.done():
            self.marking = asyncio.get_running_loop().create_task(self.mark_unmarked())

    async def mark_unmarked(self) -> None:
        while self.unmarked:
            await asyncio.sleep(0)
            games, self.unmarked = list(self.unmarked), set()
            await mark_followed(games)

    def unfollow(self, listener: Listener, channels: list[str]) -> None:
        self.streams.discard(listener)
        for channel in channels:
            followers = self.listeners.get(channel)
            if followers is not None:
                followers.discard(listener)
                if not followers:
                    del self.listeners[channel]
                    if channel.startswith(GAMES):
                        self.lately[channel] = time.monotonic() + LATELY_SECONDS
                    else:
                        self.known.pop(channel, None)

    def kept_lately(self, channel: str) -> bool:
        """Whether this game's streams here all ended less than LATELY_SECONDS ago: its changes are
        still kept, for the streams a cut ended, which come back at once (to this process or another)."""
        until = self.lately.get(channel)
        if until is not None and until < time.monotonic():
            del self.lately[channel]
            self.known.pop(channel, None)
            return False
        return until is not None

    def forget_lately(self) -> None:
        for channel in [c for c, until in self.lately.items() if until < time.monotonic()]:
            self.kept_lately(channel)

    def ring(self, channel: str, number: int | None = None) -> None:
        followers = self.listeners.get(channel)
        if not followers and not self.kept_lately(channel):
            return  # every message of every game comes here; only the followed ones are kept
        if number is not None:
            if number <= self.known.get(channel, -1):
                return  # nothing the followers have not heard of
            self.known[channel] = number
        for listener in followers or ():
            listener.channels.add(channel)
            listener.rang.set()

    def ring_everyone(self) -> None:
        self.audiences.forget()
        for channel in list(self.listeners):
            self.ring(channel)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        helpers = [loop.create_task(self.keep_alive())]
        try:
            if settings.REDIS_URL:
                helpers.append(loop.create_task(self.check_every(settings.LIVE_DATABASE_CHECK_SECONDS)))
                helpers.append(loop.create_task(self.keep_marks()))
                await self.listen_to_redis()
            else:
                await self.check_every(POLL_SECONDS)
        finally:
            for helper in helpers:
                helper.cancel()

    async def keep_marks(self) -> None:
        """Renew the marks of the games this process follows, all in one round trip."""
        while True:
            await asyncio.sleep(FOLLOWED_SECONDS / 3)
            games = [c.removeprefix(GAMES) for c in self.listeners if c.startswith(GAMES)]
            if games:
                await mark_followed(games)

    async def keep_alive(self) -> None:
        """Wake the streams that have been quiet for LIVE_KEEPALIVE_SECONDS: one timer for the
        process, not one a stream. Each tick wakes only those due, so the keep-alives stay spread
        as the streams' last events were."""
        quiet = settings.LIVE_KEEPALIVE_SECONDS
        tick = min(1.0, quiet / 2)
        while True:
            await asyncio.sleep(tick)
            tenure.review_if_due()  # the process's full collection, once an hour at a calm moment
            self.forget_lately()
            due = time.monotonic() - quiet
            for listener in self.streams:
                if listener.spoke_at <= due:
                    listener.rang.set()

    async def listen_to_redis(self) -> None:
        import redis.asyncio as redis

        attempt = 0
        while True:
            client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(f"{PREFIX}*")
                    attempt = 0
                    self.connected.set()
                    self.ring_everyone()  # whatever happened while we were away is in the database
                    async for message in pubsub.listen():
                        if message.get("type") == "pmessage":
                            self.on_message(message["channel"], message["data"])
            except (OSError, redis.RedisError) as exc:
                self.connected.clear()
                delay = RECONNECT_SECONDS[min(attempt, len(RECONNECT_SECONDS) - 1)]
                attempt += 1
                logger.warning("Live events: Redis is away (%s); trying again in %s s.", exc, delay)
                await asyncio.sleep(delay)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()

    def on_message(self, channel: bytes | str, data: bytes | str) -> None:
        channel = channel.decode() if isinstance(channel, bytes) else channel
        if channel not in self.listeners and not self.kept_lately(channel):
            return  # every game's messages come here; most are for other processes' streams
        data = data.decode() if isinstance(data, bytes) else data
        if channel.startswith(GAMES):
            if data.startswith("{"):  # the change, rendered by the process that made it (live.changes)
                try:
                    since, change = feeds.from_message(data)
                except (ValueError, KeyError, TypeError):
                    logger.warning("Live events: a message on %s could not be read; reading the game instead.", channel)
                else:
                    self.audiences.received(channel.removeprefix(GAMES), since, change)
                    self.ring(channel, change.revision)
                    return
            with contextlib.suppress(ValueError):
                self.ring(channel, int(data))
                return
        self.ring(channel)  # a player's log: its followers read what is new

    async def check_every(self, seconds: float) -> None:
        while True:
            await asyncio.sleep(seconds)
            if not self.listeners or not gate.open:
                continue
            try:
                found = await in_thread(current_numbers, list(self.listeners))
            except Exception as exc:
                if database_unavailable(exc):
                    gate.failed(exc)
                    outage_log.note(exc, "the live events' check of the revisions")
                else:
                    logger.exception("Live events: could not read the revisions; trying again.")
                continue
            for channel, number in found.items():
                self.ring(channel, number)


async def mark_followed(games: list[str]) -> None:
    """Tell the processes that make moves that streams here follow these games (live.changes)."""
    with redis_may_be_away("Live events"):
        async with redis_client().pipeline(transaction=False) as pipe:
            for public_id in games:
                pipe.set(followed_key(public_id), "1", ex=FOLLOWED_SECONDS)
            await pipe.execute()


def current_numbers(channels: list[str]) -> dict[str, int]:
    """From the database: the revisions of the followed games, the last numbers of the followed logs,
    and the numbers of the last credentials changes of the players whose streams watch for them."""

    def named(prefix: str) -> list[str]:
        return [c.removeprefix(prefix) for c in channels if c.startswith(prefix)]

    games, users, keys = named(game_channel("")), named(user_channel("")), named(keys_channel(""))
    found = {}
    if games:
        revisions = Game.objects.filter(public_id__in=games).values_list("public_id", "revision")
        found.update({game_channel(public_id): revision for public_id, revision in revisions})
    if users:
        cursors = StreamCursor.objects.filter(user_id__in=users).values_list("user_id", "last_seq")
        found.update({user_channel(user_id): seq for user_id, seq in cursors})
    if keys:
        changes = StreamEvent.objects.filter(user_id__in=keys, kind=EventKind.CREDENTIALS).values("user_id")
        for row in changes.annotate(last=Max("seq")).values_list("user_id", "last"):
            found[keys_channel(row[0])] = row[1]
    return found


_hubs: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its hub


def listening() -> int:
    """How many streams follow something in this process, across its event loops."""
    return sum(len(h.streams) for h in list(_hubs.values()))


def hub() -> Hub:
    """The hub of the running event loop: one per process, as uvicorn runs one loop a process."""
    loop = asyncio.get_running_loop()
    found = _hubs.get(loop)
    if found is None:
        found = _hubs[loop] = Hub()
    return found
