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
import gc
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
    in_flight: int = 0  # of `missed`, events on their way at the cut
    just_back: list[tuple[float, float]] = field(default_factory=list)  # of `live`, streams back < 2 s before
    window: tuple[float, float] = (0.0, 0.0)
    rate: float = 0.0
    back_over_time: list[tuple[float, int]] = field(default_factory=list)  # (seconds after the cut, streams open)
    server_said: Counter = field(default_factory=Counter)
    to_publish: list[tuple[float, float]] = field(default_factory=list)  # (commit, commit -> published) of each move
    client_lag: list[tuple[float, float]] = field(default_factory=list)  # (when, how late) the load generator's loop
    client_collections: list[float] = field(default_factory=list)  # seconds each full collection of its took

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
    lag: list[tuple[float, float]] = []
    watching = asyncio.get_running_loop().create_task(loop_lag(lag, seconds))
    collections = FullCollections()
    gc.callbacks.append(collections)
    await asyncio.sleep(cut_after)

    print(f"storm: cutting {len(streams):,} streams at once, then opening them again with Last-Event-ID", flush=True)
    # This process's records of 10,000 streams, out of its full collections: a collection stops its
    # loop, which stamps the events' arrival (the server's processes do the same, config.collector).
    gc.freeze()
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
    watching.cancel()
    gc.callbacks.remove(collections)
    await drain(mover, run.publishes)
    moves = await asyncio.to_thread(moves_of, list(run.tables))
    await run.catch_up(moves)
    live, missed, just_back, in_flight = split_latencies(resumed, moves, window)
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
        in_flight=in_flight,
        just_back=just_back,
        window=window,
        rate=sum(1 for rows in moves.values() for _, t, _ in rows if window[0] <= t < window[1])
        / (window[1] - window[0]),
        back_over_time=back_curve(back, cut_at),
        client_lag=lag,
        client_collections=collections.took,
        to_publish=[
            (t, run.publishes.at[(game, revision)] - t)
            for game, rows in moves.items()
            for revision, t, _ in rows
            if window[0] <= t < window[1] and (game, revision) in run.publishes.at
        ],
    )


async def loop_lag(found: list[tuple[float, float]], seconds: float, tick: float = 0.01) -> None:
    """How late this process's own event loop wakes a timer (it stamps the events' arrival): a loop
    busy connecting thousands of streams stamps late what came on time."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        asked = time.monotonic()
        await asyncio.sleep(tick)
        found.append((time.time(), time.monotonic() - asked - tick))


class FullCollections:
    """A gc callback: how long each full collection of this process took."""

    def __init__(self) -> None:
        self.took: list[float] = []
        self.started = 0.0

    def __call__(self, phase: str, info: dict) -> None:
        if info["generation"] == 2:
            if phase == "start":
                self.started = time.perf_counter()
            else:
                self.took.append(time.perf_counter() - self.started)


def back_curve(back: list[ResumingClient], cut_at: float) -> list[tuple[float, int]]:
    """(seconds after the cut, streams open again by then), from each stream's reopening time."""
    times = sorted(s.reopened_at - cut_at for s in back)
    return [(t, i + 1) for i, t in enumerate(times)]


JUST_BACK_SECONDS = 2.0
IN_FLIGHT_SECONDS = 0.5  # the goal: an event this young at the cut was not yet late


def split_latencies(
    streams: list[StreamClient], moves: dict, window: tuple[float, float]
) -> tuple[list[tuple[float, float]], list[tuple[float, float]], list[tuple[float, float]], int]:
    """(commit, commit -> client) of every move committed in `window`, for each stream: those its
    stream was open for when they committed; those committed while it was cut, or on their way to it
    at the cut (committed less than IN_FLIGHT_SECONDS before and not yet there: sent again on its
    return); among the first, those committed less than JUST_BACK_SECONDS after their stream came
    back (its catch-up may still have been on its way); and how many were on their way at the cut."""
    committed = {(g, r): t for g, rows in moves.items() for r, t, _ in rows if window[0] <= t < window[1]}
    live, missed, just_back, in_flight = [], [], [], 0
    for stream in streams:
        cut = (getattr(stream, "cut_at", math.inf), getattr(stream, "reopened_at", math.inf))
        for revision, arrived in first_arrivals(stream):
            t = committed.get((stream.table.id, revision))
            if t is None:
                continue
            on_its_way = cut[0] - IN_FLIGHT_SECONDS <= t < cut[0] <= arrived
            in_flight += on_its_way
            (missed if cut[0] <= t < cut[1] or on_its_way else live).append((t, arrived - t))
            if cut[1] <= t < cut[1] + JUST_BACK_SECONDS:
                just_back.append((t, arrived - t))
    return live, missed, just_back, in_flight


