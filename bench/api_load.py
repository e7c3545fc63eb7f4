"""Moves through the REST API under load, against the floor of a move.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth),
`redis-server` installed and `.venv/bin/pip install -e '.[bench]'` done (for the plot):

    .venv/bin/python -m bench.api_load [--clients 1,2,4,8,16] [--seconds 12]

It drops, recreates and migrates the database `slowhand_bench` (no other), starts a private
redis-server on a free port (the cache, so the rate limits' counters, and the Celery broker: each
move queues its notification deliveries there; no worker runs, so the queue only grows), and two
gunicorn servers with as many sync workers as the machine has cores, both with DJANGO_DEBUG=0,
a secret key, allowed hosts and rate limits high enough never to bite (API_THROTTLE_*):

- the site: `gunicorn config.wsgi` with `config.settings`;
- the floor: the same command with DJANGO_SETTINGS_MODULE=bench.floor_settings, whose URLconf
  (bench/floor_urls.py) adds `POST /bench/floor/<game>/`: token authentication, permission and
  throttles as in the API, then one transaction that locks the game's row and updates it. That
  is the least a move must do.

For each number of concurrent clients, client processes (multiprocessing, each with its own two
users and API tokens, playing one Scat and one Scattle two-seat game at a time, new games as old
ones end) loop: GET the game as the player to act, then POST a random legal move with the
game's version. Then the same clients do the same loop against the floor server with the
floor's POST in place of the move. After a 2-second warm-up, each phase is measured for
`--seconds`: POSTs per second, p50 and p95 of the POST's latency (seen by the client, connection
included) and of its server time (gunicorn's own measure, from its access log: the time a worker
spent on the request, without the wait for a free worker). It prints the ratio of a move to the
floor (target: a move costs at most twice the floor, judged on the server time at one client,
where nothing queues), the RSS of the site's gunicorn workers as the moves add up, and plots
moves/s and latency against clients to bench/results/api_load.png. Figures go to
bench/results/api_load.txt. About 4 minutes with the defaults.

The clients run on the same two cores as gunicorn and PostgreSQL: at many clients they take CPU
from the server, which this machine cannot avoid. Each phase also reports the share of the CPU
that processes outside the benchmark used meanwhile (other people's work on a shared machine):
a phase with much of it measured the neighbours as much as Slowhand.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import queue
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import (
    RESULTS,
    OtherLoad,
    PrivateRedis,
    Report,
    bench_env,
    children_of,
    finish_axis,
    free_port,
    percentile,
    pyplot,
    reset_database,
    rss_kib,
    save_figure,
    setup_django,
    start_gunicorn,
    stop_group,
    wait_until,
)

WARM_UP = 2.0
KINDS = ("scat", "scattle")


# --- the client processes (no Django in them: plain HTTP) ------------------------------------


@dataclass
class Job:
    index: int
    mode: str  # "move" or "floor"
    port: int
    tokens: tuple[str, str]
    start_at: float  # time.time() at which every client begins together
    warm_up: float
    duration: float
    games: list[str] = field(default_factory=list)  # floor mode: the games to lock
    stop_after_moves: int = 0  # memory mode: stop once the shared counter reaches this


def request(port: int, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict, float]:
    """One HTTP request on a fresh connection (gunicorn's sync workers close it after each)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Token {token}", "Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        status = response.status
    finally:
        conn.close()
    elapsed = time.perf_counter() - start
    try:
        payload = json.loads(raw) if raw else {}
    except ValueError:
        payload = {"raw": raw[:200].decode(errors="replace")}
    return status, payload, elapsed


def new_game(port: int, tokens: tuple[str, str], kind: str) -> dict:
    status, created, _ = request(port, "POST", "/api/v1/games/", tokens[0], {"kind": kind, "seats": 2})
    if status != 201:
        raise RuntimeError(f"create game: HTTP {status} {created}")
    status, joined, _ = request(port, "POST", f"/api/v1/games/{created['id']}/join/", tokens[1], {})
    if status != 200:
        raise RuntimeError(f"join game: HTTP {status} {joined}")
    return {"id": joined["id"], "kind": kind, "to_act": joined["to_act"]}


def client(job: Job, counter=None, results=None) -> dict:
    """Play until the phase ends; return the POST latencies (with their times) and the errors."""
    rng = random.Random(job.index * 7919 + (job.mode == "floor"))
    if job.mode == "floor":
        slots = [{"id": game_id, "to_act": None} for game_id in job.games]
    else:
        slots = [new_game(job.port, job.tokens, kind) for kind in KINDS]
    out = {"posts": [], "gets": [], "errors": {}, "games_created": 0, "game_ids": [s["id"] for s in slots]}
    time.sleep(max(0.0, job.start_at - time.time()))
    begin = time.perf_counter()
    end = begin + job.warm_up + job.duration
    turn = 0
    while time.perf_counter() < end:
        if job.stop_after_moves and counter is not None and counter.value >= job.stop_after_moves:
            break
        slot = slots[turn % len(slots)]
        turn += 1
        token = job.tokens[slot["to_act"] or 0]
        status, detail, seconds = request(job.port, "GET", f"/api/v1/games/{slot['id']}/", token)
        out["gets"].append((time.perf_counter() - begin, seconds))
        if status != 200:
            out["errors"][f"GET {status}"] = out["errors"].get(f"GET {status}", 0) + 1
            continue
        if job.mode == "floor":
            path, body = f"/bench/floor/{slot['id']}/", {"version": detail["version"]}
        else:
            if not detail["is_your_turn"]:
                slot["to_act"] = detail["to_act"]
                continue
            action = rng.choice(detail["legal_actions"])
            path, body = f"/api/v1/games/{slot['id']}/moves/", {"action": action, "version": detail["version"]}
        # Marks the requests of the measured window in the server's access log.
        in_window = job.warm_up <= time.perf_counter() - begin < job.warm_up + job.duration
        status, answer, seconds = request(job.port, "POST", path + ("?measured=1" if in_window else ""), token, body)
        if status != 201:
            out["errors"][f"POST {status}"] = out["errors"].get(f"POST {status}", 0) + 1
            continue
        out["posts"].append((time.perf_counter() - begin, seconds))
        if counter is not None:
            with counter.get_lock():
                counter.value += 1
        if job.mode == "move":
            game = answer["game"]
            if game["status"] != "active":
                replacement = new_game(job.port, job.tokens, slot["kind"])
                out["games_created"] += 1
                out["game_ids"].append(replacement["id"])
                slot.update(replacement)
            else:
                slot["to_act"] = game["to_act"]
    out["current"] = [s["id"] for s in slots]
    out["index"] = job.index
    if results is not None:
        results.put(out)
    return out


# --- the parent: database, servers, phases ----------------------------------------------------


def make_players(count: int) -> list[tuple[str, str]]:
    """Two users with an API token each per client; returns the token keys."""
    from accounts.models import ApiToken, User

    users = [User(username=f"load-{i:03d}-{side}", password="!", email=f"load-{i}-{side}@example.com")
             for i in range(count) for side in "ab"]  # fmt: skip
    User.objects.bulk_create(users)
    keys = []
    for i in range(count):
        pair = []
        for side in "ab":
            _token, key = ApiToken.issue(user=User.objects.get(username=f"load-{i:03d}-{side}"), name="bench")
            pair.append(key)
        keys.append((pair[0], pair[1]))
    from django.db import connection

    connection.close()
    return keys


class Servers:
    """The site's and the floor's gunicorn, with as many workers as cores."""

    def __init__(self, redis: PrivateRedis, workers: int, logs: Path, *, floor: bool = True) -> None:
        self.workers = workers
        env = bench_env(REDIS_URL=redis.url())
        self.site_port, self.floor_port = free_port(), free_port()
        self.site_access, self.floor_access = logs / "site-access.log", logs / "floor-access.log"
        self.site = start_gunicorn(env, self.site_port, workers, logs / "gunicorn-site.log", self.site_access)
        self.floor = None
        if floor:
            floor_env = dict(env, DJANGO_SETTINGS_MODULE="bench.floor_settings")
            self.floor = start_gunicorn(
                floor_env, self.floor_port, workers, logs / "gunicorn-floor.log", self.floor_access
            )
        wait_until(lambda: len(self.site_workers()) == workers, timeout=30)

    def site_workers(self) -> list[int]:
        return children_of(self.site.pid)

    def pids(self) -> list[int]:
        """Every gunicorn process of both servers."""
        pids = []
        for server in (self.site, self.floor):
            if server is not None:
                pids += [server.pid, *children_of(server.pid)]
        return pids

    def stop(self) -> None:
        stop_group(self.site)
        if self.floor is not None:
            stop_group(self.floor)


def run_clients(jobs: list[Job], counter=None, watch=None) -> list[dict]:
    """Run one process per job; `watch()` is called about once a second while they run."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    processes = [context.Process(target=client, args=(job, counter, results)) for job in jobs]
    for process in processes:
        process.start()
    outs: list[dict] = []
    deadline = time.monotonic() + max(job.warm_up + job.duration for job in jobs) + 900
    while len(outs) < len(jobs) and time.monotonic() < deadline:
        if watch is not None:
            watch()
        try:
            outs.append(results.get(timeout=1))
        except queue.Empty:
            if not any(process.is_alive() for process in processes) and results.empty():
                break
    for process in processes:
        process.join(30)
    if len(outs) < len(jobs):
        raise RuntimeError(f"only {len(outs)} of {len(jobs)} clients finished; see their errors above")
    return outs


def server_times(access_log: Path, offset: int) -> list[float]:
    """Seconds gunicorn took for each measured POST answered 201, from the access log past `offset`."""
    times = []
    with access_log.open() as log:
        log.seek(offset)
        for line in log:
            parts = line.split()
            if len(parts) == 5 and parts[0] == "POST" and parts[2] == "measured=1" and parts[3] == "201":
                times.append(int(parts[4]) / 1e6)
    return times


def phase(
    mode: str,
    clients: int,
    port: int,
    keys,
    seconds: float,
    floor_games: dict[int, list[str]],
    access_log: Path,
    other: OtherLoad,
) -> dict:
    offset = access_log.stat().st_size
    other.start()
    start_at = time.time() + 3.0  # time for the processes to start (spawn) and set up their games
    jobs = [
        Job(index=i, mode=mode, port=port, tokens=keys[i], start_at=start_at, warm_up=WARM_UP, duration=seconds,
            games=floor_games.get(i, []))
        for i in range(clients)
    ]  # fmt: skip
    outs = run_clients(jobs)
    other_share = other.share()
    time.sleep(0.5)  # let the access log reach the disk
    served = server_times(access_log, offset)
    window = (WARM_UP, WARM_UP + seconds)
    posts = [s for out in outs for t, s in out["posts"] if window[0] <= t < window[1]]
    gets = [s for out in outs for t, s in out["gets"] if window[0] <= t < window[1]]
    errors: dict[str, int] = {}
    for out in outs:
        for key, count in out["errors"].items():
            errors[key] = errors.get(key, 0) + count
    return {
        "mode": mode,
        "clients": clients,
        "rate": len(posts) / seconds,
        "p50": percentile(posts, 0.5) * 1000,
        "p95": percentile(posts, 0.95) * 1000,
        "get_p50": percentile(gets, 0.5) * 1000,
        "server_p50": percentile(served, 0.5) * 1000,
        "server_p95": percentile(served, 0.95) * 1000,
        "count": len(posts),
        "other": other_share,
        "all_posts": sum(len(out["posts"]) for out in outs),
        "errors": errors,
        "games_created": sum(out["games_created"] for out in outs),
        "current_games": {out["index"]: out["current"] for out in outs},
    }


def describe(result: dict) -> str:
    what = "moves" if result["mode"] == "move" else "floor requests"
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(result["errors"].items())) or "none"
    return (
        f"{result['clients']:>2} clients: {result['rate']:6.1f} {what}/s; POST latency p50 {result['p50']:6.1f} ms, "
        f"p95 {result['p95']:6.1f} ms; server time p50 {result['server_p50']:5.1f} ms, "
        f"p95 {result['server_p95']:5.1f} ms (GET latency p50 {result['get_p50']:.1f} ms; "
        f"{result['count']} POSTs measured; errors: {errors}; other processes' CPU: {result['other']:.0%})"
    )


def worker_memory(servers: Servers) -> str:
    figures = [rss_kib(pid) for pid in servers.site_workers()]
    now = ", ".join(f"{rss / 1024:.0f}" for rss, _ in figures)
    peak = max((hwm for _, hwm in figures), default=0) / 1024
    return f"RSS per worker {now} MiB, peak {peak:.0f} MiB"


def plot(results: list[dict], path: Path) -> None:
    moves = [r for r in results if r["mode"] == "move"]
    floors = [r for r in results if r["mode"] == "floor"]
    fig, (left, right) = pyplot().subplots(1, 2, figsize=(9, 3.6), dpi=90)
    left.plot([r["clients"] for r in moves], [r["rate"] for r in moves], "o-", label="moves (GET + move POST)")
    left.plot([r["clients"] for r in floors], [r["rate"] for r in floors], "s--", label="floor (GET + floor POST)")
    right.plot([r["clients"] for r in moves], [r["p95"] for r in moves], "o-", label="move POST p95 latency")
    right.plot([r["clients"] for r in floors], [r["p95"] for r in floors], "s--", label="floor POST p95 latency")
    right.plot([r["clients"] for r in moves], [r["server_p50"] for r in moves], "o:", label="move server time p50")
    right.plot([r["clients"] for r in floors], [r["server_p50"] for r in floors], "s:", label="floor server time p50")
    finish_axis(left, xlabel="concurrent clients", ylabel="POSTs per second", title="Throughput", title_size=None)
    finish_axis(right, xlabel="concurrent clients", ylabel="latency (ms)", title="POST latency", title_size=None)
    for axis in (left, right):
        axis.set_xscale("log", base=2)
        axis.set_xticks([r["clients"] for r in moves], [str(r["clients"]) for r in moves])
    fig.suptitle(f"Slowhand API on gunicorn ({os.cpu_count()} sync workers), PostgreSQL, Redis", fontsize=10)
    save_figure(fig, path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="1,2,4,8,16", help="comma-separated numbers of concurrent clients")
    parser.add_argument("--seconds", type=float, default=12.0, help="measured seconds per phase")
    args = parser.parse_args()
    counts = [int(c) for c in args.clients.split(",")]
    workers = os.cpu_count() or 1

    report = Report("api_load", "REST API under load (bench/api_load.py)")
    report.line(
        f"gunicorn: {workers} sync workers; {WARM_UP:.0f} s warm-up, then {args.seconds:.0f} s measured per phase"
    )
    reset_database()
    logs = Path(tempfile.gettempdir()) / "slowhand-bench-logs"
    logs.mkdir(exist_ok=True)
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        from games.models import Move

        keys = make_players(max(counts))
        servers = Servers(redis, workers, logs)
        results = []
        ratios: list[tuple[int, float]] = []
        other = OtherLoad(lambda: [*servers.pids(), redis.process.pid])
        try:
            for clients in counts:
                moved = phase("move", clients, servers.site_port, keys, args.seconds, {}, servers.site_access, other)
                results.append(moved)
                report.line("move  " + describe(moved))
                total = Move.objects.count()
                report.line(f"      site workers after {total:,} moves in all: {worker_memory(servers)}")
                floor = phase(
                    "floor",
                    clients,
                    servers.floor_port,
                    keys,
                    args.seconds,
                    moved["current_games"],
                    servers.floor_access,
                    other,
                )
                results.append(floor)
                report.line("floor " + describe(floor))
                ratios.append((clients, moved["server_p50"] / floor["server_p50"]))
                report.line(
                    f"      move/floor: server time p50 {ratios[-1][1]:.2f}x, p95 "
                    f"{moved['server_p95'] / floor['server_p95']:.2f}x; latency p50 "
                    f"{moved['p50'] / floor['p50']:.2f}x, p95 {moved['p95'] / floor['p95']:.2f}x; "
                    "floor requests/s over moves/s "
                    f"{floor['rate'] / moved['rate']:.2f}"
                )
        finally:
            servers.stop()
        from django.db import connection

        connection.close()
    one = ratios[0]
    report.line(
        f"target, a move costs at most twice the floor (server time p50 at {one[0]} client, no queueing): "
        f"{'met' if one[1] <= 2 else 'MISSED'} ({one[1]:.2f}x); at every count: "
        + ", ".join(f"{c}: {r:.2f}x" for c, r in ratios)
    )
    plot(results, RESULTS / "api_load.png")
    report.line("plot: bench/results/api_load.png")
    report.save()


if __name__ == "__main__":
    main()
