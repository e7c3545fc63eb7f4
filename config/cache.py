"""A Redis cache that degrades instead of failing: the cache only holds rate-limit counters and
other things we can live without for a while, so a Redis outage must not turn requests into 500s.

It also keeps one redis-py client and connection pool per server for the process: Django's client
builds a new client (with its table of response callbacks) for every cache call, and a new pool for
every context, which costs a request more than the call."""

from __future__ import annotations

import functools
import logging
import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError)


def _degrade(default):
    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except OUTAGE as exc:
                logger.warning("Cache unavailable (%s); going on without it.", type(exc).__name__)
                return default(*args, **kwargs) if callable(default) else default

        return wrapper

    return decorate


def _default_of_get(key, default=None, version=None):
    return default


# One pool and one client per server for the whole process. Django makes a cache object for each
# context, and under ASGI every request is a context of its own (with a thread of its own): with
# Django's per-object pools, each request would open a new connection to Redis.
_clients: dict[tuple, object] = {}
_clients_lock = threading.Lock()


class SharedRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # What, beside the server, makes two pools the same: worked out once, not on every cache call.
        self._pool_identity = (self._pool_class, tuple(sorted((k, repr(v)) for k, v in self._pool_options.items())))

    def get_client(self, key=None, *, write=False):
        server = self._servers[self._get_connection_pool_index(write)]
        shared = (server, self._pool_identity)
        client = _clients.get(shared)
        if client is None:
            with _clients_lock:
                client = _clients.get(shared)
                if client is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    client = _clients[shared] = self._client(connection_pool=pool)
        return client


class ResilientRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedRedisCacheClient

    def pipeline(self):
        """A pipeline (no MULTI) on the write server, for several commands in one round trip; keys
        go through make_key() like the cache's own."""
        return self._cache.get_client(write=True).pipeline(transaction=False)

    def _clear_own_keys(self) -> bool:
        """Only this cache's keys (under its KEY_PREFIX), where Django's clear() empties the whole
        database, which the broker's queues and the live channels share."""
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.unlink(*keys[start : start + 1000])
        return True

    get = _degrade(_default_of_get)(RedisCache.get)
    set = _degrade(None)(RedisCache.set)
    add = _degrade(False)(RedisCache.add)
    touch = _degrade(False)(RedisCache.touch)
    delete = _degrade(False)(RedisCache.delete)
    get_many = _degrade({})(RedisCache.get_many)
    set_many = _degrade([])(RedisCache.set_many)
    delete_many = _degrade(None)(RedisCache.delete_many)
    has_key = _degrade(False)(RedisCache.has_key)
    clear = _degrade(False)(_clear_own_keys)
