"""The load generator's run in the event loop: warm-up, polling, each step of N streams, the closing."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.common import percentile
from bench.streams.audit import Step, audit, latencies
from bench.streams.clients import StreamClient, open_streams
from bench.streams.fixtures import moves_of, stream_plan
from bench.streams.machine import Usage, thread_count, total_rss_mib
from bench.streams.players import Mover, Publishes, Table, drain
from bench.streams.pollers import POLL_RAMP, Polling, poll
from bench.streams.storm import Storm, storm

SETTLE_SECONDS = 3.0
CATCH_UP = 30.0  # seconds the streams may take, after the last move, to bring it before they are checked
RECONNECT_SECONDS = 3.0  # the stream's "retry:": when EventSource opens a broken stream again


@dataclass
class Setup:
    port: int
    redis_url: str
    tables: list[Table]
    spectators: list[tuple[int, str]]
    usage: Usage
    server_pids: Callable[[], list[int]]
    log: ServerLog


class ServerLog:
    """The server's log, read piece by piece: what it said (warnings and worse) in each phase."""

    LINE = re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ (?P<level>WARNING|ERROR|CRITICAL) (?P<logger>\S+) (?P<message>.*)$")

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def said(self) -> Counter:
        """The lines since the last call, counted by level, logger and message."""
        with self.path.open(errors="replace") as log:
            log.seek(self.offset)
            text = log.read()
            self.offset = log.tell()
        found: Counter[str] = Counter()
        for line in text.splitlines():
            if match := self.LINE.match(line):
                found[f"{match['level']} {match['logger']}: {match['message'][:120]}"] += 1
            elif line.startswith("Traceback"):
                found["a traceback"] += 1
        return found


async def polling(setup: Setup, mover: Mover, args, conditional: bool) -> Polling:
    """One polling phase, the moves going on, with the CPU used while the answers are counted."""
    print(f"polling ({'conditional' if conditional else 'full'} GET), moves going on", flush=True)
    viewers = [(t.id, next(iter(t.tokens.values()))) for t in setup.tables[: args.pollers]]

    async def metered() -> None:
        await asyncio.sleep(POLL_RAMP)
        setup.usage.start()

    polled, *_ = await asyncio.gather(
        poll(setup.port, viewers, args.poll_seconds, conditional), mover.drive(POLL_RAMP + args.poll_seconds), metered()
    )
    polled.usage = setup.usage.stop()
    return polled


