"""The web workers' memory over 10,000 moves: it should stay flat.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth),
`redis-server` installed and `.venv/bin/pip install -e '.[bench]'` done (for the plot):

    .venv/bin/python -m bench.memory [--moves 10000] [--clients 4]

It drops, recreates and migrates the database `slowhand_bench` (no other), starts a private
redis-server (cache and broker) and `gunicorn config.wsgi` with as many sync workers as cores
and production settings, exactly as bench/api_load.py does, then runs `--clients` client
processes playing two-seat games through the API (GET the game, POST a random legal move) until
`--moves` moves have been accepted. Once a second it reads each gunicorn worker's resident
memory (VmRSS) from /proc, and at the end each worker's peak (VmHWM). It prints the RSS every
1,000 moves, the peak, and the growth from the first 1,000 moves to the end; plots RSS against
moves to bench/results/memory.png; writes bench/results/memory.txt. Stops after 15 minutes at
most, whatever the count.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from pathlib import Path

from bench.api_load import Job, Servers, make_players, run_clients
from bench.common import (
    RESULTS,
    PrivateRedis,
    Report,
    finish_axis,
    pyplot,
    reset_database,
    rss_kib,
    save_figure,
    setup_django,
)

TIME_LIMIT = 900.0


def plot(samples: list[tuple[int, list[float]]], path: Path) -> None:
    fig, axis = pyplot().subplots(figsize=(6, 3.4), dpi=90)
    workers = len(samples[0][1])
    for worker in range(workers):
        axis.plot([m for m, _ in samples], [rss[worker] for _, rss in samples], label=f"worker {worker + 1}")
    finish_axis(
        axis,
        xlabel="moves accepted by the site",
        ylabel="resident memory (MiB)",
        title="gunicorn worker RSS while moves are played",
    )
    save_figure(fig, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    workers = os.cpu_count() or 1

    report = Report("memory", f"Web worker memory over {args.moves:,} moves (bench/memory.py)")
    reset_database()
    logs = Path(tempfile.gettempdir()) / "slowhand-bench-logs"
    logs.mkdir(exist_ok=True)
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        keys = make_players(args.clients)
        servers = Servers(redis, workers, logs, floor=False)
        pids = servers.site_workers()
        samples: list[tuple[int, list[float]]] = []
        counter = multiprocessing.get_context("spawn").Value("i", 0)

        def sample() -> None:
            samples.append((counter.value, [rss_kib(pid)[0] / 1024 for pid in pids]))

        try:
            sample()
            report.line(f"gunicorn: {workers} sync workers, pids {pids}; at start: RSS {samples[0][1]} MiB")
            start_at = time.time() + 3.0
            jobs = [
                Job(index=i, mode="move", port=servers.site_port, tokens=keys[i], start_at=start_at, warm_up=0,
                    duration=TIME_LIMIT, stop_after_moves=args.moves)
                for i in range(args.clients)
            ]  # fmt: skip
            begin = time.monotonic()
            outs = run_clients(jobs, counter, watch=sample)
            elapsed = time.monotonic() - begin - 3.0
            sample()
            peaks = [rss_kib(pid)[1] / 1024 for pid in pids]
            alive = servers.site_workers()
        finally:
            servers.stop()
        from django.db import connection

        connection.close()

    moves = samples[-1][0]
    errors = sum(sum(out["errors"].values()) for out in outs)
    report.line(f"{moves:,} moves accepted in {elapsed:.0f} s by {args.clients} clients ({errors} refused requests)")
    mark = 1000
    for done, rss in samples:
        if done >= mark:
            report.line(f"after {done:>6,} moves: RSS per worker {', '.join(f'{r:.1f}' for r in rss)} MiB")
            mark = (done // 1000 + 1) * 1000
    first = next((rss for done, rss in samples if done >= 1000), samples[0][1])
    last = samples[-1][1]
    growth = max(b - a for a, b in zip(first, last, strict=True))
    report.line(f"peak RSS (VmHWM) per worker: {', '.join(f'{p:.1f}' for p in peaks)} MiB")
    report.line(f"largest growth of a worker from 1,000 moves to {moves:,}: {growth:+.1f} MiB")
    report.line(f"workers still the same processes (no restarts): {'yes' if sorted(alive) == sorted(pids) else 'NO'}")
    flat = moves >= args.moves and growth < 5
    report.line(f"memory flat after {args.moves:,} moves (growth under 5 MiB): {'met' if flat else 'MISSED'}")
    plot(samples, RESULTS / "memory.png")
    report.line("plot: bench/results/memory.png")
    report.save()


if __name__ == "__main__":
    main()
