"""A move against the bare floor, side by side: the server time of a turn-passing discard through the
product, and of the least any move must do, on one sync gunicorn worker each.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and
`redis-server` installed:

    .venv/bin/python -m bench.move_floor [--pairs 600] [--server wsgi|asgi|both]

It drops, recreates and migrates the database `slowhand_bench` (no other) and starts a private
redis-server (the cache, so the rate limits' counters, and the Celery broker), then two servers of
`gunicorn config.wsgi` with one sync worker each, DJANGO_DEBUG=0:

- the site, with the production settings: every middleware, the rate limits (high enough never
  to bite, but counted), the notifications a move writes;
- the bare floor, DJANGO_SETTINGS_MODULE=bench.bare_floor_settings: only CommonMiddleware in
  front of one view (bench/bare_floor_urls.py) with DRF's token authentication, no throttles,
  and one transaction that SELECTs a game FOR UPDATE, UPDATEs it and INSERTs a Move.

One client (no concurrency: nothing queues) plays a two-player Scat game between two players
through the site's API: the player to act draws (not measured), then discards, which passes the
turn and writes the next player's notification; right after each discard it sends one request to
the floor. So the two alternate, and whatever else the machine is doing weighs on both alike. The
server time of each request is gunicorn's own (its access log, `%(D)s`). After a warm-up it prints
the medians, their ratio (target: at most 2.0), and p90s. Writes bench/results/move_floor.txt.

With `--server asgi` both sides run as production serves the site with its event streams,
`gunicorn config.asgi:application -k uvicorn_worker.UvicornWorker`, one worker each. uvicorn's
access log has no durations, so there the times are the client's, from sending the request to
the end of the answer on a fresh local connection (the same for both sides).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench.api_load import request
from bench.common import (
    PrivateRedis,
    Report,
    bench_env,
    free_port,
    median,
    percentile,
    reset_database,
    setup_django,
    start_asgi_server,
    start_gunicorn,
    stop_group,
    wait_for_quiet,
)

WARM_UP_PAIRS = 40
TARGET = 2.0


def players() -> tuple[str, str]:
    from accounts.models import ApiToken, User

    keys = []
    for name in ("floor-alice", "floor-bob"):
        user = User.objects.create_user(username=name, email=f"{name}@example.com", password=None)
        keys.append(ApiToken.issue(user=user, name="bench")[1])
    return keys[0], keys[1]


def floor_game() -> str:
    """A placeholder game for the floor to lock: active, without a state (verify_games skips it)."""
    from accounts.models import User
    from games.models import Game

    creator = User.objects.get(username="floor-alice")
    return Game.objects.create(kind="scat", num_seats=2, status="active", creator=creator).public_id


def new_game(port: int, tokens: tuple[str, str]) -> dict:
    status, created, _ = request(port, "POST", "/api/v1/games/", tokens[0], {"kind": "scat", "seats": 2})
    assert status == 201, created
    status, joined, _ = request(port, "POST", f"/api/v1/games/{created['id']}/join/", tokens[1], {})
    assert status == 200, joined
    return joined


def detail_for(port: int, game: dict, tokens: tuple[str, str]) -> dict:
    status, detail, _ = request(port, "GET", f"/api/v1/games/{game['id']}/", tokens[game["to_act"]])
    assert status == 200, detail
    return detail


class ClientTimes:
    """The measured requests' times as the client saw them, in milliseconds."""

    def __init__(self) -> None:
        self.moves: list[float] = []
        self.floors: list[float] = []


def post_move(port: int, game_id: str, token: str, action: dict, version: int, measured: list | None) -> dict:
    path = f"/api/v1/games/{game_id}/moves/" + ("?measured=1" if measured is not None else "")
    status, answer, elapsed = request(port, "POST", path, token, {"action": action, "version": version})
    assert status == 201, answer
    if measured is not None:
        measured.append(elapsed * 1000)
    return answer["game"]


