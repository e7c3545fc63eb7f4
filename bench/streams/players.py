"""The tables and their scripted players, who move at the rate asked from what their streams bring."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.streams.http import one_request

STALE_GRACE = 1.0  # seconds a table's news may take on a stream before its player asks with a GET
MAX_IN_FLIGHT = 64  # scripted moves on the way at once: players send theirs however slow the server


@dataclass
class Table:
    """One game as its scripted players know it: the latest detail each human seat has had."""

    id: str
    tokens: dict[int, str]  # human seat -> its player's API key
    offset: int  # the game's revision minus its version: each move adds one to both
    version: int
    bot: bool
    details: dict[int, dict] = field(default_factory=dict)
    changed_at: float = 0.0
    busy: bool = False
    finished: bool = False

    def hear(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.changed_at = time.monotonic()

    def take(self, seat: int, detail: dict) -> None:
        known = self.details.get(seat)
        if known is None or detail["version"] >= known["version"]:
            self.details[seat] = detail
        self.hear(detail["version"])
        if detail["status"] != "active":
            self.finished = True

    def seat_to_play(self) -> int | None:
        for seat, detail in self.details.items():
            if detail["version"] == self.version and detail["is_your_turn"] and detail["legal_actions"]:
                return seat
        return None

    def seat_to_ask(self) -> int | None:
        """The human seat to GET the game as, when no stream has brought the news in time."""
        if time.monotonic() - self.changed_at < STALE_GRACE:
            return None
        fresh = [d for d in self.details.values() if d["version"] == self.version]
        if not fresh:
            return next(iter(self.tokens))
        to_act = fresh[0]["to_act"]
        if to_act in self.tokens and self.details.get(to_act, {}).get("version") != self.version:
            return to_act
        return None  # a bot is to act: its moves will say so


class Mover:
    """The scripted players: moves at `rate` a second in all, the bots' included (every move is heard
    on Redis), each from the detail its player last had."""

    def __init__(self, port: int, tables: list[Table], rate: float, heard: Callable[[], int]) -> None:
        self.port = port
        self.rate = rate
        self.heard = heard
        self.order = deque(tables)
        self.rng = random.Random(2026)
        self.in_flight = 0
        self.posted = 0
        self.gets = 0
        self.refused: Counter[str] = Counter()
        self.tasks: set[asyncio.Task] = set()

    async def drive(self, seconds: float) -> None:
        start, base, lost = time.monotonic(), self.heard(), 0.0
        while (elapsed := time.monotonic() - start) < seconds:
            due = self.rate * elapsed - (self.heard() - base) - self.in_flight - lost
            if due > self.rate:  # more than a second behind: the pace is lost, not caught up in a burst
                lost += due - 1
            elif due >= 1 and self.in_flight < MAX_IN_FLIGHT and (step := self.next_step()):
                self.start(*step)
                continue
            await asyncio.sleep(0.004)
        await asyncio.gather(*self.tasks)

    def next_step(self) -> tuple[Table, int, bool] | None:
        """The next table (in turn) whose player can move now, or must first GET the game."""
        for _ in range(len(self.order)):
            table = self.order[0]
            self.order.rotate(-1)
            if table.busy or table.finished:
                continue
            if (seat := table.seat_to_play()) is not None:
                return table, seat, False
            if (seat := table.seat_to_ask()) is not None:
                return table, seat, True
        return None

    def start(self, table: Table, seat: int, ask: bool) -> None:
        table.busy = True
        self.in_flight += 1
        task = asyncio.get_running_loop().create_task(self.play(table, seat, ask))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def play(self, table: Table, seat: int, ask: bool) -> None:
        try:
            if ask:
                self.gets += 1
                answer = await one_request(self.port, "GET", f"/api/v1/games/{table.id}/", table.tokens[seat])
                if answer.status != 200:
                    self.refused[f"GET {answer.status}"] += 1
                    return
                table.take(seat, answer.json())
                table.changed_at = time.monotonic()  # asked now: give the streams their grace again
                if table.seat_to_play() != seat:
                    return
            detail = table.details[seat]
            body = {"action": self.rng.choice(detail["legal_actions"]), "version": detail["version"]}
            answer = await one_request(self.port, "POST", f"/api/v1/games/{table.id}/moves/", table.tokens[seat], body)
            if answer.status == 201:
                self.posted += 1
                table.take(seat, answer.json()["game"])
            else:
                self.refused[f"POST {answer.status} {answer.json().get('code', '')}".strip()] += 1
                table.details.pop(seat, None)
        except (OSError, asyncio.IncompleteReadError) as exc:
            self.refused[type(exc).__name__] += 1
        finally:
            table.busy = False
            self.in_flight -= 1


def revision_of(data: bytes) -> int:
    """A game's message (live.changes): its revision alone, or the rendered change that names it."""
    return json.loads(data)["revision"] if data.startswith(b"{") else int(data)


class Publishes:
    """Every game revision the site publishes, heard on the private Redis as a stream process hears it."""

    def __init__(self, url: str, tables: dict[str, Table]) -> None:
        from live.publish import game_channel

        self.url = url
        self.tables = tables
        self.prefix = game_channel("")
        self.at: dict[tuple[str, int], float] = {}
        self.count = 0
        self.last = time.monotonic()

    async def listen(self, ready: asyncio.Event) -> None:
        import redis.asyncio as redis

        client = redis.Redis.from_url(self.url)
        async with client.pubsub() as pubsub:
            await pubsub.psubscribe(f"{self.prefix}*")
            ready.set()
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    self.hear(message["channel"].decode(), revision_of(message["data"]))

    def hear(self, channel: str, revision: int) -> None:
        game = channel.removeprefix(self.prefix)
        self.at[(game, revision)] = time.time()
        self.count += 1
        self.last = time.monotonic()
        table = self.tables.get(game)
        if table is not None:
            table.hear(revision - table.offset)


async def drain(mover: Mover, publishes: Publishes, quiet: float = 2.0, limit: float = 30.0) -> None:
    """Wait for the last moves (a bot may still be answering) to be published."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and (mover.in_flight or time.monotonic() - publishes.last < quiet):
        await asyncio.sleep(0.2)
