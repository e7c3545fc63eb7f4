"""How soon a subscribed phone hears "your turn": from the commit of the opponent's move to the push
service's receipt of the encrypted message.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.push_latency [--games 30]

It drops, recreates and migrates the database `slowhand_bench` (no other), starts a private
redis-server as broker, a local push service on 127.0.0.1 (standing for a browser vendor's, as in
tests/notifications), and a Celery worker with beat (production settings, a VAPID pair made for the
run). One player of each two-seat Scat game subscribes a device; the games are played turn by turn
through the services in this process, and each turn that passes to the subscribed player is timed
from its commit to the push's arrival:

- as deployed: the push's own message goes to the worker when the move commits;
- with that message lost (this process drops it, as a broker outage at the wrong moment would):
  the delivery sweep (every 10 s, beat) takes the push once its own message has had 15 s.

Prints the latencies (p50, p95, max) of both and writes bench/results/push_latency.txt. About 3
minutes.
"""

from __future__ import annotations

import argparse
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
)


def play_to_subscriber(game_id: str, subscriber_id: int) -> float | None:
    """Play turns until the subscriber is to act; the commit time of the move that made it so."""
    from games import services
    from games.engine import get_rules
    from games.models import Game

    game = Game.objects.get(public_id=game_id)
    rules = get_rules(game.kind)
    committed = None
    while game.status == "active" and game.seats.get(index=game.to_act_seat).user_id != subscriber_id:
        user = game.seats.get(index=game.to_act_seat).user
        services.submit_move(game_id=game_id, user=user, action={"type": "draw_stock"}, version=game.version)
        game.refresh_from_db()
        legal = rules.legal_actions(rules.from_json(game.state), game.to_act_seat)
        discard = next(a for a in legal if a["type"] == "discard")
        services.submit_move(game_id=game_id, user=user, action=discard, version=game.version)
        committed = time.time()
        game.refresh_from_db()
    return committed


def run(report: Report, games: int, service, *, lose_own_message: bool) -> list[float]:
    from accounts.models import User
    from config import dispatch
    from games import services
    from notifications import devices

    latencies = []
    tag = "lost" if lose_own_message else "sent"
    original = dispatch.send_now
    if lose_own_message:
        dispatch.send_now = lambda task_name, *args: (
            task_name != "notifications.tasks.deliver" and original(task_name, *args)
        )
    try:
        for n in range(games):
            mover = User.objects.create(username=f"push-{tag}-a{n}", password="!")
            phone_owner = User.objects.create(username=f"push-{tag}-b{n}", password="!")
            phone = service.browser(f"{tag}-{n}")
            keys = phone.keys
            devices.subscribe(user=phone_owner, endpoint=phone.endpoint, p256dh=keys["p256dh"], auth=keys["auth"])
            game = services.create_game(creator=mover, kind="scat", num_seats=2)
            services.join_game(game_id=game.public_id, user=phone_owner)
            already = len(service.messages(phone))
            committed = play_to_subscriber(game.public_id, phone_owner.pk)
            if committed is None:
                continue  # the subscriber opened the game: that turn was announced at the start
            if len(service.wait_for(already + 1, phone, timeout=120)) <= already:
                report.line(f"  game {n}: no push within 120 s")
                continue
            latencies.append(service.arrival_times(phone)[already] - committed)
    finally:
        dispatch.send_now = original
    return latencies


def describe(report: Report, label: str, latencies: list[float]) -> None:
    if not latencies:
        report.line(f"{label}: nothing arrived")
        return
    report.line(
        f"{label}: {len(latencies)} pushes; p50 {median(latencies) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--lost", type=int, default=5, help="games whose push's own message is lost")
    args = parser.parse_args()

    from notifications.vapid import generate_keys

    keys = generate_keys()
    report = Report("push_latency", "Push latency: from the move's commit to the push service")
    reset_database()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-push-"))
    with PrivateRedis() as redis:
        extra = {
            "REDIS_URL": redis.url(),
            "VAPID_PRIVATE_KEY": keys["private_key"],
            "VAPID_PUBLIC_KEY": keys["public_key"],
            "VAPID_SUBJECT": "mailto:bench@slowhand.example",
            "PUSH_ALLOW_PRIVATE": "1",
        }
        setup_django(**extra)
        from tests.notifications.push_service import push_service

        worker = start_celery_worker(bench_env(**extra), logs / "worker.log", beat=True)
        try:
            with push_service() as service:
                time.sleep(3)  # the worker connects
                describe(report, "own message (as deployed)", run(report, args.games, service, lose_own_message=False))
                describe(
                    report,
                    "own message lost (the sweep's path)",
                    run(report, args.lost, service, lose_own_message=True),
                )
        finally:
            stop_group(worker)
    report.line(
        "The sweep runs every 10 s and leaves a push to its own message for 15 s (OWN_MESSAGE_GRACE), so a "
        "lost message costs up to 25 s; the usual path is the worker's queue."
    )
    report.save()


if __name__ == "__main__":
    main()