def describe(report, result: Storm) -> None:
    """The storm's figures, in sentences."""
    a, usage = result.audit, result.usage
    refused = ", ".join(f"{n:,} {why}" for why, n in result.refused.items()) or "none refused"
    report.line(
        f"reconnect storm: {result.streams:,} streams cut at once {result.cut_at - result.window[0]:.0f} s into "
        f"{result.window[1] - result.window[0]:.0f} s of moves at {result.rate:.1f}/s, and opened again at once "
        f"with Last-Event-ID ({STORM_AT_ONCE:,} connecting together)"
    )
    report.line(
        f"  back: {result.reopened:,} of {result.streams:,} open again {result.back_seconds:.1f} s after the cut "
        f"(goal {GOAL_BACK_SECONDS:.0f} s); {refused}; one stream's reopening p50 {result.open_p50 * 1000:.0f} ms, "
        f"p95 {result.open_p95 * 1000:.0f} ms"
    )
    report.line(
        f"  server CPU while they came back: {result.cpu_ms_per_open:.2f} ms per reopened stream (server "
        f"{usage['server']:.0f}% of a core over {usage['seconds']:.1f} s; other processes {usage['others']:.0f}% "
        "of the machine's 200%)"
    )
    report.line(
        f"  meanwhile: the load generator {usage['client']:.0f}% of a core, PostgreSQL {usage['postgres']:.0f}%, "
        f"Redis {usage['redis']:.0f}%, the Celery worker {usage['celery']:.0f}%; core 0 {usage['core 0']:.0f}% busy, "
        f"core 1 {usage['core 1']:.0f}%"
    )
    report.line(
        f"  every stream across the cut: {a.expected:,} events expected, {a.received:,} received; {a.missing} missing, "
        f"{a.duplicates} sent twice, {a.out_of_order} out of order; {a.games_later} 'game' events after the first"
    )
    second, worst = result.worst_second_p95_ms(result.live)
    report.line(
        f"  latency commit->client of streams open when the move committed: p95 {result.p95_ms(result.live):.0f} ms "
        f"over the window ({len(result.live):,} events); the worst second's p95 {worst:.0f} ms ({second} s in)"
    )
    in_worst = [late for committed, late in result.just_back if int(committed - result.window[0]) == second]
    all_in_worst = sum(1 for committed, _ in result.live if int(committed - result.window[0]) == second)
    worst_of_just_back = percentile(in_worst, 0.95) * 1000 if in_worst else math.nan
    report.line(
        f"  in the worst second, {len(in_worst):,} of its {all_in_worst:,} events went to streams back less than "
        f"{JUST_BACK_SECONDS:.0f} s before the commit (p95 {worst_of_just_back:.0f} ms)"
    )
    in_second = [delay for committed, delay in result.to_publish if int(committed - result.window[0]) == second]
    report.line(
        f"  of which commit->publish (the moving process's work after its commit): p95 "
        f"{result.p95_ms(result.to_publish):.0f} ms over the window, "
        f"{percentile(in_second, 0.95) * 1000 if in_second else math.nan:.0f} ms in the worst second"
    )
    lags = [late for at, late in result.client_lag if int(at - result.window[0]) == second]
    worst_lag = max((late for _, late in result.client_lag), default=math.nan)
    report.line(
        f"  the load generator's own loop (it stamps each event's arrival) woke late by up to {worst_lag * 1000:.0f} "
        f"ms; in the worst second p95 {percentile(lags, 0.95) * 1000 if lags else math.nan:.0f} ms, at most "
        f"{max(lags, default=math.nan) * 1000:.0f} ms; its full garbage collections {len(result.client_collections)}, "
        f"the longest {max(result.client_collections, default=0) * 1000:.0f} ms"
    )
    report.line(
        f"  moves made while their stream was cut, or on their way to it at the cut ({len(result.missed):,} events, "
        f"{result.in_flight:,} of them on their way, committed less than {IN_FLIGHT_SECONDS * 1000:.0f} ms before): "
        f"sent on its return, commit->client p95 {result.p95_ms(result.missed):.0f} ms"
    )
    report.line(
        f"  goal (all back within {GOAL_BACK_SECONDS:.0f} s, none refused, none lost or repeated, p95 < 500 ms every "
        f"second): {'met' if result.met() else 'MISSED'}"
    )


