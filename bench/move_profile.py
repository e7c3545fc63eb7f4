"""Where a move's time goes: moves of two-player Scat games through the whole WSGI stack of
config.wsgi, in this process, under cProfile, with the SQL of a move listed.

    .venv/bin/python -m bench.move_profile [--moves 400] [--database slowhand_bench_profile] [--top 40]

It drops, recreates and migrates `<database>` (no other), sets the process up as the site of
bench/move_outside.py is (production settings, DJANGO_DEBUG=0, no REDIS_URL), plays random legal
actions as the client of bench.move_outside does (fresh requests into the WSGI application, not over
a socket), and prints: the cumulative time of the stack's layers per move (middleware, the view's
parts, the service, the answer), cProfile's top functions by their own time and by cumulative
time, and the queries of one turn-passing discard.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time

from bench.common import POSTGRES, ROOT, bench_env
from bench.move_outside import reset, site_players


def call(app, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
    """One request through the WSGI application, its whole answer read."""
    data = json.dumps(body).encode() if body is not None else b""
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8000",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_AUTHORIZATION": f"Token {token}",
        "HTTP_ACCEPT": "application/json",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.version": (1, 0),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    status = []
    chunks = app(environ, lambda s, headers, exc=None: status.append(s))
    try:
        raw = b"".join(chunks)
    finally:
        if hasattr(chunks, "close"):
            chunks.close()
    return int(status[0].split()[0]), json.loads(raw) if raw else {}


class Player:
    def __init__(self, app, tokens: list[str], rng: random.Random) -> None:
        self.app, self.tokens, self.rng = app, tokens, rng
        self.game: dict = {}

    def new_game(self) -> None:
        status, created = call(self.app, "POST", "/api/v1/games/", self.tokens[0], {"kind": "scat", "seats": 2})
        assert status == 201, created
        status, self.game = call(self.app, "POST", f"/api/v1/games/{created['id']}/join/", self.tokens[1], {})
        assert status == 200, self.game

    def prepare(self) -> tuple[str, dict]:
        """The next move's token and body (reading the game first when it is not the mover's answer)."""
        if not self.game or self.game["status"] != "active":
            self.new_game()
        seat = self.game["to_act"]
        if not self.game.get("is_your_turn"):
            status, self.game = call(self.app, "GET", f"/api/v1/games/{self.game['id']}/", self.tokens[seat])
            assert status == 200, self.game
        action = self.rng.choice(self.game["legal_actions"])
        return self.tokens[seat], {"action": action, "version": self.game["version"]}

    def move(self, token: str, body: dict) -> dict:
        status, answer = call(self.app, "POST", f"/api/v1/games/{self.game['id']}/moves/", token, body)
        assert status == 201, answer
        self.game = answer["game"]
        return answer


class Layers:
    """Inclusive wall and CPU time of the stack's layers, per call, by wrapping their functions."""

    def __init__(self) -> None:
        self.totals: dict[str, list[float]] = {}
        self.wrapped: list[tuple[object, str, object]] = []
        self.on = False

    def wrap(self, owner, name: str, label: str) -> None:
        original = getattr(owner, name)
        totals = self.totals.setdefault(label, [0, 0.0, 0.0])
        layers = self

        def timed(*args, **kwargs):
            if not layers.on:
                return original(*args, **kwargs)
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return original(*args, **kwargs)
            finally:
                totals[0] += 1
                totals[1] += time.perf_counter() - wall
                totals[2] += time.process_time() - cpu

        self.wrapped.append((owner, name, original))
        setattr(owner, name, timed)

    def unwrap(self) -> None:
        for owner, name, original in reversed(self.wrapped):
            setattr(owner, name, original)

    def report(self, moves: int) -> None:
        print(f"layers, per move (inclusive; {moves} moves):  wall ms   CPU ms   calls/move")
        for label, (calls, wall, cpu) in self.totals.items():
            print(f"  {label:<52} {wall / moves * 1000:7.2f}  {cpu / moves * 1000:7.2f}  {calls / moves:6.2f}")


