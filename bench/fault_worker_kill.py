"""Fault: a Celery worker killed with SIGKILL in the middle of delivering webhooks.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.fault_worker_kill [--games 30] [--kill-at 100]

It drops, recreates and migrates the database `slowhand_bench` (no other), starts a private
redis-server on a free port as broker and cache, a slow local webhook receiver (it takes 50 ms to
answer each POST and counts every X-Slowhand-Delivery id it receives), and a Celery worker
(prefork, 2 processes) in its own process group. Players subscribe to every notification by
webhook only; `--games` two-seat Scat games are started and played turn by turn through the
services, so each start, turn and end writes notifications and queues their deliveries.

When the receiver has taken in `--kill-at` deliveries, the whole worker (its main process and its
pool) is killed with SIGKILL: deliveries in flight are lost mid-request, messages it had
prefetched stay unacknowledged in Redis. A new worker is started; it sends what is still queued.
The claims of the dead worker's deliveries run out after notifications.delivery.CLAIM_FOR (two
minutes: the script waits for real), then the delivery sweep (notifications.tasks.sweep_deliveries, sent
through the broker as beat would) hands every pending delivery to the worker; a second sweep
follows and must find nothing. It prints what was expected, sent and received, every delivery
received more than once, and whether every notification was handled exactly once by a receiver
that keeps the webhook contract (it drops a delivery id it already has): the sender's side is
at-least-once, since a delivery whose answer died with the worker must be sent again, and the
stable X-Slowhand-Delivery id turns that into exactly once where the notification is handled.
Then `manage.py verify_games`'s summary. About 3 minutes; writes
bench/results/fault_worker_kill.txt.
"""

from __future__ import annotations

import argparse
import signal
import tempfile
import threading
import time
from pathlib import Path

from bench.common import (
    PrivateRedis,
    Report,
    WebhookReceiver,
    bench_env,
    reset_database,
    setup_django,
    start_celery_worker,
    stop_group,
    verify_games,
    wait_until,
)


def subscribe_players(count: int, url: str) -> list:
    from accounts.models import User
    from notifications.models import NotificationKind, PlayerPreference

    users = [User.objects.create(username=f"fault-{i:03d}", password="!") for i in range(count)]
    every = {kind: ["in_app", "webhook"] for kind in NotificationKind.values}
    PlayerPreference.objects.bulk_create(
        [PlayerPreference(user=u, webhook_url=url, webhook_secret="bench", channels=every) for u in users]
    )
    return users


def play_games(users: list, games: int, turns: int) -> int:
    """Start games and play them turn by turn (draw, then discard); returns moves played."""
    from games import services
    from games.engine import get_rules
    from games.models import Game

    ids = []
    for i in range(games):
        a, b = users[(2 * i) % len(users)], users[(2 * i + 1) % len(users)]
        game = services.create_game(creator=a, kind="scat", num_seats=2)
        services.join_game(game_id=game.public_id, user=b)
        ids.append((game.public_id, (a, b)))
    moves = 0
    for _ in range(turns):
        for game_id, players in ids:
            game = Game.objects.get(public_id=game_id)
            if game.status != "active":
                continue
            rules = get_rules(game.kind)
            seat = game.to_act_seat
            legal = rules.legal_actions(rules.from_json(game.state), seat)
            action = next((a for a in legal if a["type"] == "draw_stock"), legal[0])
            services.submit_move(game_id=game_id, user=players[seat], action=action, version=game.version)
            moves += 1
            game.refresh_from_db()
            if game.status == "active" and game.to_act_seat == seat:
                legal = rules.legal_actions(rules.from_json(game.state), seat)
                discard = next((a for a in legal if a["type"] == "discard"), legal[0])
                services.submit_move(game_id=game_id, user=players[seat], action=discard, version=game.version)
                moves += 1
    return moves


def delivery_counts() -> dict[str, int]:
    from django.utils import timezone

    from notifications.models import Delivery

    now = timezone.now()
    webhooks = Delivery.objects.filter(channel="webhook")
    return {
        "expected": webhooks.count(),
        "sent": webhooks.filter(status="sent").count(),
        "pending, claimed": webhooks.filter(status="pending", claimed_until__gt=now).count(),
        "pending, unclaimed": webhooks.filter(status="pending").exclude(claimed_until__gt=now).count(),
        "failed": webhooks.filter(status="failed").count(),
    }


