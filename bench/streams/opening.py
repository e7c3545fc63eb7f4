"""What opening a stream costs the server: CPU per open, memory and OS threads per open stream.

    .venv/bin/python -m bench.streams.opening [--streams 2000] [--games 100] [--root PATH]

It drops, recreates and migrates the bench database (bench.common), starts a private redis-server
and one uvicorn worker (gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker, DJANGO_DEBUG=0)
on core 0, and from core 1 (this process) opens `--streams` game streams with API tokens: each
game's players, then spectators holding 20 each. No moves are made, so the server's CPU over the
opening is the opening's alone. Measured:

- fresh opens: the server's utime+stime (/proc) while they open, over their number; the server's RSS
  and OS threads before the first and with all open (after a settling pause), per stream;
- resumed opens: every stream closed, then opened again with Last-Event-ID (what a reconnect storm
  does; nothing was missed, so the stream sends its opening only), the CPU per open the same way.

`--root` serves the code of another checkout of the project (its `main`, say) with this script, to
measure before and after a change on the same machine. Figures go to bench/results/streams_opening.txt.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
from pathlib import Path

from bench.common import (
    ROOT,
    PrivateRedis,
    Report,
    bench_env,
    children_of,
    free_port,
    reset_database,
    setup_django,
    start_asgi_server,
    stop_group,
    wait_until,
)
from bench.streams.clients import ResumingClient, StreamClient, connect_all
from bench.streams.machine import Usage, on_cores, thread_count, total_rss_mib

SERVER_CORE, CLIENT_CORE = 0, 1
SETTLE_SECONDS = 3.0
WARM_UP_STREAMS = 50


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.streams.opening", description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code the server runs")
    return parser.parse_args()


def main() -> None:
    from bench.streams.fixtures import make_tables, make_users, spectators_needed, stream_plan

    args = arguments()
    report = Report("streams_opening", "Opening a stream: the server's CPU per open, memory and threads per stream")
    reset_database()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-bench-opening-"))
    with contextlib.ExitStack() as stack:
        with on_cores({SERVER_CORE}):
            redis = stack.enter_context(PrivateRedis())
        setup_django(REDIS_URL=redis.url())
        tables = make_tables(args.games)
        spectators = make_users("spectator", spectators_needed(tables, args.streams + WARM_UP_STREAMS))
        plan = stream_plan(tables, spectators, args.streams + WARM_UP_STREAMS)
        from django.db import connection

        connection.close()
        env = bench_env(REDIS_URL=redis.url(), PYTHONPATH=str(args.root.resolve()))
        port = free_port()
        with on_cores({SERVER_CORE}):
            server = start_asgi_server(env, port, 1, logs / "server.log", root=args.root.resolve())
            stack.callback(stop_group, server)
        os.sched_setaffinity(0, {CLIENT_CORE})
        wait_until(lambda: len(children_of(server.pid)) == 1, timeout=30)

        def server_pids() -> list[int]:
            return [server.pid, *children_of(server.pid)]

        usage = Usage({"server": server_pids, "client": lambda: [os.getpid()]})
        report.line(f"server: one uvicorn worker on core {SERVER_CORE}, code of {args.root.resolve()}")
        report.line(f"streams: {args.streams:,} SSE game streams of {args.games} games, opened 32 at a time")
        figures = asyncio.run(measure(port, plan, usage, server_pids))
        describe(report, args.streams, figures)
        report.line(f"server log: {logs / 'server.log'}")
    report.save()


async def measure(port: int, plan: list, usage: Usage, server_pids) -> dict:
    warm = [StreamClient(*item) for item in plan[:WARM_UP_STREAMS]]
    await connect_all(port, warm)  # imports, the first queries, the pools: not an open's cost
    for client in warm:
        client.close()
    await asyncio.sleep(SETTLE_SECONDS)
    rss_before, threads_before = total_rss_mib(server_pids()), thread_count(server_pids())

    clients = [StreamClient(*item) for item in plan[WARM_UP_STREAMS:]]
    usage.start()
    seconds = await connect_all(port, clients)
    fresh = usage.stop()
    await asyncio.sleep(SETTLE_SECONDS)
    rss_after, threads_after = total_rss_mib(server_pids()), thread_count(server_pids())
    opened = [c for c in clients if c.opened_revision is not None]

    for client in clients:
        client.close()
    await asyncio.sleep(SETTLE_SECONDS)  # their leases given back
    again = [ResumingClient(c) for c in opened]
    usage.start()
    resume_seconds = await connect_all(port, again)
    resumed = usage.stop()
    reopened = [c for c in again if c.opened.done() and c.opened.result()]
    for client in again:
        client.close()
    await asyncio.sleep(1.0)
    return {
        "opened": len(opened),
        "refused": len(clients) - len(opened),
        "seconds": seconds,
        "fresh": fresh,
        "rss": (rss_before, rss_after),
        "threads": (threads_before, threads_after),
        "reopened": len(reopened),
        "resume_seconds": resume_seconds,
        "resumed": resumed,
        "open_p95": sorted(c.open_seconds for c in opened)[int(0.95 * (len(opened) - 1))] if opened else 0.0,
    }


def cpu_ms(usage: dict, count: int) -> float:
    return usage["server"] / 100 * usage["seconds"] / max(1, count) * 1000


def describe(report: Report, asked: int, f: dict) -> None:
    (rss_before, rss_after), (threads_before, threads_after) = f["rss"], f["threads"]
    report.line(
        f"fresh opens: {f['opened']:,} of {asked:,} open ({f['refused']} refused) in {f['seconds']:.1f} s, "
        f"p95 {f['open_p95'] * 1000:.0f} ms each; server CPU {cpu_ms(f['fresh'], f['opened']):.2f} ms per open "
        f"(server {f['fresh']['server']:.0f}% of a core, load generator {f['fresh']['client']:.0f}%, "
        f"other processes {f['fresh']['others']:.0f}% of the machine's 200%)"
    )
    report.line(
        f"memory: server RSS {rss_before:.0f} MiB before, {rss_after:.0f} MiB with {f['opened']:,} open: "
        f"{(rss_after - rss_before) * 1024 / max(1, f['opened']):.1f} KiB per stream"
    )
    report.line(
        f"threads: {threads_before} before, {threads_after:,} with {f['opened']:,} open "
        f"({(threads_after - threads_before) / max(1, f['opened']):.2f} per stream)"
    )
    report.line(
        f"resumed opens (Last-Event-ID, nothing missed): {f['reopened']:,} of {f['opened']:,} in "
        f"{f['resume_seconds']:.1f} s; server CPU {cpu_ms(f['resumed'], f['reopened']):.2f} ms per open "
        f"(other processes {f['resumed']['others']:.0f}%)"
    )


if __name__ == "__main__":
    main()