def wrap_layers(layers: Layers, application) -> None:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.backends.postgresql.base import DatabaseWrapper
    from django.db.backends.utils import CursorWrapper
    from django.db.models.sql.compiler import SQLCompiler
    from rest_framework.renderers import JSONRenderer
    from rest_framework.views import APIView

    import accounts.authentication
    import config.write_batch
    import games.api.views
    import games.selectors
    import games.services
    import live.subscribers
    import notifications.outbox
    import notifications.subscribers

    layers.wrap(type(application), "__call__", "the whole request (WSGI)")
    layers.wrap(APIView, "dispatch", "  inside the middleware: DRF's dispatch")
    layers.wrap(APIView, "initial", "    DRF initial: authentication, throttles")
    layers.wrap(accounts.authentication.HashedTokenAuthentication, "authenticate_credentials", "      authentication")
    layers.wrap(APIView, "check_throttles", "      rate limits")
    layers.wrap(games.api.views.MoveListView, "post", "    the view")
    layers.wrap(games.services, "submit_move", "      the service (submit_move, its commit)")
    layers.wrap(games.services, "lock_game", "        lock the game, read its seats")
    layers.wrap(games.services, "record_move", "        record the move (writes, events)")
    layers.wrap(notifications.subscribers, "turn_began", "          the outbox (turn began)")
    layers.wrap(live.subscribers, "game_changed", "          the streams' logs (game changed)")
    layers.wrap(config.write_batch.WriteBatch, "flush", "          the write batch's flush")
    layers.wrap(BaseDatabaseWrapper, "commit", "        commit")
    layers.wrap(games.selectors, "move_history", "      the answer's move")
    layers.wrap(games.selectors, "game_detail", "      the answer's game detail")
    layers.wrap(JSONRenderer, "render", "    JSON rendering")
    layers.wrap(CursorWrapper, "execute", "  (every ORM/cursor query)")
    layers.wrap(SQLCompiler, "as_sql", "  (the ORM building SELECTs' SQL)")
    layers.wrap(DatabaseWrapper, "is_usable", "  (the connection's health check)")
    del notifications.outbox


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--database", default="slowhand_bench_profile")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--settings", default="config.settings", help="a settings module to try (the site's)")
    args = parser.parse_args()

    database, var = f"{POSTGRES}/{args.database}", tempfile.mkdtemp()
    env = bench_env(DATABASE_URL=database, SLOWHAND_VAR_DIR=var, DJANGO_SETTINGS_MODULE=args.settings)
    reset(args.database, env, "config.settings")
    os.environ.update(env)
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from config.wsgi import application

    tokens = site_players()
    player = Player(application, tokens, random.Random(1))
    for _ in range(40):  # warm up
        player.move(*player.prepare())

    walls, cpus = [], []
    for _ in range(args.moves):
        token, body = player.prepare()
        wall, cpu = time.perf_counter(), time.process_time()
        player.move(token, body)
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    print(
        f"{args.moves} moves in-process: median {statistics.median(walls) * 1000:.2f} ms, of which the process's "
        f"own CPU median {statistics.median(cpus) * 1000:.2f} ms, mean {statistics.mean(cpus) * 1000:.2f} ms"
    )

    layers = Layers()
    wrap_layers(layers, application)
    for _ in range(args.moves):
        token, body = player.prepare()
        layers.on = True
        player.move(token, body)
        layers.on = False
    layers.report(args.moves)
    layers.unwrap()

    profile = cProfile.Profile()
    took = []
    for _ in range(args.moves):
        token, body = player.prepare()
        start = time.perf_counter()
        profile.enable()
        player.move(token, body)
        profile.disable()
        took.append(time.perf_counter() - start)
    took.sort()
    print(f"{args.moves} moves in-process under cProfile: median {took[len(took) // 2] * 1000:.2f} ms")
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(key).print_stats(args.top)
        print(out.getvalue())
    # Own time by package: where the CPU goes (waiting for PostgreSQL left out).
    own_time: dict[str, float] = {}
    for (filename, _line, function), (_cc, _nc, tottime, _ct, _callers) in pstats.Stats(profile).stats.items():
        if "psycopg" in filename and function in ("wait", "_execute_send"):
            group = "(waiting for PostgreSQL)"
        elif "site-packages/" in filename:
            parts = filename.split("site-packages/")[1].split("/")
            group = "/".join(parts[:3] if parts[0] == "django" else parts[:1])
        elif str(ROOT) in filename:
            group = "/".join(filename.replace(str(ROOT) + "/", "").split("/")[:2])
        else:
            group = "(the standard library, builtins)"
        own_time[group] = own_time.get(group, 0.0) + tottime
    print(f"own time by package, per move (ms, under cProfile, {args.moves} moves):")
    for group, seconds in sorted(own_time.items(), key=lambda item: -item[1])[:25]:
        print(f"  {seconds / args.moves * 1000:7.2f}  {group}")
    print()
    # The project's own functions and the middleware, by cumulative time.
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out).sort_stats("cumulative")
    own = f"{ROOT}/(?!\\.venv)|middleware|rest_framework/(views|request|authentication|throttling|renderers)"
    stats.print_stats(own, args.top * 2)
    print(out.getvalue().replace(str(ROOT) + "/", ""))

    # The queries of one turn-passing discard.
    while True:
        token, body = player.prepare()
        if body["action"]["type"] == "discard":
            break
        player.move(token, body)
    import psycopg

    commands = []
    original = psycopg.Connection._exec_command

    def exec_command(self, command, *args, **kwargs):
        commands.append(bytes(command) if isinstance(command, (bytes, bytearray)) else str(command))
        return original(self, command, *args, **kwargs)

    psycopg.Connection._exec_command = exec_command
    with CaptureQueriesContext(connection) as queries:
        player.move(token, body)
    psycopg.Connection._exec_command = original
    print(f"one discard: psycopg's own commands (round trips outside the queries below): {commands}")
    print(f"one discard: {len(queries.captured_queries)} queries")
    for query in queries.captured_queries:
        print(f"  {query['time']:>6}s  {query['sql'][:3000]}")


if __name__ == "__main__":
    main()
