"""`python -m bench.streams`: the arguments, the processes on their cores, the run and its report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import tempfile
import time
from pathlib import Path

from bench import streams
from bench.common import (
    RESULTS,
    ROOT,
    PrivateRedis,
    Report,
    bench_database_pids,
    bench_env,
    children_of,
    free_port,
    reset_database,
    setup_django,
    start_asgi_server,
    start_celery_worker,
    stop_group,
    wait_until,
)
from bench.streams.fixtures import make_tables, make_users, spectators_needed
from bench.streams.load import RECONNECT_SECONDS, Run, ServerLog, Setup
from bench.streams.machine import Usage, on_cores
from bench.streams.plots import plot
from bench.streams.report import describe_log, describe_polling, describe_setup, print_table, verdict
from bench.streams.storm import describe as describe_storm
from bench.streams.storm import svg as storm_svg

SERVER_CORE = 0
CLIENT_CORE = 1


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.streams", description=streams.__doc__.splitlines()[0])
    parser.add_argument("--streams", default="1000,5000", help="comma-separated numbers of open streams, rising")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds of moves per step")
    parser.add_argument("--rate", type=float, default=20.0, help="moves a second, in all")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=1, help="uvicorn workers of the server")
    parser.add_argument(
        "--server-cores",
        default=str(SERVER_CORE),
        help="the cores of the server, its Celery worker and Redis (0: its own core; 0,1: both, which the load "
        "generator then shares)",
    )
    parser.add_argument("--pollers", type=int, default=300)
    parser.add_argument("--poll-seconds", type=float, default=15.0)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--warm-up", type=float, default=5.0)
    parser.add_argument(
        "--storm", type=float, default=0.0, help="seconds of moves in which every stream is cut and reopened at once"
    )
    parser.add_argument("--cut-after", type=float, default=10.0, help="seconds into the storm's moves of the cut")
    parser.add_argument("--quick", action="store_true", help="small and short, to try the script out")
    args = parser.parse_args()
    if args.quick:
        args.streams, args.seconds, args.games, args.pollers = "100,300", 10.0, 40, 40
        args.poll_seconds, args.idle_seconds, args.warm_up = 5.0, 5.0, 2.0
    args.streams = sorted(int(n) for n in args.streams.split(","))
    return args


def main() -> None:
    args = arguments()
    began = time.monotonic()
    if os.cpu_count() < 2:
        raise SystemExit("this benchmark needs two cores: one for the server, one for the load generator")
    report = Report("streams", "Event streams against 2-second polling (bench/streams/)")
    reset_database()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-bench-streams-"))
    with contextlib.ExitStack() as stack:
        server_cores = {int(core) for core in args.server_cores.split(",")}
        client_cores = {CLIENT_CORE} if CLIENT_CORE not in server_cores else server_cores | {CLIENT_CORE}
        with on_cores(server_cores):
            redis = stack.enter_context(PrivateRedis())
        setup_django(REDIS_URL=redis.url())
        print(f"creating {args.games} games and their players", flush=True)
        tables = make_tables(args.games)
        spectators = make_users("spectator", spectators_needed(tables, max(args.streams)))
        from django.db import connection

        from live import leases

        connection.close()
        env = bench_env(REDIS_URL=redis.url())
        port = free_port()
        with on_cores(server_cores):
            server = start_asgi_server(env, port, args.workers, logs / "server.log")
            stack.callback(stop_group, server)
            worker = start_celery_worker(env, logs / "celery.log", concurrency=1)
            stack.callback(stop_group, worker)
        os.sched_setaffinity(0, client_cores)
        wait_until(lambda: len(children_of(server.pid)) == args.workers, timeout=30)

        def server_pids() -> list[int]:
            return [server.pid, *children_of(server.pid)]

        usage = Usage(
            {
                "server": server_pids,
                "celery": lambda: [worker.pid, *children_of(worker.pid)],
                "postgres": bench_database_pids,
                "redis": lambda: [redis.process.pid],
                "client": lambda: [os.getpid()],
            }
        )
        describe_setup(report, args, tables, server_pids(), worker.pid)
        server_log = ServerLog(logs / "server.log")
        run = Run(Setup(port, redis.url(), tables, spectators, usage, server_pids, server_log), args)
        polls, steps, stormed, closing = asyncio.run(run.measure())
        celery_said = ServerLog(logs / "celery.log").said()

    if polls:
        report.line()
        report.line("2-second polling, same server, before any stream opened, moves going on:")
        describe_polling(report, polls)
    report.line()
    report.line(f"streams (SSE), each step: {args.idle_seconds:.0f} s idle, then {args.seconds:.0f} s of moves:")
    print_table(report, steps)
    report.line(f"scripted players' refused requests: {dict(run.mover.refused) or 'none'}")
    report.line(f"games finished during the run: {sum(t.finished for t in tables)} of {len(tables)}")
    if stormed is not None:
        describe_storm(report, stormed)
        storm_plot = ROOT / "docs" / f"streams_storm_{max(args.streams)}.svg"
        storm_svg(stormed, storm_plot)
        report.line(f"  plot: {storm_plot.relative_to(ROOT)}")
    refused = ", ".join(f"{n:,} {status}" for status, n in closing.refused.items()) or "none refused"
    report.line(
        f"all {closing.streams:,} streams closed at once: {RECONNECT_SECONDS:.0f} s later {closing.leases_left:,} "
        f"stream leases still held in Redis (live.leases; a lease lapses after {leases.LEASE_SECONDS} s); a new "
        f"stream for each of the {closing.probes} spectators who had held {leases.MAX_STREAMS}: {refused}"
    )
    report.line("the server's warnings and errors (logs under " + str(logs) + "):")
    describe_log(report, "warm-up and polling", run.polling_said)
    for step in steps:
        describe_log(report, f"N={step.streams:,}", step.server_said)
    if stormed is not None:
        describe_log(report, "reconnect storm", stormed.server_said)
    describe_log(report, "closing", closing.server_said)
    describe_log(report, "Celery worker, whole run", celery_said)
    report.line()
    verdict(report, steps, polls)
    try:
        plot(steps, polls, RESULTS / "streams.png")
        report.line("plot: bench/results/streams.png")
    except ImportError as exc:  # matplotlib not installed (.[bench]): the figures stand without it
        report.line(f"no plot of the steps: {exc}")
    report.line(f"the run took {(time.monotonic() - began) / 60:.1f} minutes")
    report.save()


if __name__ == "__main__":
    main()
