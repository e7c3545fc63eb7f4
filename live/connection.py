"""The stream processes' own Redis client (redis.asyncio), for what the event loop asks of Redis
itself: the streams' leases and the marks of the games they follow."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Iterator

from django.conf import settings

logger = logging.getLogger(__name__)

POOL_SIZE = 8  # Redis connections a process uses for them

_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its client


def redis_client():
    """A redis.asyncio client of the running event loop (uvicorn runs one per process). Its pool is
    small and waits for a free connection: thousands of streams opening or closing at once queue
    their commands instead of opening a connection each."""
    import redis.asyncio as redis

    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        pool = redis.BlockingConnectionPool.from_url(
            settings.REDIS_URL, max_connections=POOL_SIZE, timeout=10, socket_connect_timeout=2, socket_timeout=2
        )
        client = _clients[loop] = redis.Redis(connection_pool=pool)
    return client


@contextlib.contextmanager
def redis_may_be_away(what: str) -> Iterator[None]:
    """What the streams keep in Redis is a limit or a hint, not the stream: a Redis restart must
    not end or refuse streams."""
    import redis

    try:
        yield
    except (OSError, redis.RedisError) as exc:
        logger.warning("%s: Redis is away (%s).", what, exc)
