"""The timeout and reminder sweeps at 10,000 and 100,000 active games.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.sweep [--repeat 5]

It drops and recreates the database `slowhand_bench` (and touches no other), migrates it, and
starts a private redis-server on a free port as the Celery broker. It plays two real games
through the services (one Scat, one Scattle) and copies their started snapshots into games
bulk-created with their seats: 10,000 active games, then 100,000. Deadlines are
spread over the next three days, reminders due at 80% of the turn; a chosen share of games is
overdue (deadline a minute ago) and another share has a reminder due.

For each case it times, `--repeat` times (median and worst are printed; the claims are reset
between repeats):
- the timeout sweep: `games.sweeps.claim_overdue_games()` (one transaction that locks and claims
  the overdue rows), and `games.tasks.queue_timeouts()`, which queues the claimed games on the
  Redis broker as `games.tasks.apply_timeouts` messages of up to 50 games, as
  `games.tasks.sweep_timeouts` does;
- `games.sweeps.send_due_reminders()`, which also writes the notifications and queues their
  deliveries.

Cases: 10,000 games with 1% overdue/due, 100,000 with 1%, and 100,000 with 0.1%: the sweep's cost
should follow the number of overdue games, not the number of games. Requirement: under one second
at 100,000 games. The tables are vacuumed and analyzed after each bulk change (as autovacuum would
in a running site). It finishes with EXPLAIN ANALYZE of the claim and reminder queries as the sweeps
send them, to show the partial indexes at work. Writes bench/results/sweep.txt.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import timedelta

from bench.common import PrivateRedis, Report, median, reset_database, setup_django

BATCH = 2000


def real_snapshots():
    """Two started games (Scat and Scattle), made by the services like any game."""
    from accounts.models import User
    from games import services

    alice = User.objects.create_user(username="bench-alice", password=None)
    bob = User.objects.create_user(username="bench-bob", password=None)
    games = []
    for kind in ("scat", "scattle"):
        game = services.create_game(creator=alice, kind=kind, num_seats=2)
        services.join_game(game_id=game.public_id, user=bob)
        game.refresh_from_db()
        games.append(game)
    return games


def make_users(count: int) -> list[int]:
    from accounts.models import User

    users = [User(username=f"sweep-{i:05d}", password="!", email=f"sweep-{i}@example.com") for i in range(count)]
    User.objects.bulk_create(users, batch_size=BATCH)
    return list(User.objects.filter(username__startswith="sweep-").order_by("pk").values_list("pk", flat=True))


def add_games(count: int, templates, user_ids: list[int], rng: random.Random) -> float:
    """Bulk-create `count` active two-seat games copying the templates' snapshots; seconds taken."""
    from django.utils import timezone

    from games.models import Game, Seat

    start = time.perf_counter()
    now = timezone.now()
    done = 0
    while done < count:
        size = min(BATCH, count - done)
        games = []
        for i in range(size):
            template = templates[(done + i) % len(templates)]
            started = now - timedelta(seconds=rng.randrange(0, 86400))
            # At least two hours ahead, so that none falls due while the rest are being created.
            deadline = now + timedelta(seconds=rng.randrange(2 * 3600, 3 * 86400))
            # Remind at 80% of the turn; a reminder whose time has passed was sent (and cleared).
            reminder = started + (deadline - started) * 0.8
            games.append(
                Game(
                    kind=template.kind,
                    options=template.options,
                    num_seats=2,
                    status="active",
                    creator_id=user_ids[(done + i) % len(user_ids)],
                    state=template.state,
                    version=template.version,
                    to_act_seat=template.to_act_seat,
                    seed=template.seed,
                    seed_sha256=template.seed_sha256,
                    move_time_limit=3 * 86400,
                    deadline=deadline,
                    reminder_at=reminder if reminder > now + timedelta(hours=1) else None,
                    turn_started_at=started,
                    created_at=started,
                    started_at=started,
                )
            )
        Game.objects.bulk_create(games)
        seats = []
        for i, game in enumerate(games):
            k, n = done + i, len(user_ids)
            first, second = user_ids[k % n], user_ids[(k % n + 1 + (k // n) % (n - 1)) % n]
            seats += [
                Seat(game=game, index=0, user_id=first, joined_at=game.started_at),
                Seat(game=game, index=1, user_id=second, joined_at=game.started_at),
            ]
        Seat.objects.bulk_create(seats)
        done += size
    return time.perf_counter() - start


def analyze() -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        for table in ("games_game", "games_seat", "games_turn", "games_notification", "games_delivery"):
            cursor.execute(f"VACUUM ANALYZE {table}")


def choose_due(total_ids: list[int], share: float, rng: random.Random) -> tuple[list[int], list[int]]:
    """Disjoint samples: games to make overdue, games whose reminder is due."""
    count = max(1, round(len(total_ids) * share))
    sample = rng.sample(total_ids, 2 * count)
    return sample[:count], sample[count:]


def make_due(overdue: list[int], reminders: list[int]) -> None:
    """Reset every clock to the future, then put the chosen games past their deadline or reminder."""
    from django.db.models import F
    from django.utils import timezone

    from games.models import Game

    now = timezone.now()
    past = now - timedelta(minutes=1)
    Game.objects.filter(status="active", deadline__lte=now).update(deadline=now + timedelta(days=1))
    Game.objects.filter(status="active", reminder_at__lte=now).update(
        reminder_at=F("turn_started_at") + timedelta(days=2)
    )
    Game.objects.filter(timeout_claimed_until__isnull=False).update(timeout_claimed_until=None)
    Game.objects.filter(pk__in=overdue).update(deadline=past)
    Game.objects.filter(pk__in=reminders).update(reminder_at=past)


def time_timeout_sweep(overdue: list[int], repeat: int) -> dict[str, list[float]]:
    from games import sweeps, tasks
    from games.models import Game

    times: dict[str, list[float]] = {"claim": [], "enqueue": [], "total": []}
    for _ in range(repeat):
        Game.objects.filter(pk__in=overdue).update(timeout_claimed_until=None)
        start = time.perf_counter()
        claimed = sweeps.claim_overdue_games()
        middle = time.perf_counter()
        tasks.queue_timeouts(claimed)
        end = time.perf_counter()
        assert len(claimed) == len(overdue), (len(claimed), len(overdue))
        times["claim"].append(middle - start)
        times["enqueue"].append(end - middle)
        times["total"].append(end - start)
    return times


def time_reminder_sweep(reminders: list[int], repeat: int) -> list[float]:
    from django.utils import timezone

    from games import sweeps
    from games.models import Game

    times = []
    for _ in range(repeat):
        Game.objects.filter(pk__in=reminders).update(reminder_at=timezone.now() - timedelta(minutes=1))
        start = time.perf_counter()
        sent = sweeps.send_due_reminders()
        times.append(time.perf_counter() - start)
        assert sent == len(reminders), (sent, len(reminders))
    return times


def explain(function, reset) -> list[str]:
    """EXPLAIN ANALYZE of the first SELECT ... FOR UPDATE that `function` sends, rolled back."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    reset()
    with CaptureQueriesContext(connection) as captured:
        function()
    sql = next(q["sql"] for q in captured.captured_queries if "FOR UPDATE" in q["sql"])
    reset()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql)
        plan = [row[0] for row in cursor.fetchall()]
        transaction.set_rollback(True)
    return [f"query: {sql}", *plan]


def ms(values: list[float]) -> str:
    return f"median {median(values) * 1000:.1f} ms, worst {max(values) * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    args = parser.parse_args()

    report = Report("sweep", "Timeout and reminder sweeps (bench/sweep.py), PostgreSQL + Redis broker")
    reset_database()
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        from django.utils import timezone

        from games import sweeps, tasks
        from games.models import Game

        rng = random.Random(42)
        templates = real_snapshots()
        user_ids = make_users(1000)
        report.line(
            f"snapshots copied from real started games: scat {len(str(templates[0].state))} chars, "
            f"scattle {len(str(templates[1].state))} chars of JSON state"
        )
        cases = [(args.small, 0.01), (args.large, 0.01), (args.large, 0.001)]
        present = 0
        results = []
        for total, share in cases:
            if present < total:
                seconds = add_games(total - present, templates, user_ids, rng)
                present = total
                analyze()
                report.line(f"created {total:,} active games (bulk_create, with seats) in {seconds:.0f} s")
            ids = list(Game.objects.filter(status="active").values_list("pk", flat=True))
            overdue, reminders = choose_due(ids, share, rng)
            make_due(overdue, reminders)
            # Autovacuum keeps up in a running site; here the bulk updates came seconds ago.
            analyze()
            timeout_times = time_timeout_sweep(overdue, args.repeat)
            reminder_times = time_reminder_sweep(reminders, args.repeat)
            label = f"{len(ids):,} games, {share:.1%} due ({len(overdue):,} overdue, {len(reminders):,} reminders)"
            report.line(f"{label}: claim_overdue_games {ms(timeout_times['claim'])}")
            messages = -(-len(overdue) // tasks.TIMEOUT_BATCH)
            report.line(
                f"{label}: queue {len(overdue):,} games as {messages:,} apply_timeouts tasks on Redis "
                f"{ms(timeout_times['enqueue'])}"
            )
            report.line(f"{label}: timeout sweep total (claim + queue) {ms(timeout_times['total'])}")
            report.line(f"{label}: send_due_reminders (+ notifications, deliveries queued) {ms(reminder_times)}")
            results.append((total, share, overdue, reminders, timeout_times, reminder_times))

        report.line()
        for total, share, _overdue, _reminders, timeout_times, reminder_times in results:
            if total == args.large:
                worst = max(median(timeout_times["total"]), median(reminder_times))
                verdict = "met" if worst < 1.0 else "MISSED"
                report.line(
                    f"requirement < 1 s at {total:,} games with {share:.1%} due: {verdict} ({worst * 1000:.0f} ms)"
                )
        small_1, large_1, large_01 = (median(r[4]["total"]) for r in results)
        report.line(
            "timeout sweep scales with overdue games, not total: "
            f"10k/1% (100 due) {small_1 * 1000:.0f} ms, 100k/0.1% (100 due) {large_01 * 1000:.0f} ms, "
            f"100k/1% (1,000 due) {large_1 * 1000:.0f} ms"
        )

        overdue, reminders = results[-1][2], results[-1][3]
        analyze()
        report.line()
        report.line(f"EXPLAIN ANALYZE of the claim query at {args.large:,} games, {len(overdue)} overdue:")
        for line in explain(
            sweeps.claim_overdue_games,
            lambda: Game.objects.filter(pk__in=overdue).update(timeout_claimed_until=None),
        ):
            report.line("  " + line)
        report.line()
        report.line(f"EXPLAIN ANALYZE of the reminder query at {args.large:,} games, {len(reminders)} due:")
        for line in explain(
            sweeps.send_due_reminders,
            lambda: Game.objects.filter(pk__in=reminders).update(reminder_at=timezone.now() - timedelta(minutes=1)),
        ):
            report.line("  " + line)
        from django.db import connection

        connection.close()
    report.save()


if __name__ == "__main__":
    main()
