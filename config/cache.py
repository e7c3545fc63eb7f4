"""A Redis cache that degrades instead of failing: the cache only holds rate-limit counters and
other things we can live without for a while, so a Redis outage must not turn requests into 500s."""

from __future__ import annotations

import functools
import logging

from django.core.cache.backends.redis import RedisCache
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


class ResilientRedisCache(RedisCache):
    get = _degrade(_default_of_get)(RedisCache.get)
    set = _degrade(None)(RedisCache.set)
    add = _degrade(False)(RedisCache.add)
    touch = _degrade(False)(RedisCache.touch)
    delete = _degrade(False)(RedisCache.delete)
    get_many = _degrade({})(RedisCache.get_many)
    set_many = _degrade([])(RedisCache.set_many)
    delete_many = _degrade(None)(RedisCache.delete_many)
    has_key = _degrade(False)(RedisCache.has_key)
    clear = _degrade(False)(RedisCache.clear)
