"""What opening a game's stream needs of the game, read once for all the streams of it that open at
about the same moment: when a proxy restarts, every viewer of a table comes back within a second.

The game and its seats are read once (in a thread, live.threads) and kept KEPT_SECONDS (a viewer it
refuses is looked up afresh first: they may have just taken a seat at a private table); the first
"game" event is rendered once per seat (each seat, and the spectators) of that reading. What a
resumed stream missed is not read here: it comes with the stream's first news (live.streams), read
once for every stream that resumes from the same revision (live.audiences), or as another process
rendered it when it published the move (live.changes).

A reading a second old is as good as a fresh one: a stream starts at the revision it was read at,
and its first news brings what came after (the hub rings every new stream once at once); a resume
from a later revision than the reading's reads the game again. A resume the process can answer from
the changes it received (live.audiences) reads nothing.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass, field

from accounts.models import User
from games import selectors
from games.models import Game, Seat

from . import feeds
from .hub import hub
from .publish import game_channel
from .threads import in_thread

KEPT_SECONDS = 1.0  # not longer: a first event tells the seconds left to the deadline


@dataclass
class Opening:
    game: Game
    seats: list[Seat]
    first_events: dict[int | None, asyncio.Future] = field(default_factory=dict)  # seat -> its "game" event

    @property
    def revision(self) -> int:
        return self.game.revision

    def may_see(self, user: User | None) -> bool:
        return selectors.may_see(self.game, self.seats, user)

    def seat_of(self, user: User | None) -> int | None:
        return selectors.viewer_seat(self.game, self.seats, user)

    async def first_event(self, seat: int | None) -> feeds.Event:
        """The "game" event of this reading as `seat` sees it, rendered once for all of them."""
        future = self.first_events.get(seat)
        if future is None:
            future = self.first_events[seat] = asyncio.ensure_future(in_thread(self.render, seat))
        try:
            return await asyncio.shield(future)
        except BaseException:
            if future.done() and self.first_events.get(seat) is future and future.exception() is not None:
                del self.first_events[seat]  # a rendering that failed is tried again by the next stream
            raise

    def render(self, seat: int | None) -> feeds.Event:
        return feeds.Event(self.revision, "game", selectors.detail_for_seat(self.game, self.seats, seat))

    def let_go(self) -> None:
        """No longer kept: the game lets go of its prefetched seats, which refer back to it, so that the
        reading is freed once the last stream using it is done, not at a full collection (which the
        server holds off for what was alive at its last freeze: config.collector). A stream still
        rendering it reads the seats again."""
        self.game._prefetched_objects_cache.clear()


def read_opening(game_id: str) -> Opening | None:
    game = selectors.with_seats(Game.objects.filter(public_id=game_id)).first()
    return None if game is None else Opening(game, list(game.seats.all()))


class Openings:
    """The readings of one process's event loop, by game."""

    def __init__(self) -> None:
        self.readings: dict[str, asyncio.Future] = {}

    async def of(self, game_id: str, *, newer_than: int | None = None, afresh: bool = False) -> Opening | None:
        """The game as read within KEPT_SECONDS (None: there is no such game); read again when that
        reading is not past `newer_than` (a client that has seen a later revision), or `afresh`."""
        future = self.readings.get(game_id)
        if future is not None and future.done() and not future.exception():
            opening = future.result()
            if afresh or (opening is not None and newer_than is not None and opening.revision < newer_than):
                future = None
        if future is None:
            future = self.readings[game_id] = asyncio.ensure_future(in_thread(read_opening, game_id))
            loop = asyncio.get_running_loop()
            future.add_done_callback(lambda done: self._keep_for_a_while(loop, game_id, done))
        # A stream that closes while it waits must not cancel the reading the others wait for.
        return await asyncio.shield(future)

    def _keep_for_a_while(self, loop: asyncio.AbstractEventLoop, game_id: str, future: asyncio.Future) -> None:
        failed = future.cancelled() or future.exception() is not None  # the database away: not kept
        opening = None if failed else future.result()
        loop.call_later(0 if failed else KEPT_SECONDS, self._drop, game_id, future, opening)

    def _drop(self, game_id: str, future: asyncio.Future, opening: Opening | None) -> None:
        if self.readings.get(game_id) is future:
            del self.readings[game_id]
        if opening is not None:
            opening.let_go()


def resumed_from_the_changes(game_id: str, user: User | None, last_event_id: int) -> feeds.GameView | None:
    """A stream resumed from the newest change of the game this process received (live.changes), without
    reading the game: when that change is the newest the hub has heard of and the resume lies within
    its reach. It says who may see the game and who sits where as the database would."""
    change = hub().audiences.latest.get(game_id)
    if change is None or not change.game_pk or change.revision < hub().known.get(game_channel(game_id), 0):
        return None
    user_id = user.pk if user is not None else None
    if not (change.revision - feeds.RESUME_LIMIT <= last_event_id <= change.revision and change.allows(user_id)):
        return None
    seat = change.seats_of.get(user_id) if user_id is not None else None
    return feeds.GameView(game_id, last_event_id, seat, change.game_pk)


_openings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> its openings


def openings() -> Openings:
    loop = asyncio.get_running_loop()
    found = _openings.get(loop)
    if found is None:
        found = _openings[loop] = Openings()
    return found


async def open_game(
    game_id: str, user: User | None, last_event_id: int | None
) -> tuple[feeds.GameView, list[feeds.Event]] | None:
    """feeds.open_game's answer, from the shared reading: a fresh stream (or one resuming from
    further back than feeds.RESUME_LIMIT) starts with the "game" event; a resumed one starts at its
    Last-Event-ID with no event, and its first news brings every move after it. None when the viewer
    may not see the game."""
    if last_event_id is not None and (resumed := resumed_from_the_changes(game_id, user, last_event_id)) is not None:
        return resumed, []
    opening = await openings().of(game_id, newer_than=last_event_id)
    if opening is None or not opening.may_see(user):
        opening = await openings().of(game_id, afresh=True)
        if opening is None or not opening.may_see(user):
            return None
    # What the database said is news to the streams here that have not heard of it (as the hub's
    # own checks ring them); and the hub knowing it spares a new stream at it a look of its own.
    hub().ring(game_channel(game_id), opening.revision)
    view = feeds.GameView(game_id, opening.revision, opening.seat_of(user), opening.game.pk)
    if last_event_id is not None and opening.revision - feeds.RESUME_LIMIT <= last_event_id <= opening.revision:
        view.revision = last_event_id
        return view, []
    return view, [await opening.first_event(view.seat)]