class Run:
    """The measured part of the run, in the event loop: polling, then each step of N streams."""

    def __init__(self, setup: Setup, args: argparse.Namespace) -> None:
        self.setup = setup
        self.args = args
        self.tables = {t.id: t for t in setup.tables}
        self.publishes = Publishes(setup.redis_url, self.tables)
        self.mover = Mover(setup.port, setup.tables, args.rate, lambda: self.publishes.count)
        self.streams: list[StreamClient] = []
        self.plan = stream_plan(setup.tables, setup.spectators, max(args.streams))
        self.rss_before = 0.0
        self.threads_before = 0
        self.polling_said: Counter = Counter()

    async def measure(self) -> tuple[list[Polling], list[Step], Storm | None, Closing]:
        subscribed = asyncio.Event()
        listener = asyncio.get_running_loop().create_task(self.publishes.listen(subscribed))
        await subscribed.wait()
        print(f"warming up: {self.args.warm_up:.0f} s of moves", flush=True)
        await self.mover.drive(self.args.warm_up)
        polls = []
        if self.args.pollers:
            polls = [await polling(self.setup, self.mover, self.args, conditional) for conditional in (False, True)]
        await drain(self.mover, self.publishes)
        self.polling_said = self.setup.log.said()  # from the start to the last poll
        self.rss_before = total_rss_mib(self.setup.server_pids())
        self.threads_before = thread_count(self.setup.server_pids())
        steps = [await self.step(count) for count in self.args.streams]
        stormed = None
        if self.args.storm:
            stormed = await storm(self, self.args.storm, self.args.cut_after)
            stormed.server_said = self.setup.log.said()
        closing = await self.close()
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listener
        return polls, steps, stormed, closing

    async def step(self, count: int) -> Step:
        print(f"opening streams up to {count:,}", flush=True)
        usage, args = self.setup.usage, self.args
        usage.start()
        opened, open_seconds = await open_streams(self.setup.port, self.plan[len(self.streams) : count])
        opening = usage.stop()
        self.streams += opened
        await asyncio.sleep(SETTLE_SECONDS)
        rss_after = total_rss_mib(self.setup.server_pids())
        threads = (self.threads_before, thread_count(self.setup.server_pids()))

        print(f"idle: {args.idle_seconds:.0f} s with {count:,} streams open, no moves", flush=True)
        usage.start()
        await asyncio.sleep(args.idle_seconds)
        idle = usage.stop()
        silent = sum(1 for s in self.streams if not s.ended and time.monotonic() - s.last_bytes > 15)

        print(f"moves: {args.seconds:.0f} s at {args.rate:g} a second", flush=True)
        mover = self.mover
        posted, gets = mover.posted, mover.gets
        usage.start()
        began = time.time()
        await mover.drive(args.seconds)
        window = (began, time.time())
        moving = usage.stop()
        stopped = time.monotonic()
        await drain(mover, self.publishes)
        moves = await asyncio.to_thread(moves_of, list(self.tables))
        catch_up = await self.catch_up(moves) - stopped
        leases = await leases_held(self.setup.redis_url)
        step = Step(
            streams=count,
            open_seconds=open_seconds,
            open_p95=percentile([s.open_seconds for s in opened if s.opened_revision is not None], 0.95),
            open_cpu_ms=opening["server"] / 100 * opening["seconds"] / max(1, len(opened)) * 1000,
            rss_before=self.rss_before,
            rss_after=rss_after,
            threads=threads,
            idle=idle,
            moving=moving,
            silent=silent,
            audit=audit(self.streams, moves),
            latency=latencies(self.streams, moves, self.publishes.at, window),
            seconds=window[1] - window[0],
            posted=mover.posted - posted,
            gets=mover.gets - gets,
            server_said=self.setup.log.said(),
            target_rate=args.rate,
            catch_up=catch_up,
            leases=leases,
        )
        print(f"  p95 {step.p95:.0f} ms; {step.audit}", flush=True)
        return step

    async def catch_up(self, moves: dict[str, list[tuple[int, float, bool]]], limit: float = CATCH_UP) -> float:
        """When (time.monotonic()) every open stream has had the last move of its game; `limit` seconds
        from now at the latest."""
        last = {game: rows[-1][0] for game, rows in moves.items() if rows}
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            live = (s for s in self.streams if s.opened_revision is not None and not s.ended)
            if all(s.newest >= last.get(s.table.id, 0) for s in live):
                break
            await asyncio.sleep(0.2)
        return time.monotonic()

    async def close(self) -> Closing:
        """Close every stream at once (as a restarting proxy would); when browsers would come back
        (EventSource retries after 3 s), count the leases still held and try a new stream for each
        spectator who held the most a player may."""
        from live.leases import MAX_STREAMS

        for stream in self.streams:
            stream.close()
        await asyncio.sleep(RECONNECT_SECONDS)
        held = await leases_held(self.setup.redis_url)
        full = Counter(s.token for s in self.streams if s.seat is None)
        probes = [(self.setup.tables[0], None, token) for token, n in full.items() if n >= MAX_STREAMS]
        reopened, _ = await open_streams(self.setup.port, probes)
        for stream in reopened:
            stream.close()
        refused = Counter(f"HTTP {s.status}" for s in reopened if s.opened_revision is None)
        await asyncio.sleep(1.0)
        return Closing(len(self.streams), held, len(probes), refused, self.setup.log.said())


async def leases_held(url: str) -> int:
    """Stream leases in Redis that have not lapsed (live.leases: a sorted set a player, scored by the
    time each lease lapses)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url)
    try:
        keys = [key async for key in client.scan_iter(match="slowhand:live:leases:*")]
        return sum([await client.zcount(key, time.time(), "+inf") for key in keys])  # those not lapsed
    finally:
        await client.aclose()


@dataclass
class Closing:
    streams: int
    leases_left: int  # RECONNECT_SECONDS after every stream closed
    probes: int  # spectators who had held MAX_STREAMS streams, each trying one new stream
    refused: Counter
    server_said: Counter
