"""The stream clients: one asyncio protocol each, reading chunked SSE, opened in batches."""

from __future__ import annotations

import asyncio
import json
import math
import time

from bench.streams.http import encode_request, parse_head
from bench.streams.players import Table

OPEN_AT_ONCE = 32  # streams being opened together (their first event not yet in)


class StreamClient(asyncio.Protocol):
    """One open game stream. It keeps the id and arrival time of each "move" event; a player's own
    stream also hands the game's detail to the scripted players."""

    def __init__(self, table: Table, seat: int | None, token: str) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.status: int | None = None
        self.error = ""
        self.opened_revision: int | None = None
        self.opened = asyncio.get_running_loop().create_future()
        self.ids: list[int] = []
        self.times: list[float] = []
        self.newest = 0  # the highest revision received
        self.games_later: list[int] = []  # "game" events after the first (none while the game is played)
        self.last_bytes = self.began = time.monotonic()
        self.open_seconds = math.nan  # from the connection made to the first event
        self.ended = False  # the server ended it, or the connection broke
        self.closing = False  # we closed it
        self.closed_at: float | None = None  # when (wall clock)
        self.transport: asyncio.Transport | None = None
        self._head = b""
        self._raw = bytearray()
        self._text = bytearray()

    def request(self) -> bytes:
        headers = {"Accept": "text/event-stream"}
        return encode_request("GET", f"/api/v1/games/{self.table.id}/stream/", self.token, None, headers)

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport
        self.began = time.monotonic()
        transport.write(self.request())

    def data_received(self, data: bytes) -> None:
        now = time.time()
        self.last_bytes = time.monotonic()
        if self.status is None:
            self._head += data
            head, found, rest = self._head.partition(b"\r\n\r\n")
            if not found:
                return
            self.status, _headers = parse_head(head)
            data = rest
        if self.status != 200:
            self.error += data.decode(errors="replace")
            if not self.opened.done():
                self.opened.set_result(False)
                self.transport.close()
            return
        self._raw += data
        self._dechunk()
        self._read_events(now)

    def _dechunk(self) -> None:
        raw, pos = self._raw, 0
        while (line_end := raw.find(b"\r\n", pos)) >= 0:
            size = int(raw[pos:line_end], 16)
            if size == 0:
                self.ended = True
                break
            end = line_end + 2 + size
            if len(raw) < end + 2:
                break
            self._text += raw[line_end + 2 : end]
            pos = end + 2
        del raw[:pos]

    def _read_events(self, now: float) -> None:
        text, pos = self._text, 0
        while (end := text.find(b"\n\n", pos)) >= 0:
            self._event(bytes(text[pos:end]), now)
            pos = end + 2
        del text[:pos]

    def _event(self, block: bytes, now: float) -> None:
        if block.startswith(b":"):
            return  # a comment: the keep-alive, or the opening's
        fields = {}
        for line in block.split(b"\n"):
            name, _, value = line.partition(b":")
            fields[name] = value[1:] if value.startswith(b" ") else value
        if b"id" not in fields:
            return  # the opening "retry:" line
        event_id, event = int(fields[b"id"]), fields.get(b"event")
        if event == b"move":
            self.ids.append(event_id)
            self.times.append(now)
            self.newest = max(self.newest, event_id)
        elif event == b"game":
            if self.opened_revision is None:
                self.opened_revision = self.newest = event_id
                self.open_seconds = time.monotonic() - self.began
                self.opened.set_result(True)
            else:
                self.games_later.append(event_id)
        if self.seat is not None:
            self._tell_player(event, json.loads(fields[b"data"]))

    def _tell_player(self, event: bytes | None, data: dict) -> None:
        if event == b"game":
            self.table.take(self.seat, data)
        elif "detail" in data:
            self.table.take(self.seat, data["detail"])
        else:
            self.table.hear(data["version"])

    def connection_lost(self, exc: Exception | None) -> None:
        self.ended = True
        if not self.opened.done():
            self.opened.set_result(False)

    @property
    def dropped(self) -> bool:
        return self.opened_revision is not None and self.ended and not self.closing

    def close(self) -> None:
        self.closing = True
        self.closed_at = time.time()
        if self.transport is not None:
            self.transport.close()


async def open_streams(port: int, plan: list[tuple[Table, int | None, str]]) -> tuple[list[StreamClient], float]:
    """Open the planned streams, OPEN_AT_ONCE at a time, each until its first event; (clients, seconds)."""
    clients = [StreamClient(table, seat, token) for table, seat, token in plan]
    return clients, await connect_all(port, clients)


async def connect_all(port: int, clients: list[StreamClient], at_once: int = OPEN_AT_ONCE) -> float:
    """Connect these clients, `at_once` at a time, each until it is open (or refused); the seconds taken."""
    loop = asyncio.get_running_loop()
    gate = asyncio.Semaphore(at_once)
    start = time.monotonic()

    async def open_one(client: StreamClient) -> None:
        async with gate:
            try:
                await loop.create_connection(lambda: client, "127.0.0.1", port)
                await asyncio.wait_for(client.opened, 60)
            except (OSError, TimeoutError) as exc:
                client.error = client.error or type(exc).__name__
                client.close()

    await asyncio.gather(*(open_one(client) for client in clients))
    return time.monotonic() - start


class ResumingClient(StreamClient):
    """A stream opened again after a break with Last-Event-ID, as EventSource does: it carries on the
    record of the stream it replaces (`before`), so that the audit sees one stream across the break.
    It counts as open once the server's opening comes (a resume that missed nothing sends no event)."""

    def __init__(self, before: StreamClient) -> None:
        super().__init__(before.table, before.seat, before.token)
        self.last_event_id = before.newest
        self.opened_revision = before.opened_revision
        self.ids, self.times, self.newest = before.ids, before.times, before.newest
        self.games_later = before.games_later
        self.cut_at = before.closed_at or time.time()  # the break (wall clock): moves committed since came late
        self.reopened_at = math.inf  # when it was open again (wall clock)

    def request(self) -> bytes:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(self.last_event_id)}
        return encode_request("GET", f"/api/v1/games/{self.table.id}/stream/", self.token, None, headers)

    def _event(self, block: bytes, now: float) -> None:
        if not self.opened.done() and block.endswith(b": connected"):
            self.open_seconds = time.monotonic() - self.began
            self.reopened_at = time.time()
            self.opened.set_result(True)
            return
        super()._event(block, now)
