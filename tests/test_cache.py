"""A Redis outage degrades the cache instead of failing requests."""

from rest_framework.throttling import SimpleRateThrottle

from config.cache import ResilientRedisCache

FAST = {"OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1}}


def dead_cache() -> ResilientRedisCache:
    return ResilientRedisCache("redis://127.0.0.1:1/0", FAST)


def test_the_cache_answers_defaults_while_redis_is_away():
    cache = dead_cache()
    assert cache.get("x", "fallback") == "fallback"
    cache.set("x", 1)
    assert cache.add("x", 1) is False
    assert cache.get_many(["x"]) == {}


def test_rate_limited_requests_keep_working_while_the_cache_is_away(alice_client, monkeypatch):
    monkeypatch.setattr(SimpleRateThrottle, "cache", dead_cache())
    assert alice_client.get("/api/v1/games/").status_code == 200
    assert alice_client.post("/api/v1/games/", {"kind": "scat", "seats": 2}, format="json").status_code == 201


def test_the_cache_works_when_redis_is_there(redis_url):
    cache = ResilientRedisCache(redis_url, FAST)
    cache.set("slowhand:test", 7, 10)
    assert cache.get("slowhand:test") == 7


def test_every_cache_object_of_the_process_shares_one_connection_pool(redis_url):
    # Under ASGI each request has a cache object of its own: they must not open a connection each.
    caches = [ResilientRedisCache(redis_url, FAST) for _ in range(3)]
    for n, cache in enumerate(caches):
        cache.set(f"slowhand:test:{n}", n, 10)
    clients = {id(cache._cache.get_client(write=True)) for cache in caches}
    assert len(clients) == 1
    assert ResilientRedisCache("redis://127.0.0.1:1/0", FAST)._cache.get_client() is not caches[0]._cache.get_client()
