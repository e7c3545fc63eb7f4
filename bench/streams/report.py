"""The report: the figures of the run, as a table and in sentences, printed and saved."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

from bench.common import Report, percentile
from bench.streams.audit import GOAL_P95_MS, GOAL_STREAMS, Step
from bench.streams.fixtures import BOT_LEVEL, KIND
from bench.streams.machine import allowed_cores
from bench.streams.players import Table
from bench.streams.pollers import Polling

HELD = f"all open, none dropped, no move missing, p95 < {GOAL_P95_MS:.0f} ms, the moves at 90% of the rate or more"


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f}" if values else "-"


def table_rows(steps: list[Step]) -> list[tuple[str, list[str]]]:
    def each(text: Callable[[Step], str]) -> list[str]:
        return [text(step) for step in steps]

    def lat(values: Callable[[Step], list[float]]) -> list[str]:
        return each(lambda s: " / ".join(ms(values(s), q) for q in (0.5, 0.95, 0.99)))

    return [
        ("streams opened / refused", each(lambda s: f"{s.audit.opened:,} / {sum(s.audit.refused.values())}")),
        ("time to open the new ones (s)", each(lambda s: f"{s.open_seconds:.1f}")),
        ("  one stream's open, p95 (ms)", each(lambda s: f"{s.open_p95 * 1000:.0f}")),
        ("  server CPU per stream opened (ms)", each(lambda s: f"{s.open_cpu_ms:.1f}")),
        ("streams dropped", each(lambda s: str(s.audit.dropped))),
        ("silent > 15 s while idle", each(lambda s: str(s.silent))),
        ("moves in the window (/s)", each(lambda s: f"{s.latency.moves:,} ({s.rate:.1f}/s)")),
        ("  posted by scripted players", each(lambda s: f"{s.posted:,}")),
        ("  by the bot (Celery)", each(lambda s: f"{s.latency.bot_moves:,} ({s.bot_share:.0%})")),
        ("  GETs by scripted players", each(lambda s: str(s.gets))),
        ("events expected / received", each(lambda s: f"{s.audit.expected:,} / {s.audit.received:,}")),
        ("  all caught up, after the moves (s)", each(lambda s: f"{s.catch_up:.1f}")),
        ("events missing / out of order", each(lambda s: f"{s.audit.missing} / {s.audit.out_of_order}")),
        ("events sent twice (streams)", each(lambda s: f"{s.audit.duplicates} ({s.audit.streams_with_duplicates})")),
        ("'game' events after the first", each(lambda s: str(s.audit.games_later))),
        ("latency commit->client p50/95/99 ms", lat(lambda s: s.latency.to_client)),
        ("  max (ms)", each(lambda s: ms(s.latency.to_client, 1.0))),
        ("  commit->publish p50/95/99", lat(lambda s: s.latency.to_publish)),
        ("  publish->client p50/95/99", lat(lambda s: s.latency.publish_to_client)),
        ("server RSS before / after (MiB)", each(lambda s: f"{s.rss_before:.0f} / {s.rss_after:.0f}")),
        ("server memory per stream (KiB)", each(lambda s: f"{s.kib_per_stream:.1f}")),
        ("server OS threads before / after", each(lambda s: f"{s.threads[0]:,} / {s.threads[1]:,}")),
        ("stream leases counted in Redis", each(lambda s: f"{s.leases:,} of {s.audit.opened - s.audit.dropped:,}")),
        ("server CPU idle / moves (% core)", each(lambda s: f"{s.idle['server']:.1f} / {s.moving['server']:.1f}")),
        ("  per move, beyond idle (ms)", each(lambda s: f"{s.cpu_per_move_ms:.1f}")),
        ("  moves/s a whole core could take", each(lambda s: f"{s.moves_per_core:.1f}")),
        ("Celery worker CPU, moves", each(lambda s: f"{s.moving['celery']:.1f}")),
        ("PostgreSQL CPU idle / moves", each(lambda s: f"{s.idle['postgres']:.1f} / {s.moving['postgres']:.1f}")),
        ("redis-server CPU, moves", each(lambda s: f"{s.moving['redis']:.1f}")),
        ("load generator CPU idle / moves", each(lambda s: f"{s.idle['client']:.1f} / {s.moving['client']:.1f}")),
        ("core 0 / core 1 busy, moves", each(lambda s: f"{s.moving['core 0']:.0f} / {s.moving['core 1']:.0f}")),
        ("other processes' CPU idle / moves", each(lambda s: f"{s.idle['others']:.0f} / {s.moving['others']:.0f}")),
    ]


def print_table(report: Report, steps: list[Step]) -> None:
    rows = table_rows(steps)
    width = max(len(label) for label, _ in rows) + 2
    columns = [max(len(f"N={s.streams:,}"), *(len(v[i]) for _, v in rows)) + 2 for i, s in enumerate(steps)]
    report.line("".ljust(width) + "".join(f"N={s.streams:,}".rjust(c) for s, c in zip(steps, columns, strict=True)))
    for label, values in rows:
        report.line(label.ljust(width) + "".join(v.rjust(c) for v, c in zip(values, columns, strict=True)))


def describe_polling(report: Report, polls: list[Polling]) -> None:
    for polled in polls:
        what = "conditional GET (If-None-Match)" if polled.conditional else "full GET"
        answers = ", ".join(f"{status or 'error'}: {n:,}" for status, n in sorted(polled.answers.items()))
        report.line(
            f"  {what}: {polled.pollers} pollers, {polled.rate:,.0f} answers/s over {polled.seconds:.0f} s "
            f"(latency p50 {ms(polled.latencies, 0.5)} ms, p95 {ms(polled.latencies, 0.95)} ms; {answers}) "
            f"-> {polled.tables:,.0f} tables polling every 2 s; server CPU {polled.usage['server']:.0f}%, "
            f"load generator {polled.usage['client']:.0f}%, other processes {polled.usage['others']:.0f}%"
        )


def describe_log(report: Report, phase: str, said: Counter) -> None:
    if not said:
        report.line(f"  {phase}: nothing")
    for message, count in said.most_common(3):
        report.line(f"  {phase}: {count:,} x {message}")
    if len(said) > 3:
        report.line(f"  {phase}: and {sum(said.values()) - sum(n for _, n in said.most_common(3)):,} lines more")


def verdict(report: Report, steps: list[Step], polls: list[Polling]) -> None:
    held = [s for s in steps if s.met()]
    best = max(held, key=lambda s: s.streams) if held else None
    if best is None:
        report.line(f"streams held ({HELD}): none of the steps")
    else:
        report.line(
            f"streams held ({HELD}): {best.streams:,} "
            f"(the most tried: {max(s.streams for s in steps):,}), p95 {best.p95:.0f} ms, server "
            f"{best.moving['server']:.0f}% of its core under moves"
        )
    streams = "; ".join(f"{s.streams:,} open at p95 {s.p95:,.0f} ms ({s.audit.dropped} dropped)" for s in steps)
    full, conditional = polls if polls else (None, None)
    if full is None:
        report.line(f"tables on the server's core: streams {streams} (no polling measured: --pollers 0)")
    else:
        report.line(
            f"tables on the server's core: streams {streams}; polling every 2 s: {full.tables:,.0f} (full GET, "
            f"answers p95 {ms(full.latencies, 0.95)} ms) or {conditional.tables:,.0f} (If-None-Match, p95 "
            f"{ms(conditional.latencies, 0.95)} ms) with the server saturated"
        )
    last = steps[-1].audit  # every stream of the run, each since it opened
    once = not (last.missing or last.duplicates or last.out_of_order)
    report.line(
        f"every stream received every move of its game once and in order: {'yes' if once else 'NO'} "
        f"({last.missing:,} missing, {last.duplicates:,} sent again after later ones, {last.out_of_order} out of order)"
    )
    most = steps[-1]
    report.line(
        f"the server's core with {most.streams:,} streams: {most.idle['server']:.0f}% while idle, then "
        f"{most.cpu_per_move_ms:.0f} ms a move: it could take about {most.moves_per_core:.0f} moves/s "
        f"(asked: {most.target_rate:g}), had it the core to itself (here other processes used "
        f"{most.moving['others']:.0f}% of the machine's 200%)"
    )
    goal = next((s for s in steps if s.streams >= GOAL_STREAMS), None)
    if goal is None:
        report.line(f"goal ({GOAL_STREAMS:,} streams, p95 < {GOAL_P95_MS:.0f} ms, none dropped): not tried in this run")
        return
    a = goal.audit
    report.line(
        f"goal ({GOAL_STREAMS:,} streams at {goal.target_rate:g} moves/s, p95 < "
        f"{GOAL_P95_MS:.0f} ms, none dropped): {'met' if goal.met() else 'MISSED'} ({a.opened:,} open, "
        f"p95 {goal.p95:.0f} ms, {a.dropped} dropped, {a.missing} events missing, moves at {goal.rate:.1f}/s)"
    )


def describe_setup(report: Report, args, tables: list[Table], server: list[int], worker: int) -> None:
    workers = server[1:]
    report.line(
        f"server: gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker, {len(workers)} worker(s) "
        f"(pids {workers}), on core {allowed_cores(workers[0]) if workers else '?'}; Celery worker (concurrency 1) "
        f"on core {allowed_cores(worker)}; load generator (this process: streams, scripted players, pollers) on "
        f"core {allowed_cores(os.getpid())}; PostgreSQL (the machine's) on either core"
    )
    bots = sum(t.bot for t in tables)
    report.line(
        f"tables: {len(tables)} two-seat {KIND} games with 99 lives ({bots} against the {BOT_LEVEL} bot); "
        f"moves {args.rate:g}/s in all; latency = arrival at the client - Move.created_at (set in the move's "
        "transaction just before COMMIT), both wall clocks of this machine"
    )