def svg(result: Storm, path) -> None:
    """The storm as an SVG, by hand (no plotting library needed): the streams back after the cut, and
    each second's p95 latency through the window."""
    width, height, pad = 420, 260, 48
    span = result.window[1] - result.window[0]
    cut = result.cut_at - result.window[0]

    def panel(x0: int, title: str, xmax: float, ymax: float, xlabel: str, ylabel: str, lines, marks) -> str:
        def px(x: float) -> float:
            return x0 + pad + (width - 1.5 * pad) * x / xmax

        def py(y: float) -> float:
            return height - pad + (pad - height + pad / 2) * min(y, ymax) / ymax

        out = [f'<text x="{x0 + width / 2}" y="16" text-anchor="middle" font-size="13">{title}</text>']
        out.append(f'<line x1="{px(0)}" y1="{py(0)}" x2="{px(xmax)}" y2="{py(0)}" stroke="black"/>')
        out.append(f'<line x1="{px(0)}" y1="{py(0)}" x2="{px(0)}" y2="{py(ymax)}" stroke="black"/>')
        for i in range(5):
            x, y = xmax * i / 4, ymax * i / 4
            out.append(f'<text x="{px(x)}" y="{py(0) + 14}" text-anchor="middle" font-size="10">{x:.0f}</text>')
            out.append(f'<text x="{px(0) - 4}" y="{py(y) + 3}" text-anchor="end" font-size="10">{y:,.0f}</text>')
        out.append(f'<text x="{px(xmax / 2)}" y="{height - 8}" text-anchor="middle" font-size="11">{xlabel}</text>')
        out.append(
            f'<text x="{x0 + 12}" y="{height / 2}" font-size="11" transform="rotate(-90 {x0 + 12} {height / 2})" '
            f'text-anchor="middle">{ylabel}</text>'
        )
        for points, colour, label, row in lines:
            if points:
                coords = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
                out.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
            out.append(f'<text x="{px(xmax * 0.45)}" y="{30 + 13 * row}" font-size="10" fill="{colour}">{label}</text>')
        for mark in marks:
            out.append(mark(px, py))
        return "\n".join(out)

    back = [(0.0, 0), *result.back_over_time]
    back_max = max(GOAL_BACK_SECONDS / 3, max((t for t, _ in back), default=1.0) * 1.1)
    left = panel(
        0, f"{result.streams:,} streams cut at once: back open", back_max, max(1, result.streams),
        "seconds after the cut", "streams open again",
        [(back, "#1f77b4", f"all back in {result.back_seconds:.1f} s", 0)], [],
    )  # fmt: skip

    def per_second(which: list[tuple[float, float]]) -> list[tuple[float, float]]:
        by_second: dict[int, list[float]] = {}
        for committed, latency in which:
            by_second.setdefault(int(committed - result.window[0]), []).append(latency)
        return [(s + 0.5, percentile(v, 0.95) * 1000) for s, v in sorted(by_second.items())]

    live, everything = per_second(result.live), per_second(result.live + result.missed)
    top = max(600.0, *(y for _, y in live), 1.0)
    goal = lambda px, py: (  # noqa: E731
        f'<line x1="{px(0)}" y1="{py(500)}" x2="{px(span)}" y2="{py(500)}" stroke="grey" stroke-dasharray="4"/>'
        f'<line x1="{px(cut)}" y1="{py(0)}" x2="{px(cut)}" y2="{py(top)}" stroke="red" stroke-dasharray="2"/>'
        f'<text x="{px(cut) + 3}" y="{py(top) + 10}" font-size="10" fill="red">cut</text>'
    )
    right = panel(
        width, "p95 event latency, each second (commit -> client)", span, top, "seconds into the moves", "ms",
        [(live, "#2ca02c", "streams open at the commit", 0),
         (everything, "#ff7f0e", "all, the cut streams' catch-up included (capped)", 1)],
        [goal],
    )  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width}" height="{height}" font-family="sans-serif">\n'
        f'<rect width="100%" height="100%" fill="white"/>\n{left}\n{right}\n</svg>\n'
    )
