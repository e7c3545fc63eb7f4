"""Fault: Redis stopped while players are moving; then started again.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.fault_redis_down [--clients 4] [--before 10] [--down 15] [--after 15]

It drops, recreates and migrates the database `slowhand_bench` (no other), starts a local webhook
receiver, and runs two cases, each with its own private redis-server on a free port, its own
`gunicorn config.wsgi` (as many sync workers as cores, DJANGO_DEBUG=0) and its own Celery worker
with beat (so the periodic sweeps run as in production):

1. production layout: REDIS_URL points the Celery broker *and* the cache (which holds the API's
   rate-limit counters) at the one Redis, as config/settings.py does;
2. broker only: the same, but the cache on a second private Redis that stays up
   (DJANGO_SETTINGS_MODULE=bench.fault_settings), so that only the broker goes away.

In each case client processes (each with two users subscribed to every notification by webhook)
play a two-seat Scat game against each other and one against a good bot through the API (GET the
game, POST a random legal move). After `--before` seconds the Redis is stopped (SIGTERM; it keeps
nothing on disk, so every queued message is lost), after `--down` more seconds it is started
again, and the clients go on for `--after` seconds. It prints, for before / during / after the
outage (by the time each request was sent), the moves accepted (HTTP 201) with their latency
and the requests refused (by status), and then waits (at most 4 minutes)
for the queued work to be done: every webhook delivery sent and received once, no game left
waiting for its bot. Last, `manage.py verify_games`'s summary. About 6 minutes; writes
bench/results/fault_redis_down.txt.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.api_load import request
from bench.common import (
    PrivateRedis,
    Report,
    WebhookReceiver,
    bench_env,
    free_port,
    percentile,
    reset_database,
    setup_django,
    start_celery_worker,
    start_gunicorn,
    stop_group,
    verify_games,
    wait_until,
)

DRAIN_LIMIT = 240.0


@dataclass
class Job:
    index: int
    port: int
    tokens: tuple[str, str]
    start_at: float
    seconds: float


def create(port: int, tokens: tuple[str, str], bot: bool) -> dict:
    body = {"kind": "scat", "seats": 2, "bots": ["good"]} if bot else {"kind": "scat", "seats": 2}
    status, game, _ = request(port, "POST", "/api/v1/games/", tokens[0], body)
    if status != 201:
        raise RuntimeError(f"create: HTTP {status}")
    if not bot:
        status, game, _ = request(port, "POST", f"/api/v1/games/{game['id']}/join/", tokens[1], {})
        if status != 200:
            raise RuntimeError(f"join: HTTP {status}")
    return {"id": game["id"], "bot": bot, "to_act": game["to_act"] or 0}


def client(job: Job, results) -> None:
    """Play until the time is up; every request's (time sent, what, status, seconds) is recorded."""
    rng = random.Random(job.index)
    try:
        slots = [create(job.port, job.tokens, bot=False), create(job.port, job.tokens, bot=True)]
    except (OSError, RuntimeError, KeyError, ValueError) as exc:
        print(f"client {job.index} could not start its games: {exc}", flush=True)
        results.put([(time.time(), "client failed to start", 0, 0.0)])
        return
    log: list[tuple[float, str, int, float]] = []
    time.sleep(max(0.0, job.start_at - time.time()))
    end = job.start_at + job.seconds
    turn = 0
    while time.time() < end:
        slot = slots[turn % 2]
        turn += 1
        try:
            if slot.get("over"):
                slot.update(create(job.port, job.tokens, bot=slot["bot"]), over=False)
            token = job.tokens[0 if slot["bot"] else slot["to_act"]]
            sent_at = time.time()
            status, detail, seconds = request(job.port, "GET", f"/api/v1/games/{slot['id']}/", token)
            log.append((sent_at, "GET", status, seconds))
            if status != 200:
                time.sleep(0.05)
                continue
            if not detail["is_your_turn"]:
                slot["to_act"] = detail["to_act"] or 0
                if slot["bot"]:
                    time.sleep(0.02)  # the bot's move: the worker plays it
                continue
            body = {"action": rng.choice(detail["legal_actions"]), "version": detail["version"]}
            sent_at = time.time()
            status, answer, seconds = request(job.port, "POST", f"/api/v1/games/{slot['id']}/moves/", token, body)
            log.append((sent_at, "bot game move" if slot["bot"] else "move", status, seconds))
            if status == 201:
                game = answer["game"]
                slot["to_act"] = game["to_act"] or 0
                slot["over"] = game["status"] != "active"
            else:
                time.sleep(0.05)
        except (OSError, RuntimeError, KeyError, ValueError) as exc:
            log.append((time.time(), "error", 0, 0.0))
            print(f"client {job.index}: {type(exc).__name__}: {exc}", flush=True)
            time.sleep(0.1)
    results.put(log)


def make_players(count: int, url: str) -> list[tuple[str, str]]:
    from accounts.models import ApiToken, User
    from notifications.models import NotificationKind, PlayerPreference

    every = {kind: ["in_app", "webhook"] for kind in NotificationKind.values}
    keys = []
    for i in range(count):
        pair = []
        for side in "ab":
            user = User.objects.create(username=f"redis-{time.time_ns()}-{i}-{side}", password="!")
            PlayerPreference.objects.create(user=user, webhook_url=url, webhook_secret="bench", channels=every)
            pair.append(ApiToken.issue(user=user, name="bench")[1])
        keys.append((pair[0], pair[1]))
    return keys


