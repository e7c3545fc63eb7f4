"""At most MAX_STREAMS open streams a player, and as many streams opened without an account per client
address (config.client_address), across every process: each open stream holds a lease of its holder,
the player or the address.

With Redis the leases are a sorted set per holder (member: the lease, score: when it lapses), taken
by a script so that streams opened at the same instant cannot pass the limit together, and renewed
while the stream runs (all of a process's together); a process that dies leaves leases that lapse
within LEASE_SECONDS. Without Redis (one process, as make run has it) they are counted in memory.
"""

from __future__ import annotations

import asyncio
import secrets
import time
import weakref
from collections import defaultdict
from collections.abc import AsyncIterator

from django.conf import settings

from .batches import Batched, of_this_loop
from .connection import redis_client, redis_may_be_away
from .publish import PREFIX

MAX_STREAMS = 20
LEASE_SECONDS = 60
RENEW_SECONDS = 20

TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""

_in_memory: dict[str, set[str]] = defaultdict(set)


def player(user_id: int) -> str:
    """The holder of a player's streams (the key their leases had before addresses had any)."""
    return str(user_id)


def address(client: str) -> str:
    """The holder of the streams a client address opens without an account."""
    return f"address:{client}"


def _key(holder: str) -> str:
    return f"{PREFIX}leases:{holder}"


class Lease:
    def __init__(self, holder: str, name: str) -> None:
        self.holder = holder
        self.name = name

    async def release(self) -> None:
        if settings.REDIS_URL:
            await _renewer().give_back(self)
            return
        held = _in_memory.get(self.holder)
        if held is not None:
            held.discard(self.name)
            if not held:
                del _in_memory[self.holder]  # addresses come and go: keep none that holds nothing

    async def holding(self, body: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        """`body`, its lease renewed while it runs (with the process's others) and given back when it ends."""
        if settings.REDIS_URL:
            _renewer().hold(self)
        try:
            async for chunk in body:
                yield chunk
        finally:
            await self.release()


def by_holder(leases: list[Lease]) -> dict[str, list[str]]:
    names: dict[str, list[str]] = defaultdict(list)
    for lease in leases:
        names[lease.holder].append(lease.name)
    return names


async def renew(held: list[Lease]) -> None:
    """Move every one of these leases on by LEASE_SECONDS, in one round trip. Each player's key's
    own expiry moves on too, or it would take the live leases with it."""
    until = time.time() + LEASE_SECONDS
    with redis_may_be_away("Stream leases"):
        async with redis_client().pipeline(transaction=False) as pipe:
            for holder, names in by_holder(held).items():
                pipe.zadd(_key(holder), dict.fromkeys(names, until), xx=True)
                pipe.expire(_key(holder), LEASE_SECONDS * 2)
            await pipe.execute()


async def give_back_all(returned: list[Lease]) -> bool:
    """Whether Redis took them back (it may be away, or this process too busy to reach it in time)."""
    with redis_may_be_away("Stream leases"):
        async with redis_client().pipeline(transaction=False) as pipe:
            for holder, names in by_holder(returned).items():
                pipe.zrem(_key(holder), *names)
            await pipe.execute()
        return True
    return False


# A give-back that failed is tried again after these pauses (seconds), then left to lapse.
GIVE_BACK_RETRIES = (0.5, 1, 2, 4, 8, 16)


class Renewer:
    """The leases of the streams open in this process, renewed together every RENEW_SECONDS, and
    given back together when streams end at the same moment (a proxy restarting closes them all):
    one pipeline for thousands of streams, not a command each."""

    def __init__(self) -> None:
        self.leases: set[Lease] = set()
        self.task: asyncio.Task | None = None
        self.returned: list[Lease] = []
        self.returning: asyncio.Future | None = None
        self.retrying: set[asyncio.Task] = set()

    async def give_back(self, lease: Lease) -> None:
        self.leases.discard(lease)
        self.returned.append(lease)
        if self.returning is None:
            self.returning = asyncio.ensure_future(self._give_back_returned())
        # Shielded: a stream cancelled while it waits must not stop the others' leases going back.
        await asyncio.shield(self.returning)

    async def _give_back_returned(self) -> None:
        try:
            await asyncio.sleep(0)  # the streams ending at this moment go back together
            while self.returned:
                batch, self.returned = self.returned, []
                if not await give_back_all(batch):
                    self._retry(batch)
        finally:
            self.returning = None

    def _retry(self, batch: list[Lease]) -> None:
        # Not awaited by the ended streams. A lease lapses within LEASE_SECONDS anyway, but until then it
        # counts: when every stream is cut at once and comes back at once, its player would be refused.
        task = asyncio.get_running_loop().create_task(self._give_back_again(batch))
        self.retrying.add(task)
        task.add_done_callback(self.retrying.discard)

    async def _give_back_again(self, batch: list[Lease]) -> None:
        for pause in GIVE_BACK_RETRIES:
            await asyncio.sleep(pause)
            if await give_back_all(batch):
                return

    def hold(self, lease: Lease) -> None:
        self.leases.add(lease)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        while self.leases:
            await asyncio.sleep(RENEW_SECONDS)
            if self.leases:
                await renew(list(self.leases))


_renewers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its renewer


def _renewer() -> Renewer:
    loop = asyncio.get_running_loop()
    found = _renewers.get(loop)
    if found is None:
        found = _renewers[loop] = Renewer()
    return found


# A holder refused is asked again after these pauses (seconds) before the stream is refused: when a
# proxy restarts, its streams come back at once, before the server has noticed the old ones closed
# and given their leases back (EventSource does not try again after a 429).
PATIENCE = (0.25, 0.5, 1.0, 1.5)


async def take(holder: str) -> Lease | None:
    """A lease for one more stream of this holder (player() or address()), or None when it holds
    MAX_STREAMS already (and still does after PATIENCE)."""
    lease = await take_once(holder)
    for pause in PATIENCE:
        if lease is not None:
            break
        await asyncio.sleep(pause)
        lease = await take_once(holder)
    return lease


async def take_once(holder: str) -> Lease | None:
    """take() without patience; on Redis with the others asked for at the same moment (live.batches)."""
    if not settings.REDIS_URL:
        held = _in_memory[holder]
        if len(held) >= MAX_STREAMS:
            return None
        name = secrets.token_hex(8)
        held.add(name)
        return Lease(holder, name)
    return await of_this_loop("leases", lambda: Batched(take_together, unwanted=_give_back_unwanted))(holder)


async def take_together(holders: list[str]) -> list[Lease | None]:
    """A lease for each of these holders, or None where it holds MAX_STREAMS already, in one round trip
    (each take is the script's, one after the other: two of one holder are both counted)."""
    names = [secrets.token_hex(8) for _ in holders]
    now = time.time()
    # While Redis is away the limit cannot be counted: the streams open (the rate limit holds).
    taken = [True] * len(holders)
    with redis_may_be_away("Stream leases"):
        async with redis_client().pipeline(transaction=False) as pipe:
            for holder, name in zip(holders, names, strict=True):
                pipe.eval(TAKE, 1, _key(holder), now, now + LEASE_SECONDS, MAX_STREAMS, name, LEASE_SECONDS * 2)
            taken = await pipe.execute()
    return [Lease(holder, name) if ok else None for holder, name, ok in zip(holders, names, taken, strict=True)]


async def _give_back_unwanted(lease: Lease | None) -> None:
    if lease is not None:
        await lease.release()
