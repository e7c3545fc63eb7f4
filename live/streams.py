"""The streams as async generators of bytes: server-sent events, or newline-delimited JSON.

A stream holds no database connection while it waits: every read runs in a thread (in_thread) that
hands its connection back when done. It wakes when the hub rings, sends a keep-alive after
settings.LIVE_KEEPALIVE_SECONDS without an event (10; the contract asks for one at least every 15),
and ends when its viewer's credentials no longer hold (a revoked token, a new
password, a logout) or the viewer may no longer see the game. While the database cannot be reached
(config.outage) it stays open: its keep-alives go on, and what it could not read it reads again
every RETRY_SECONDS, so that it sends it, in order, once the database is back.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from config.outage import database_unavailable, gate, outage_log

from . import feeds
from .hub import Listener, hub
from .publish import game_channel, keys_channel, user_channel
from .threads import in_thread

SSE = "text/event-stream"
NDJSON = "application/x-ndjson"
RETRY_SECONDS = 1.0


class Encoder:
    def __init__(self, media_type: str) -> None:
        self.ndjson = media_type == NDJSON

    def event(self, event: feeds.Event) -> bytes:
        data = event.raw if event.raw is not None else feeds.data_json(event.data)
        if self.ndjson:
            return f'{{"id":{event.id},"event":"{event.event}","data":{data}}}\n'.encode()
        return f"id: {event.id}\nevent: {event.event}\ndata: {data}\n\n".encode()

    def keepalive(self) -> bytes:
        return b"\n" if self.ndjson else b": keep-alive\n\n"

    def opening(self) -> bytes:
        # Sent at once, so that a client (and any proxy) sees the stream is open before any event.
        return b"\n" if self.ndjson else b"retry: 3000\n: connected\n\n"


async def game_stream(
    view: feeds.GameView, first: list[feeds.Event], credentials: feeds.Credentials, encoder: Encoder
) -> AsyncIterator[bytes]:
    listener = Listener()
    channels = [game_channel(view.game_id)]
    if credentials.user_id is not None:
        channels.append(keys_channel(credentials.user_id))  # hears of revoked credentials
    hub().follow(listener, channels)
    try:
        yield encoder.opening()
        for event in first:
            yield encoder.event(event)
        first = event = None  # a game's whole detail: not held while the stream waits
        while True:
            await listener.rang.wait()
            rang = listener.answer()
            if view.first_look:
                view.first_look = False
                heard = hub().known.get(channels[0])
                if heard is not None and heard <= view.revision:
                    rang.discard(channels[0])  # the hub has heard of nothing newer since the stream began
                    if not rang:
                        continue
            if not rang:
                listener.spoke()
                yield encoder.keepalive()
                continue
            if not gate.open:
                if waiting_out_the_database(listener, rang):
                    yield encoder.keepalive()
                continue
            try:
                if channels[1:] and channels[1] in rang and await in_thread(credentials.revoked):
                    return
                news = await game_news(view, credentials.user_id, encoder) if channels[0] in rang else b""
            except Exception as exc:
                if not database_unavailable(exc):
                    raise
                if waiting_out_the_database(listener, rang, exc):
                    yield encoder.keepalive()
                continue
            if news is None:
                return  # no longer visible to this viewer
            if news:
                listener.spoke()
                yield news
    finally:
        hub().unfollow(listener, channels)


def waiting_out_the_database(listener: Listener, rang: set[str], exc: Exception | None = None) -> bool:
    """The news of `rang` cannot be read for want of the database (`exc`, or the gate is closed): ask
    again in a while. True when a keep-alive is due meanwhile (the stream is known to be alive by its
    keep-alives only)."""
    if exc is not None:
        gate.failed(exc)
        outage_log.note(exc, "a stream could not read its news")
    listener.again(rang, RETRY_SECONDS)
    if listener.keepalive_due():
        listener.spoke()
        return True
    return False


async def game_news(view: feeds.GameView, user_id: int | None, encoder: Encoder) -> bytes | None:
    """What the viewer is sent now that the game changed (read once for their whole audience);
    None when they may no longer see it."""
    heard = hub().known.get(game_channel(view.game_id))
    rendered = await hub().audiences.since(view.game_id, view.revision, heard)
    if rendered is None or not rendered.allows(user_id):
        return None
    # They may have taken a seat or left one: what they see is their seat's now.
    view.seat = rendered.seats_of.get(user_id) if user_id is not None else None
    view.revision = rendered.revision
    return rendered.encoded(view.seat, encoder)


async def user_stream(
    view: feeds.UserView, first: list[feeds.Event], credentials: feeds.Credentials, encoder: Encoder
) -> AsyncIterator[bytes]:
    listener = Listener()
    channels = [user_channel(view.user.pk)]
    hub().follow(listener, channels)
    try:
        yield encoder.opening()
        for event in first:
            yield encoder.event(event)
        first = event = None  # a game's whole detail: not held while the stream waits
        while True:
            await listener.rang.wait()
            rang = listener.answer()
            if not rang:
                listener.spoke()
                yield encoder.keepalive()
                continue
            if not gate.open:
                if waiting_out_the_database(listener, rang):
                    yield encoder.keepalive()
                continue
            try:
                events = await in_thread(feeds.user_events_after, view, credentials)
            except Exception as exc:
                if not database_unavailable(exc):
                    raise
                if waiting_out_the_database(listener, rang, exc):
                    yield encoder.keepalive()
                continue
            if events is None:
                return  # its credentials no longer hold
            if events:
                listener.spoke()
                yield b"".join(encoder.event(event) for event in events)
    finally:
        hub().unfollow(listener, channels)
