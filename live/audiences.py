"""One reading per game change: when a game changes, a process reads it once and renders its events
once per audience (each seat, and the spectators); every stream that follows it from the same
revision for the same seat is sent the same bytes, however many streams each audience holds.
"""

from __future__ import annotations

import asyncio

from . import feeds
from .threads import in_thread

# A reading is kept this long after it is done, for the streams of its audience that were busy
# sending (a slow client) when the news came and ask for it a moment later.
KEPT_SECONDS = 2.0


class Audiences:
    def __init__(self) -> None:
        self.readings: dict[tuple, asyncio.Future] = {}

    async def since(self, game_id: str, revision: int, heard: int | None) -> feeds.Rendered | None:
        """The game's events after `revision`, read once for every stream that asks while the
        reading runs or shortly after. `heard` (the latest revision the hub has heard of) is part of
        the key, so that a stream woken by newer news never gets an older reading."""
        key = (game_id, revision, heard)
        future = self.readings.get(key)
        if future is None:
            future = asyncio.ensure_future(in_thread(feeds.render_since, game_id, revision))
            self.readings[key] = future
            loop = asyncio.get_running_loop()
            future.add_done_callback(lambda done: self._keep_for_a_while(loop, key, done))
        # A stream that closes while it waits must not cancel the reading the others wait for.
        return await asyncio.shield(future)

    def received(self, game_id: str, since: int, change: feeds.Rendered) -> None:
        """A change another process rendered (live.changes): the reading of the streams that follow
        the game from `since`, as if read here, for the streams the hub wakes next."""
        key = (game_id, since, change.revision)
        if key in self.readings:
            return
        loop = asyncio.get_running_loop()
        future = self.readings[key] = loop.create_future()
        future.set_result(change)
        loop.call_later(KEPT_SECONDS, self._drop, key, future)

    def _keep_for_a_while(self, loop: asyncio.AbstractEventLoop, key: tuple, future: asyncio.Future) -> None:
        # A reading that failed (the database away) is not kept: the next stream to ask reads again.
        failed = future.cancelled() or future.exception() is not None
        loop.call_later(0 if failed else KEPT_SECONDS, self._drop, key, future)

    def _drop(self, key: tuple, future: asyncio.Future) -> None:
        if self.readings.get(key) is future:
            del self.readings[key]

    def forget(self) -> None:
        """After news that carried no revision (Redis came back): the next streams read afresh."""
        self.readings.clear()
