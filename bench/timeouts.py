"""How late a timeout is played: from a turn's deadline to the move the server makes for the absent
player, with the real beat schedule, among 100,000 active games.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.timeouts [--games 60] [--background 100000]

It drops and recreates the database `slowhand_bench` (and touches no other), bulk-creates the
background games as bench/sweep.py does (deadlines hours ahead), then starts real two-player Scat
games with the shortest time limit (60 s) through the services, a few a second so that their
deadlines fall all over the sweep's cycle. A Celery worker with beat (the settings' schedule:
sweep-timeouts every 2 s) runs on a private redis-server. Nobody moves: each game's first turn
times out, and the server plays it. The lateness of a game is the `created_at` of that first
timeout move minus the deadline the turn had. It also times the sweep's claim query among the
background games when nothing is due. Writes bench/results/timeouts.txt.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from bench.common import (
    PrivateRedis,
    Report,
    bench_env,
    median,
    percentile,
    reset_database,
    setup_django,
    start_celery_worker,
    stop_group,
    wait_until,
)
from bench.sweep import add_games, analyze, make_users, real_snapshots

TARGET_SECONDS = 10.0


def start_games(count: int, rate: float) -> dict[str, object]:
    """`count` started two-player Scat games with a 60-second limit, `rate` a second; their deadlines."""
    from accounts.models import User
    from games import services

    players = [User.objects.create_user(username=f"late-{i:03d}", password=None) for i in range(2 * count)]
    deadlines = {}
    for i in range(count):
        game = services.create_game(creator=players[2 * i], kind="scat", num_seats=2, move_time_limit=60)
        services.join_game(game_id=game.public_id, user=players[2 * i + 1])
        game.refresh_from_db()
        deadlines[game.public_id] = game.deadline
        time.sleep(1 / rate)
    return deadlines


def first_timeouts(game_ids) -> dict[str, object]:
    from games.models import Move

    moves = Move.objects.filter(game__public_id__in=game_ids, by_server="timeout").order_by("seq")
    first: dict[str, object] = {}
    for public_id, created_at in moves.values_list("game__public_id", "created_at"):
        first.setdefault(public_id, created_at)
    return first


def time_idle_claim(repeat: int) -> list[float]:
    from games import sweeps

    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        assert sweeps.claim_overdue_games() == []
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rate", type=float, default=3.0, help="games started per second")
    parser.add_argument("--background", type=int, default=100_000)
    args = parser.parse_args()

    report = Report("timeouts", "Timeout lateness with the real beat schedule (bench/timeouts.py)")
    reset_database()
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        from django.conf import settings

        report.line(
            f"sweep-timeouts every {settings.CELERY_BEAT_SCHEDULE['sweep-timeouts']['schedule']:g} s; "
            f"{args.games} games with a 60 s limit started {args.rate:g} a second among "
            f"{args.background:,} active games"
        )
        seconds = add_games(args.background, real_snapshots(), make_users(1000), random.Random(7))
        analyze()
        report.line(f"created {args.background:,} background games in {seconds:.0f} s")
        idle = time_idle_claim(20)
        report.line(
            f"claim_overdue_games with nothing due: median {median(idle) * 1000:.1f} ms, "
            f"worst {max(idle) * 1000:.1f} ms (20 runs)"
        )

        log = Path(tempfile.mkdtemp(prefix="slowhand-bench-timeouts-")) / "worker.log"
        worker = start_celery_worker(bench_env(REDIS_URL=redis.url()), log, beat=True)
        try:
            deadlines = start_games(args.games, args.rate)
            done = wait_until(lambda: len(first_timeouts(deadlines)) == len(deadlines), timeout=180, interval=1)
            played = first_timeouts(deadlines)
        finally:
            stop_group(worker)
        late = sorted((played[g] - deadlines[g]).total_seconds() for g in played)
        report.line(f"games whose first turn was played out: {len(played)} of {len(deadlines)}")
        if not done or not late:
            report.line("MISSED: not every timeout was played within 3 minutes (see the worker log: " + str(log) + ")")
        else:
            report.line(
                f"lateness after the deadline: min {late[0]:.2f} s, median {median(late):.2f} s, "
                f"p95 {percentile(late, 0.95):.2f} s, worst {late[-1]:.2f} s"
            )
            verdict = "met" if late[-1] <= TARGET_SECONDS else "MISSED"
            report.line(f"requirement: every timeout within {TARGET_SECONDS:g} s of its deadline: {verdict}")
        from django.db import connection

        connection.close()
    report.save()


if __name__ == "__main__":
    main()
