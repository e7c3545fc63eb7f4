"""An open stream of a game keeps its player marked as looking at it (notifications.presence), so that
a "your turn" push or email stays off a phone whose owner is watching the table.

The streams of a process are marked together: those that open within BATCH_SECONDS of each other in
one upsert, then all of them in one upsert every STREAM_RENEWAL, the way their leases are renewed
(live.leases).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import Counter
from collections.abc import AsyncIterator

from config.outage import database_unavailable, gate, outage_log
from notifications.presence import STREAM_RENEWAL, mark_seen

from .threads import in_thread

logger = logging.getLogger(__name__)
Pair = tuple[int, int]  # (user id, game pk)
BATCH_SECONDS = 0.05


async def mark(pairs: list[Pair]) -> None:
    """Best effort: a stream goes on when the database cannot take the mark (a push may then reach a
    player who was watching, which is the lesser harm)."""
    if not gate.open:
        return  # the database is away (config.outage); the next renewal marks them
    try:
        await in_thread(mark_seen, pairs)
    except Exception as exc:
        if database_unavailable(exc):
            gate.failed(exc)
            outage_log.note(exc, f"{len(pairs)} open streams could not be marked as watched")
        else:
            logger.warning("Could not mark %s open streams as watched.", len(pairs), exc_info=True)


class Watchers:
    def __init__(self) -> None:
        self.open: Counter[Pair] = Counter()
        self.task: asyncio.Task | None = None
        self.new: set[Pair] = set()  # of streams just opened, marked together in a moment
        self.marking: asyncio.Task | None = None

    async def watching(self, body: AsyncIterator[bytes], pair: Pair) -> AsyncIterator[bytes]:
        self.open[pair] += 1
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self.run())
        try:
            self.mark_soon(pair)
            async for chunk in body:
                yield chunk
        finally:
            self.open[pair] -= 1
            if self.open[pair] <= 0:
                del self.open[pair]

    def mark_soon(self, pair: Pair) -> None:
        """Mark a new stream's player within BATCH_SECONDS, with the others that open meanwhile: one
        upsert for a thousand streams coming back at once, and none waits for it to send its first event."""
        self.new.add(pair)
        if self.marking is None or self.marking.done():
            self.marking = asyncio.get_running_loop().create_task(self.mark_new())

    async def mark_new(self) -> None:
        while self.new:
            await asyncio.sleep(BATCH_SECONDS)
            pairs, self.new = list(self.new), set()
            await mark(pairs)

    async def run(self) -> None:
        while self.open:
            await asyncio.sleep(STREAM_RENEWAL.total_seconds())
            if self.open:
                await mark(list(self.open))


_watchers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its watchers


def watching(body: AsyncIterator[bytes], user_id: int, game_pk: int) -> AsyncIterator[bytes]:
    """`body`, with its player marked as looking at the game while it runs."""
    loop = asyncio.get_running_loop()
    watchers = _watchers.get(loop)
    if watchers is None:
        watchers = _watchers[loop] = Watchers()
    return watchers.watching(body, (user_id, game_pk))