def settled(seconds: float = 3.0):
    """A condition true once the number of sent deliveries has not changed for `seconds`."""
    state = {"sent": -1, "since": time.monotonic()}

    def check() -> bool:
        sent = delivery_counts()["sent"]
        if sent != state["sent"]:
            state.update(sent=sent, since=time.monotonic())
        return time.monotonic() - state["since"] >= seconds

    return check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--kill-at", type=int, default=100, help="deliveries received before the SIGKILL")
    args = parser.parse_args()

    report = Report("fault_worker_kill", "Fault: Celery worker killed with SIGKILL mid-delivery")
    reset_database()
    logs = Path(tempfile.gettempdir()) / "slowhand-bench-logs"
    logs.mkdir(exist_ok=True)
    with PrivateRedis() as redis, WebhookReceiver(delay=0.05) as receiver:
        setup_django(REDIS_URL=redis.url())
        from django.db import connection
        from django.utils import timezone

        from notifications import tasks
        from notifications.delivery import CLAIM_FOR
        from notifications.models import Delivery

        env = bench_env(REDIS_URL=redis.url())
        users = subscribe_players(2 * args.games, receiver.url)
        worker_log = logs / "fault-worker.log"
        worker_log.write_text("")
        first = start_celery_worker(env, worker_log, concurrency=2)
        killed = {}

        def killer() -> None:
            wait_until(lambda: receiver.total() >= args.kill_at, timeout=300, interval=0.005)
            stop_group(first, signal.SIGKILL)
            killed["at"] = receiver.total()

        watcher = threading.Thread(target=killer, daemon=True)
        watcher.start()
        moves = play_games(users, args.games, args.turns)
        report.line(f"played {moves} moves in {args.games} games; webhook deliveries written: "
                    f"{delivery_counts()['expected']}; receiver answers after 50 ms")  # fmt: skip
        watcher.join(300)
        time.sleep(1)
        at_kill = delivery_counts()
        report.line(
            f"worker (2 processes) killed with SIGKILL once {killed.get('at')} deliveries had arrived; "
            f"receiver has {receiver.total()} a second later"
        )
        report.line("at the kill: " + ", ".join(f"{k} {v}" for k, v in at_kill.items()))

        second = start_celery_worker(env, worker_log, concurrency=2)
        try:
            wait_until(settled(), timeout=120)
            after_restart = delivery_counts()
            report.line(
                "after the restart, before any sweep: " + ", ".join(f"{k} {v}" for k, v in after_restart.items())
            )
            latest = Delivery.objects.filter(status="pending", claimed_until__isnull=False).order_by("-claimed_until")
            latest = latest.values_list("claimed_until", flat=True).first()
            if latest is not None:
                wait = max(0.0, (latest - timezone.now()).total_seconds()) + 1
                report.line(f"waiting {wait:.0f} s for the dead worker's claims to run out (CLAIM_FOR = {CLAIM_FOR})")
                time.sleep(wait)
            tasks.sweep_deliveries.delay()
            done = wait_until(lambda: delivery_counts()["sent"] == after_restart["expected"], timeout=120)
            wait_until(settled(), timeout=30)
            tasks.sweep_deliveries.delay()  # a second sweep must find nothing to send
            time.sleep(3)
        finally:
            stop_group(second)
        final = delivery_counts()
        report.line("after the sweep: " + ", ".join(f"{k} {v}" for k, v in final.items()))
        expected_ids = {str(pk) for pk in Delivery.objects.filter(channel="webhook").values_list("pk", flat=True)}
        received_ids = set(receiver.received)
        duplicates = receiver.duplicates()
        missing = expected_ids - received_ids
        report.line(
            f"sent/expected: {final['sent']}/{final['expected']}; received {len(received_ids & expected_ids)} of "
            f"{len(expected_ids)} distinct deliveries in {receiver.total()} requests; missing {len(missing)}"
        )
        report.line(
            f"duplicates (same X-Slowhand-Delivery received more than once): {len(duplicates)}"
            + (f" {dict(sorted(duplicates.items()))}" if duplicates else "")
        )
        report.line(
            f"every notification arrived: {'yes' if not missing and done else 'NO'} "
            f"({len(received_ids & expected_ids)}/{len(expected_ids)})"
        )
        once = not missing and done
        report.line(
            f"exactly once, as a receiver that follows the webhook contract sees it (it drops an "
            f"X-Slowhand-Delivery id it already has): {'yes' if once else 'NO'}, "
            f"{len(received_ids & expected_ids)} notifications handled once each"
        )
        if duplicates:
            report.line(
                f"on the wire, {receiver.total() - len(received_ids)} request(s) repeated a delivery: it was received, "
                "then the worker died before recording it as sent, so the sweep sent it again once its claim ran "
                "out (a sender cannot know whether an answer it never got was sent)"
            )
        else:
            report.line("on the wire: no delivery id received twice")
        connection.close()
        report.line(f"verify_games: {verify_games(env)}")
    report.save()


if __name__ == "__main__":
    main()