def play(site: int, floor: int, tokens: tuple[str, str], floor_id: str, pairs: int, times: ClientTimes) -> int:
    """Draw, discard (measured), floor request (measured), `pairs` times after the warm-up."""
    game = new_game(site, tokens)
    floor_version = 0
    discards = 0
    while discards < pairs + WARM_UP_PAIRS:
        if game["status"] != "active":
            game = new_game(site, tokens)
        token = tokens[game["to_act"]]
        detail = game if game.get("is_your_turn") else detail_for(site, game, tokens)
        draws = [a for a in detail["legal_actions"] if a["type"] in ("draw_stock", "draw_discard")]
        drawn = post_move(site, game["id"], token, draws[0], detail["version"], measured=None)
        if drawn["status"] != "active" or not drawn["is_your_turn"]:
            game = drawn
            continue
        measured = discards >= WARM_UP_PAIRS
        discard = next(a for a in drawn["legal_actions"] if a["type"] == "discard")
        game = post_move(site, game["id"], token, discard, drawn["version"], times.moves if measured else None)
        path = f"/bench/bare-floor/{floor_id}/" + ("?measured=1" if measured else "")
        status, answer, elapsed = request(floor, "POST", path, token, {"version": floor_version})
        assert status == 201, answer
        if measured:
            times.floors.append(elapsed * 1000)
        floor_version = answer["version"]
        discards += 1
    return discards


def measured_times(access_log: Path) -> list[float]:
    times = []
    for line in access_log.read_text().splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[0] == "POST" and parts[2] == "measured=1" and parts[3] == "201":
            times.append(int(parts[4]) / 1000)
    return times


def measure(server: str, pairs: int, report: Report) -> None:
    """One side-by-side run, the site and the floor both served by `server` (wsgi or asgi)."""
    reset_database()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-bench-floor-"))
    times = ClientTimes()
    with PrivateRedis() as redis:
        setup_django(REDIS_URL=redis.url())
        tokens = players()
        floor_id = floor_game()
        from django.db import connection

        connection.close()
        env = bench_env(REDIS_URL=redis.url())
        floor_env = dict(env, DJANGO_SETTINGS_MODULE="bench.bare_floor_settings")
        site_port, floor_port = free_port(), free_port()
        if server == "wsgi":
            site = start_gunicorn(env, site_port, 1, logs / "site.log", logs / "site-access.log")
            floor = start_gunicorn(floor_env, floor_port, 1, logs / "floor.log", logs / "floor-access.log")
        else:
            site = start_asgi_server(env, site_port, 1, logs / "site.log")
            floor = start_asgi_server(floor_env, floor_port, 1, logs / "floor.log")
        try:
            play(site_port, floor_port, tokens, floor_id, pairs, times)
        finally:
            stop_group(site)
            stop_group(floor)
    if server == "wsgi":
        label = "one sync gunicorn worker each, gunicorn's server time"
        moves, floors = measured_times(logs / "site-access.log"), measured_times(logs / "floor-access.log")
    else:
        label = "one uvicorn worker under gunicorn each (config.asgi), the client's time"
        moves, floors = times.moves, times.floors
    ratio = median(moves) / median(floors)
    report.line(f"{server.upper()}: {label}")
    report.line(f"  {len(moves)} discards and {len(floors)} floor requests, alternating, after {WARM_UP_PAIRS} of each")
    for what, measured in (("discard (turn-passing)", moves), ("bare floor", floors)):
        report.line(f"  {what}: p50 {median(measured):.2f} ms, p90 {percentile(measured, 0.9):.2f} ms")
    verdict = "met" if ratio <= TARGET else "MISSED"
    report.line(f"  a move against the bare floor: {ratio:.2f}x at p50 (target at most {TARGET:g}x: {verdict})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=600)
    parser.add_argument("--server", choices=["wsgi", "asgi", "both"], default="both")
    args = parser.parse_args()

    report = Report("move_floor", "A turn-passing discard against the bare floor (bench/move_floor.py)")
    waited = wait_for_quiet()
    if waited:
        report.line(waited)
    for server in ("wsgi", "asgi") if args.server == "both" else (args.server,):
        measure(server, args.pairs, report)
    report.save()


if __name__ == "__main__":
    main()