def work_left(first_delivery: int) -> dict[str, int]:
    from django.db.models import F

    from games.models import Seat
    from notifications.models import Delivery

    webhooks = Delivery.objects.filter(channel="webhook", pk__gte=first_delivery)
    return {
        "deliveries": webhooks.count(),
        "deliveries sent": webhooks.filter(status="sent").count(),
        "deliveries pending": webhooks.filter(status="pending").count(),
        "games waiting for their bot": Seat.objects.filter(game__status="active", index=F("game__to_act_seat"))
        .exclude(bot_level="")
        .count(),
    }


def run_case(name: str, report: Report, receiver: WebhookReceiver, args, logs: Path, separate_cache: bool) -> None:
    from notifications.models import Delivery

    first_delivery = (Delivery.objects.order_by("-pk").values_list("pk", flat=True).first() or 0) + 1
    broker = PrivateRedis().start()
    cache = PrivateRedis().start() if separate_cache else None
    env = bench_env(REDIS_URL=broker.url())
    if cache is not None:
        env.update(DJANGO_SETTINGS_MODULE="bench.fault_settings", BENCH_CACHE_URL=cache.url())
    port = free_port()
    site = start_gunicorn(env, port, os.cpu_count() or 1, logs / f"fault-redis-{name}-gunicorn.log")
    worker = start_celery_worker(env, logs / f"fault-redis-{name}-worker.log", concurrency=1, beat=True)
    try:
        keys = make_players(args.clients, receiver.url)
        total = args.before + args.down + args.after
        start_at = time.time() + 4.0
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        jobs = [Job(i, port, keys[i], start_at, total) for i in range(args.clients)]
        processes = [context.Process(target=client, args=(job, results)) for job in jobs]
        for process in processes:
            process.start()
        time.sleep(max(0.0, start_at + args.before - time.time()))
        stopped_at = time.time()
        broker.stop()
        time.sleep(max(0.0, start_at + args.before + args.down - time.time()))
        broker.start()
        restarted_at = time.time()
        logs_of_clients = []
        while len(logs_of_clients) < len(jobs):
            try:
                logs_of_clients.append(results.get(timeout=total + 120))
            except queue.Empty:
                break
        for process in processes:
            process.join(30)
        entries = [entry for log in logs_of_clients for entry in log]
        failed = sum(1 for e in entries if e[1] == "client failed to start") + len(jobs) - len(logs_of_clients)
        if failed:
            report.line(f"  WARNING: {failed} of {len(jobs)} clients could not start (see the output above)")
        periods = [("before", 0, stopped_at), ("during", stopped_at, restarted_at), ("after", restarted_at, 1e18)]
        for period, low, high in periods:
            in_period = [e for e in entries if low <= e[0] < high]
            moves = [e for e in in_period if e[1] in ("move", "bot game move")]
            accepted = [e for e in moves if e[2] == 201]
            refused = Counter(e[2] for e in moves if e[2] != 201)
            gets = Counter(e[2] for e in in_period if e[1] == "GET")
            p50 = percentile([e[3] for e in accepted], 0.5) * 1000 if accepted else float("nan")
            worst = max((e[3] for e in accepted), default=float("nan")) * 1000
            refused_text = ", ".join(f"HTTP {k}: {v}" for k, v in sorted(refused.items())) or "none"
            report.line(
                f"  {period:<6} the outage: {len(accepted)} moves accepted (latency p50 {p50:.0f} ms, "
                f"max {worst:.0f} ms), refused: {refused_text}; GETs by status {dict(sorted(gets.items()))}"
            )
        drain_start = time.monotonic()

        def done() -> bool:
            left = work_left(first_delivery)
            return left["deliveries pending"] == 0 and left["games waiting for their bot"] == 0

        drained = wait_until(done, timeout=DRAIN_LIMIT, interval=1.0)
        left = work_left(first_delivery)
        report.line(
            f"  queued work after Redis came back: {'done' if drained else 'NOT done'} "
            f"{time.time() - restarted_at:.0f} s after the restart (waited {time.monotonic() - drain_start:.0f} s "
            f"after the load); " + ", ".join(f"{k} {v}" for k, v in left.items())
        )
        ids = {
            str(pk)
            for pk in Delivery.objects.filter(channel="webhook", pk__gte=first_delivery).values_list("pk", flat=True)
        }
        received = {key: count for key, count in receiver.received.items() if key in ids}
        duplicates = {key: count for key, count in received.items() if count > 1}
        report.line(
            f"  webhooks: {len(received)}/{len(ids)} distinct deliveries received, missing {len(ids - set(received))}, "
            f"duplicates {len(duplicates)}" + (f" {duplicates}" if duplicates else "")
        )
    finally:
        stop_group(worker)
        stop_group(site)
        for redis in (broker, cache):
            if redis is not None:
                redis.__exit__(None, None, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--before", type=float, default=10.0)
    parser.add_argument("--down", type=float, default=15.0)
    parser.add_argument("--after", type=float, default=15.0)
    args = parser.parse_args()

    report = Report("fault_redis_down", "Fault: Redis stopped during load (bench/fault_redis_down.py)")
    report.line(
        f"{args.clients} clients, each playing a human-vs-human and a human-vs-bot Scat game; Redis up "
        f"{args.before:.0f} s, down {args.down:.0f} s, up again {args.after:.0f} s"
    )
    reset_database()
    logs = Path(tempfile.gettempdir()) / "slowhand-bench-logs"
    logs.mkdir(exist_ok=True)
    setup_django()
    with WebhookReceiver() as receiver:
        report.line("case 1, production layout: REDIS_URL is the broker and the cache (rate-limit counters)")
        run_case("shared", report, receiver, args, logs, separate_cache=False)
        report.line("case 2, broker only: the cache on a second Redis that stays up (bench/fault_settings.py)")
        run_case("broker", report, receiver, args, logs, separate_cache=True)
    from django.db import connection

    connection.close()
    report.line(f"verify_games: {verify_games()}")
    report.save()


if __name__ == "__main__":
    main()
