"""The reconnect storm: every open stream cut at once, as a restarting proxy or a rolling deploy cuts
them, and opened again at once with Last-Event-ID, while the moves go on at the rate asked.

Measured: how long until every stream is open again (and how many were refused); every stream's
moves across the cut, once and in order (the record of a stream carries on from before the cut,
bench.streams.clients.ResumingClient); the latency of each move's event, commit -> client, for
every second of the window, both over the events of streams that were open when the move committed
("live") and over all of them (a move committed while its stream was cut waits for the stream to
come back); and the server's CPU while the streams come back.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from dataclasses import dataclass, field

from bench.common import percentile
from bench.streams.audit import Audit, audit, first_arrivals
from bench.streams.clients import ResumingClient, StreamClient, connect_all
from bench.streams.fixtures import moves_of
from bench.streams.players import drain

STORM_AT_ONCE = 1000  # streams connecting together (the server's listen backlog holds 2,048)
GOAL_BACK_SECONDS = 30.0


@dataclass
class Storm:
    streams: int
    cut_at: float  # wall clock
    back_seconds: float  # from the cut until the last stream was open again
    reopened: int
    refused: Counter
    open_p50: float
    open_p95: float
    cpu_ms_per_open: float  # the server's CPU while they came back, over their number
    usage: dict[str, float]
    audit: Audit
    live: list[tuple[float, float]] = field(default_factory=list)  # (commit, latency) of streams open at commit
    missed: list[tuple[float, float]] = field(default_factory=list)  # the same, of moves made during a stream's cut
    window: tuple[float, float] = (0.0, 0.0)
    rate: float = 0.0
    back_over_time: list[tuple[float, int]] = field(default_factory=list)  # (seconds after the cut, streams open)

    def p95_ms(self, which: list[tuple[float, float]]) -> float:
        return percentile([latency for _, latency in which], 0.95) * 1000 if which else math.nan

    def worst_second_p95_ms(self, which: list[tuple[float, float]]) -> tuple[float, float]:
        """(seconds into the window, p95 in ms) of the second with the highest p95."""
        by_second: dict[int, list[float]] = {}
        for committed, latency in which:
            by_second.setdefault(int(committed - self.window[0]), []).append(latency)
        worst = max(by_second.items(), key=lambda item: percentile(item[1], 0.95), default=(0, [math.nan]))
        return worst[0], percentile(worst[1], 0.95) * 1000

    def met(self) -> bool:
        return (
            self.reopened == self.streams
            and self.back_seconds <= GOAL_BACK_SECONDS
            and not (self.audit.missing or self.audit.duplicates or self.audit.out_of_order)
            and self.worst_second_p95_ms(self.live)[1] < 500
        )


async def storm(run, seconds: float, cut_after: float) -> Storm:
    """Moves for `seconds` at the run's rate; `cut_after` seconds in, every stream is cut and opened again."""
    setup, mover = run.setup, run.mover
    streams = [s for s in run.streams if s.opened_revision is not None and not s.ended]
    moving = asyncio.get_running_loop().create_task(mover.drive(seconds))
    began = time.time()
    await asyncio.sleep(cut_after)

    print(f"storm: cutting {len(streams):,} streams at once, then opening them again with Last-Event-ID", flush=True)
    setup.usage.start()
    for stream in streams:
        stream.close()
    resumed = [ResumingClient(stream) for stream in streams]
    cut_at = time.time()
    await connect_all(setup.port, resumed, STORM_AT_ONCE)
    back = [s for s in resumed if s.opened.done() and s.opened.result()]
    back_seconds = max((s.reopened_at for s in back), default=cut_at) - cut_at
    usage = setup.usage.stop()
    cut = set(streams)
    run.streams = [s for s in run.streams if s not in cut] + resumed

    await moving
    window = (began, time.time())
    await drain(mover, run.publishes)
    moves = await asyncio.to_thread(moves_of, list(run.tables))
    await run.catch_up(moves)
    live, missed = split_latencies(resumed, moves, window)
    refused = Counter(f"HTTP {s.status}" if s.status else s.error or "no answer" for s in resumed if s not in back)
    opens = sorted(s.open_seconds for s in back)
    return Storm(
        streams=len(streams),
        cut_at=cut_at,
        back_seconds=back_seconds,
        reopened=len(back),
        refused=refused,
        open_p50=percentile(opens, 0.5) if opens else math.nan,
        open_p95=percentile(opens, 0.95) if opens else math.nan,
        cpu_ms_per_open=usage["server"] / 100 * usage["seconds"] / max(1, len(back)) * 1000,
        usage=usage,
        audit=audit(resumed, moves),
        live=live,
        missed=missed,
        window=window,
        rate=sum(1 for rows in moves.values() for _, t, _ in rows if window[0] <= t < window[1])
        / (window[1] - window[0]),
        back_over_time=back_curve(back, cut_at),
    )


def back_curve(back: list[ResumingClient], cut_at: float) -> list[tuple[float, int]]:
    """(seconds after the cut, streams open again by then), from each stream's reopening time."""
    times = sorted(s.reopened_at - cut_at for s in back)
    return [(t, i + 1) for i, t in enumerate(times)]


def split_latencies(
    streams: list[StreamClient], moves: dict, window: tuple[float, float]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(commit, commit -> client) of every move committed in `window`, for each stream: those its
    stream was open for when they committed, and those committed while it was cut."""
    committed = {(g, r): t for g, rows in moves.items() for r, t, _ in rows if window[0] <= t < window[1]}
    live, missed = [], []
    for stream in streams:
        cut = (getattr(stream, "cut_at", math.inf), getattr(stream, "reopened_at", math.inf))
        for revision, arrived in first_arrivals(stream):
            t = committed.get((stream.table.id, revision))
            if t is None:
                continue
            (missed if cut[0] <= t < cut[1] else live).append((t, arrived - t))
    return live, missed
