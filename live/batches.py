"""Calls that many streams make at the same moment, made once for all of them.

When a proxy restarts, thousands of streams come back within seconds, and each would make its own
trips to the database and to Redis: a thread hop, a connection taken from the pool and checked, a
round trip each. A Batched call waits while the batch before it is under way and then goes with
every call that came meanwhile (as a database groups the commits that queue behind one another):
a stream opening alone goes at once, and the batches grow with the crowd.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MOST_AT_ONCE = 100


class Batched(Generic[T, R]):
    """`run(items)` answers a list of items with their results in order. A caller that went away while
    its batch ran has its result handed to `unwanted` (a lease taken for a stream that is gone is
    given back)."""

    def __init__(
        self,
        run: Callable[[list[T]], Awaitable[list[R]]],
        unwanted: Callable[[R], Awaitable[None]] | None = None,
    ) -> None:
        self.run = run
        self.unwanted = unwanted
        self.waiting: list[tuple[T, asyncio.Future]] = []
        self.task: asyncio.Task | None = None

    async def __call__(self, item: T) -> R:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.waiting.append((item, future))
        if self.task is None:
            self.task = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            await asyncio.sleep(0)  # the calls made in this turn of the loop go together
            while self.waiting:
                batch, self.waiting = self.waiting[:MOST_AT_ONCE], self.waiting[MOST_AT_ONCE:]
                try:
                    results = await self.run([item for item, _ in batch])
                except Exception as exc:
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():
                        future.set_result(result)
                    elif self.unwanted is not None:
                        await self.unwanted(result)
        finally:
            self.task = None


_batched: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> {name: its Batched}


def of_this_loop(name: str, make: Callable[[], Batched]) -> Batched:
    """The running event loop's own Batched of this name (its futures belong to that loop)."""
    found = _batched.setdefault(asyncio.get_running_loop(), {})
    if name not in found:
        found[name] = make()
    return found[name]
