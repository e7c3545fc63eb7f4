"""Stream leases on Redis: a renewal keeps the player's key alive with its leases."""

from __future__ import annotations

import asyncio

import redis

from live import leases


def test_a_renewal_moves_the_keys_expiry_on(redis_url, settings):
    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)

    async def take_then_renew() -> None:
        lease = await leases.take(leases.player(424242))
        assert lease is not None
        client.expire(leases._key(leases.player(424242)), 1)  # as if the last new stream were long ago
        await leases.renew([lease])
        assert client.ttl(leases._key(leases.player(424242))) > leases.LEASE_SECONDS
        await lease.release()

    asyncio.run(take_then_renew())


def test_the_leases_of_open_streams_are_renewed_together_and_given_back(redis_url, settings, monkeypatch):
    settings.REDIS_URL = redis_url
    monkeypatch.setattr(leases, "RENEW_SECONDS", 0.2)
    client = redis.Redis.from_url(redis_url)

    async def two_streams() -> None:
        taken = [await leases.take(leases.player(424243)), await leases.take(leases.player(424244))]
        first = {lease.name: client.zscore(leases._key(lease.holder), lease.name) for lease in taken}
        stop = asyncio.Event()

        async def body():
            yield b": connected\n\n"
            await stop.wait()

        streams = [lease.holding(body()) for lease in taken]
        for stream in streams:
            await anext(stream)
        await asyncio.sleep(0.5)
        for lease in taken:
            assert client.zscore(leases._key(lease.holder), lease.name) > first[lease.name]
        stop.set()
        for stream in streams:
            assert [chunk async for chunk in stream] == []
        assert all(client.zcard(leases._key(lease.holder)) == 0 for lease in taken)

    asyncio.run(two_streams())


def test_leases_given_back_at_the_same_moment_all_go_back(redis_url, settings):
    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)

    async def close_all_at_once() -> None:
        taken = [await leases.take(leases.player(424245 + n % 3)) for n in range(60)]
        assert sum(client.zcard(leases._key(leases.player(424245 + n))) for n in range(3)) == 60
        await asyncio.gather(*(lease.release() for lease in taken))
        assert sum(client.zcard(leases._key(leases.player(424245 + n))) for n in range(3)) == 0

    asyncio.run(close_all_at_once())


def test_leases_a_busy_pool_could_not_give_back_go_back_soon_after(redis_url, settings, monkeypatch):
    # As when every stream is cut at once: the process's few Redis connections are all in use, and the
    # give-back finds none in time. It goes back soon after, or the players' streams coming back at
    # once would find their old leases still counted (MAX_STREAMS) and be refused.
    settings.REDIS_URL = redis_url
    monkeypatch.setattr(leases, "GIVE_BACK_RETRIES", (0.2, 0.2, 0.2))
    client = redis.Redis.from_url(redis_url)
    holder = leases.player(424250)

    async def give_back_while_the_pool_is_busy() -> None:
        lease = await leases.take(holder)
        pool = leases.redis_client().connection_pool
        monkeypatch.setattr(pool, "timeout", 0.05)
        held = [await pool.get_connection() for _ in range(pool.max_connections)]
        await lease.release()
        assert client.zcard(leases._key(holder)) == 1  # not given back: no connection to be had
        for connection in held:
            await pool.release(connection)
        await asyncio.sleep(0.5)
        assert client.zcard(leases._key(holder)) == 0

    asyncio.run(give_back_while_the_pool_is_busy())


def test_leases_asked_for_together_are_taken_in_one_round_trip_and_the_limit_holds(redis_url, settings, monkeypatch):
    settings.REDIS_URL = redis_url
    monkeypatch.setattr(leases, "PATIENCE", ())
    client = redis.Redis.from_url(redis_url)
    holder = leases.player(424260)
    batches = []
    take_together = leases.take_together

    async def counted(holders):
        batches.append(len(holders))
        return await take_together(holders)

    monkeypatch.setattr(leases, "take_together", counted)

    async def a_crowd() -> None:
        taken = await asyncio.gather(*(leases.take(holder) for _ in range(leases.MAX_STREAMS + 5)))
        assert sum(lease is not None for lease in taken) == leases.MAX_STREAMS
        assert client.zcard(leases._key(holder)) == leases.MAX_STREAMS
        assert batches == [leases.MAX_STREAMS + 5]
        await asyncio.gather(*(lease.release() for lease in taken if lease is not None))

    asyncio.run(a_crowd())


def test_a_stream_over_the_limit_waits_a_moment_for_a_lease_given_back(redis_url, settings, monkeypatch):
    # A proxy restart: the streams come back before the server has given the old ones' leases back.
    settings.REDIS_URL = redis_url
    monkeypatch.setattr(leases, "PATIENCE", (0.2, 0.2, 0.2))
    holder = leases.player(424261)

    async def come_back() -> None:
        held = [await leases.take(holder) for _ in range(leases.MAX_STREAMS)]
        coming = asyncio.ensure_future(leases.take(holder))
        await asyncio.sleep(0.1)
        assert not coming.done()
        await held.pop().release()
        assert await coming is not None
        monkeypatch.setattr(leases, "PATIENCE", ())
        assert await leases.take(holder) is None  # still the limit: refused
        await asyncio.gather(*(lease.release() for lease in held))

    asyncio.run(come_back())
