"""The ASGI application under a real uvicorn server, and clients that read its event streams."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from games import services
from games.models import Game
from tests.asgi import close_server_connections, serve_asgi
from tests.live.helpers import api, token_of


@pytest.fixture
def asgi_server(transactional_db, settings) -> Iterator[str]:
    settings.LIVE_KEEPALIVE_SECONDS = 1.0
    with serve_asgi() as url:
        yield url
    close_server_connections()


@dataclass
class Received:
    id: int | None
    event: str
    data: dict | None


@dataclass
class Stream:
    """A stream read in a thread: its events arrive in `events` (keep-alives as event "keepalive")."""

    url: str
    headers: dict[str, str] = field(default_factory=dict)
    ndjson: bool = False
    events: queue.Queue = field(default_factory=queue.Queue)
    status: int | None = None
    content_type: str = ""
    ended: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Stream:
        self._client = httpx.Client(timeout=httpx.Timeout(30, read=60))
        self._opened = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self._opened.wait(20), "the stream did not answer"
        return self

    def _read(self) -> None:
        headers = {**self.headers, "Accept": "application/x-ndjson" if self.ndjson else "text/event-stream"}
        try:
            with self._client.stream("GET", self.url, headers=headers) as response:
                self.status, self.content_type = response.status_code, response.headers.get("content-type", "")
                self._opened.set()
                if response.status_code != 200:
                    response.read()
                    self.events.put(Received(None, "error", response.json()))
                    return
                self._parse(response.iter_lines())
        except httpx.HTTPError:
            pass
        finally:
            self._opened.set()
            self.ended.set()

    def _parse(self, lines) -> None:
        if self.ndjson:
            for line in lines:
                if not line:
                    self.events.put(Received(None, "keepalive", None))
                    continue
                item = json.loads(line)
                self.events.put(Received(item["id"], item["event"], item["data"]))
            return
        fields: dict[str, str] = {}
        for line in lines:
            if line.startswith(":"):
                if "keep-alive" in line:
                    self.events.put(Received(None, "keepalive", None))
                continue
            if line == "":
                if "data" in fields:
                    self.events.put(
                        Received(int(fields["id"]), fields.get("event", "message"), json.loads(fields["data"]))
                    )
                fields = {}
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def next(self, timeout: float = 10, skip_keepalives: bool = True) -> Received:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no event within {timeout} s on {self.url}")
            try:
                item = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if item.event == "keepalive" and skip_keepalives:
                continue
            return item

    def until(self, predicate, timeout: float = 20) -> list[Received]:
        """Events up to and including the first that satisfies `predicate`."""
        seen = []
        deadline = time.monotonic() + timeout
        while True:
            item = self.next(max(0.1, deadline - time.monotonic()))
            seen.append(item)
            if predicate(item):
                return seen

    def close(self) -> None:
        self._client.close()


@pytest.fixture
def open_stream() -> Iterator:
    streams: list[Stream] = []

    def opener(url: str, token: str | None = None, **kwargs) -> Stream:
        headers = dict(kwargs.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Token {token}"
        stream = Stream(url, headers=headers, **kwargs).start()
        streams.append(stream)
        return stream

    yield opener
    for stream in streams:
        stream.close()


@pytest.fixture
def table(alice, bob, asgi_server):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"initial_tokens": 1})
    services.join_game(game_id=game.public_id, user=bob)
    tokens = {0: token_of(alice), 1: token_of(bob)}
    seat_of = {s.user_id: s.index for s in Game.objects.get(pk=game.pk).seats.all()}
    tokens = {seat_of[alice.pk]: tokens[0], seat_of[bob.pk]: tokens[1]}
    clients = {seat: api(asgi_server, token) for seat, token in tokens.items()}
    return game.public_id, tokens, clients
