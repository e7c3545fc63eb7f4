"""One reading per game change: when a game changes, a process reads it once and renders its events
once per audience (each seat, and the spectators); every stream that follows it from the same
revision for the same seat is sent the same bytes, however many streams each audience holds.
"""

from __future__ import annotations

import asyncio

from . import feeds
from .threads import in_thread

# A reading is kept this long after it is done, for the streams of its audience that were busy
# sending (a slow client) when the news came and ask for it a moment later. Not longer: what other
# rooms add at the table is rendered as it was when read (table talk's phrases in the reader's language).
KEPT_SECONDS = 2.0
# The changes the movers' processes published (moves only, the same for every reader of a seat) are
# kept longer, for the streams that come back after a cut (a proxy restart brings them back over
# some seconds), and sent to them one after another.
CHANGES_KEPT_SECONDS = 10.0
# Who sits where in a game and who may see it, as its newest change received said, is kept this long
# (a stream back from a cut resumes from it without reading the game: live.openings).
SEATING_KEPT_SECONDS = 30.0
# The most revisions a stream is sent from the changes held here, one after another (further: read).
CHAINED_AT_MOST = 20


class Audiences:
    def __init__(self) -> None:
        self.readings: dict[tuple, asyncio.Future] = {}
        self.latest: dict[str, feeds.Rendered] = {}  # game -> its newest change received, without its events

    async def since(self, game_id: str, revision: int, heard: int | None) -> feeds.Rendered | None:
        """The game's events after `revision`, read once for every stream that asks while the
        reading runs or shortly after. `heard` (the latest revision the hub has heard of) is part of
        the key, so that a stream woken by newer news never gets an older reading."""
        key = (game_id, revision, heard)
        future = self.readings.get(key)
        if future is None and heard is not None and heard - revision <= CHAINED_AT_MOST:
            chained = self.chained(game_id, revision, heard)
            if chained is not None:
                self._keep(key, chained)
                return chained
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
        if key not in self.readings:
            self._keep(key, change)
        newest = self.latest.get(game_id)
        if newest is None or newest.revision < change.revision:
            seating = feeds.Rendered(change.revision, {}, change.seats_of, change.members, change.game_pk)
            self.latest[game_id] = seating
            asyncio.get_running_loop().call_later(SEATING_KEPT_SECONDS, self._forget_latest, game_id, seating)

    def _forget_latest(self, game_id: str, change: feeds.Rendered) -> None:
        if self.latest.get(game_id) is change:
            del self.latest[game_id]

    def chained(self, game_id: str, revision: int, heard: int) -> feeds.Rendered | None:
        """The events after `revision` up to `heard` or later from the readings and changes held here,
        one after the other (a stream back from a cut that missed two moves, each received as it was
        published); None when they leave a gap."""
        steps: list[feeds.Rendered] = []
        at = revision
        while at < heard:
            step = next(filter(None, (self._done(game_id, at, until) for until in range(heard, at, -1))), None)
            if step is None or step.revision <= at:
                return None
            steps.append(step)
            at = step.revision
        return feeds.Rendered.one_after_another(steps) if steps else None

    def _done(self, game_id: str, since: int, heard: int) -> feeds.Rendered | None:
        future = self.readings.get((game_id, since, heard))
        if future is None or not future.done() or future.cancelled() or future.exception() is not None:
            return None
        found = future.result()
        if found is None or any(e.event not in ("move", "game") for events in found.events.values() for e in events):
            return None  # the game is gone, or other rooms' parts rendered for their readers then
        return found

    def _keep(self, key: tuple, rendered: feeds.Rendered) -> None:
        loop = asyncio.get_running_loop()
        future = self.readings[key] = loop.create_future()
        future.set_result(rendered)
        loop.call_later(CHANGES_KEPT_SECONDS, self._drop, key, future)

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
        self.latest.clear()
