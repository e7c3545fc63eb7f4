"""A move measured from outside: every move of two-player Scat games, as the client sees it, against
the floor of a separate minimal Django project, one sync gunicorn worker each.

Run from the project folder, with PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth):

    .venv/bin/python -m bench.move_outside [--pairs 400] [--runs 3] [--database slowhand_bench_outside]

It drops, recreates and migrates two databases, `<database>` for the site and `<database>_floor` for
the floor (no other), and starts two servers with one sync gunicorn worker each:

- the site, `gunicorn config.wsgi`, with the production settings, DJANGO_DEBUG=0 and no REDIS_URL
  (so no cache server: the rate limits count in the worker's memory, the follow-up tasks go to the
  SQLite broker of `make run`); every middleware, the rate limits (high enough never to bite);
- the floor, `gunicorn bench.floor_project.wsgi`: a project of its own (bench/floor_project/) with
  DRF's TokenAuthentication, only CommonMiddleware, and one view that in one transaction SELECTs a
  row FOR UPDATE, UPDATEs it, INSERTs one row and answers a small JSON body.

One client (nothing queues) plays two-player Scat games through the site's API, a random legal action
each time (draws, discards, knocks, whatever the rules offer), with a fresh connection per request
and the whole answer read; after every move it sends one request to the floor. The two alternate,
so whatever else the machine does weighs on both alike: on a busy machine read the ratio. The
player to act reads the game first when the last answer was not theirs (a GET, not measured); a
finished game is followed by a new one (not measured). After a warm-up it prints, for each run, the
medians over `--pairs` of each and their ratio (target: at most 2.0x). Writes
bench/results/move_outside.txt.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import tempfile
import time
from pathlib import Path

from bench.api_load import request
from bench.common import (
    POSTGRES,
    PYTHON,
    ROOT,
    VENV_BIN,
    Report,
    bench_env,
    children_of,
    free_port,
    median,
    percentile,
    process_ticks,
    stop_group,
    wait_for_port,
)

WARM_UP_PAIRS = 40
TARGET = 2.0


def reset(database: str, env: dict[str, str], settings: str) -> None:
    """Drop, recreate and migrate `database` (a benchmark's own: its name says so)."""
    import psycopg

    assert re.fullmatch(r"slowhand_[a-z_]+", database) and database not in ("slowhand", "slowhand_test"), database
    for attempt in range(30):  # a shared server may have all its connections taken for a moment
        try:
            conn = psycopg.connect(f"{POSTGRES}/postgres", autocommit=True)
            break
        except psycopg.OperationalError:
            if attempt == 29:
                raise
            time.sleep(2)
    with conn:
        conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [database])
        conn.execute(f"DROP DATABASE IF EXISTS {database}")
        conn.execute(f"CREATE DATABASE {database}")
    command = [PYTHON, "-m", "django", "migrate", "--noinput", "-v", "0", f"--settings={settings}"]
    subprocess.run(command, cwd=env["PYTHONPATH"], env=env, check=True, timeout=300)


def run_django(env: dict[str, str], code: str) -> str:
    """Run `code` in a Django process with `env`; what it prints."""
    script = "import django; django.setup()\n" + code
    result = subprocess.run(
        [PYTHON, "-c", script], cwd=env["PYTHONPATH"], env=env, check=True, capture_output=True, text=True
    )
    return result.stdout.strip()


# Self-contained: with --site-root the site's code is another checkout's, without this file.
SITE_PLAYERS = """
from accounts.models import ApiToken, User
for name in ("outside-alice", "outside-bob"):
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password=None)
    print(ApiToken.issue(user=user, name="bench")[1])
"""


def site_players() -> list[str]:
    """Two players of the site, and their API tokens' keys (in a Django process)."""
    from accounts.models import ApiToken, User

    keys = []
    for name in ("outside-alice", "outside-bob"):
        user = User.objects.create_user(username=name, email=f"{name}@example.com", password=None)
        keys.append(ApiToken.issue(user=user, name="bench")[1])
    return keys


FLOOR_PLAYER = """
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from bench.floor_project.models import Table
user = User.objects.create_user(username="floor")
print(Token.objects.create(user=user).key, Table.objects.create().pk)
"""


TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


class CpuMeter:
    """The CPU a server spends on the requests measured: its gunicorn worker's and that of the
    PostgreSQL backend serving the worker's connection, read from /proc before and after each
    request (in clock ticks, so only their sum over many requests means something). Unlike the
    client's time, it hardly grows when other work on the machine makes the requests wait."""

    def __init__(self, master: subprocess.Popen, database: str) -> None:
        self.worker = children_of(master.pid)[0]
        self.database = database
        self.backends: list[int] = []
        self.worker_ticks = 0
        self.backend_ticks = 0
        self.requests = 0

    def _backends(self) -> list[int]:
        import psycopg

        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
            rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database]).fetchall()
        return [row[0] for row in rows]

    def measure(self, send):
        """Call `send()` and count the CPU the server spent on it; what send() returns."""
        alive = [pid for pid in self.backends if Path(f"/proc/{pid}").exists()]
        before = {pid: process_ticks(pid) for pid in alive}
        worker = process_ticks(self.worker)
        result = send()
        self.worker_ticks += process_ticks(self.worker) - worker
        if len(alive) != len(self.backends) or not alive:
            # The worker's connection was new (CONN_MAX_AGE): the new backend's whole life is this request's.
            self.backends = self._backends()
        self.backend_ticks += sum(process_ticks(pid) - before.get(pid, 0) for pid in self.backends)
        self.requests += 1
        return result

    def per_request(self) -> tuple[float, float]:
        """(the worker's, the backend's) CPU per request, in milliseconds."""
        return self.worker_ticks * TICK_MS / self.requests, self.backend_ticks * TICK_MS / self.requests


def start(env: dict[str, str], app: str, port: int, log: Path) -> subprocess.Popen:
    command = [str(VENV_BIN / "gunicorn"), app, "--workers", "1", "--bind", f"127.0.0.1:{port}"]
    command += ["--log-level", "warning", "--timeout", "60"]
    process = subprocess.Popen(
        command, cwd=env["PYTHONPATH"], env=env, stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True
    )
    wait_for_port(port)
    return process


class Table:
    """One two-player Scat game on the site, played by both players through the API."""

    def __init__(self, port: int, tokens: list[str], rng: random.Random) -> None:
        self.port, self.tokens, self.rng = port, tokens, rng
        self.game: dict = {}
        self.games = 0
        self.new_game()

    def new_game(self) -> None:
        status, created, _ = request(self.port, "POST", "/api/v1/games/", self.tokens[0], {"kind": "scat", "seats": 2})
        assert status == 201, created
        status, self.game, _ = request(self.port, "POST", f"/api/v1/games/{created['id']}/join/", self.tokens[1], {})
        assert status == 200, self.game
        self.games += 1

    def move(self, meter: CpuMeter | None = None) -> float:
        """One move by the player to act: the client's time of its POST, in milliseconds."""
        if self.game["status"] != "active":
            self.new_game()
        seat = self.game["to_act"]
        if not self.game.get("is_your_turn"):
            status, self.game, _ = request(self.port, "GET", f"/api/v1/games/{self.game['id']}/", self.tokens[seat])
            assert status == 200 and self.game["is_your_turn"], self.game
        action = self.rng.choice(self.game["legal_actions"])
        body = {"action": action, "version": self.game["version"]}
        path = f"/api/v1/games/{self.game['id']}/moves/"

        def send():
            return request(self.port, "POST", path, self.tokens[seat], body)

        status, answer, elapsed = meter.measure(send) if meter is not None else send()
        assert status == 201, answer
        self.game = answer["game"]
        return elapsed * 1000


def run(database: str, pairs: int, seed: int, report: Report, site_root: Path = ROOT) -> tuple[float, float]:
    """One side-by-side run on fresh databases and fresh servers; the ratio of the medians."""
    floor_database = f"{database}_floor"
    # A var folder of its own: the SQLite broker the follow-up tasks go to starts empty each run.
    var = tempfile.mkdtemp(prefix="slowhand-bench-outside-var-")
    site_env = bench_env(DATABASE_URL=f"{POSTGRES}/{database}", SLOWHAND_VAR_DIR=var, PYTHONPATH=str(site_root))
    floor_env = bench_env(
        DJANGO_SETTINGS_MODULE="bench.floor_project.settings", FLOOR_DATABASE_URL=f"{POSTGRES}/{floor_database}"
    )
    reset(database, site_env, "config.settings")
    reset(floor_database, floor_env, "bench.floor_project.settings")
    tokens = run_django(site_env, SITE_PLAYERS).split()
    floor_token, table_id = run_django(floor_env, FLOOR_PLAYER).split()
    logs = Path(tempfile.mkdtemp(prefix="slowhand-bench-outside-"))
    site_port, floor_port = free_port(), free_port()
    site = start(site_env, "config.wsgi", site_port, logs / "site.log")
    floor = start(floor_env, "bench.floor_project.wsgi", floor_port, logs / "floor.log")
    moves: list[float] = []
    floors: list[float] = []
    site_cpu, floor_cpu = CpuMeter(site, database), CpuMeter(floor, floor_database)
    try:
        table = Table(site_port, tokens, random.Random(seed))
        for i in range(WARM_UP_PAIRS + pairs):
            measured = i >= WARM_UP_PAIRS
            took = table.move(site_cpu if measured else None)
            body = {"action": {"type": "floor", "n": i}}

            def send(body=body):
                return request(floor_port, "POST", f"/floor/{table_id}/", floor_token, body)

            status, answer, elapsed = floor_cpu.measure(send) if measured else send()
            assert status == 201, answer
            if measured:
                moves.append(took)
                floors.append(elapsed * 1000)
    finally:
        stop_group(site)
        stop_group(floor)
    ratio = median(moves) / median(floors)
    report.line(
        f"  run (seed {seed}): {len(moves)} moves in {table.games} games and {len(floors)} floor requests, "
        "alternating: "
        f"move p50 {median(moves):.2f} ms (p90 {percentile(moves, 0.9):.2f}), "
        f"floor p50 {median(floors):.2f} ms (p90 {percentile(floors, 0.9):.2f}): {ratio:.2f}x"
    )
    (move_app, move_db), (floor_app, floor_db) = site_cpu.per_request(), floor_cpu.per_request()
    report.line(
        "    CPU per request (mean; gunicorn worker + its PostgreSQL backend): "
        f"move {move_app:.2f} + {move_db:.2f} ms, "
        f"floor {floor_app:.2f} + {floor_db:.2f} ms: {(move_app + move_db) / (floor_app + floor_db):.2f}x "
        f"(the workers alone {move_app / floor_app:.2f}x)"
    )
    return ratio, (move_app + move_db) / (floor_app + floor_db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--database", default="slowhand_bench_outside")
    parser.add_argument(
        "--site-root",
        type=Path,
        default=ROOT,
        help="serve the site from another checkout (such as the commit before a change) with this one's floor",
    )
    args = parser.parse_args()

    title = "A move measured from outside, against a minimal Django floor (bench/move_outside.py)"
    report = Report("move_outside", title)
    report.line("one sync gunicorn worker each, DJANGO_DEBUG=0, no REDIS_URL; the client's time, fresh connection each")
    if args.site_root != ROOT:
        report.line(f"the site from {args.site_root}")
    results = [run(args.database, args.pairs, seed, report, args.site_root) for seed in range(1, args.runs + 1)]
    ratios, cpu_ratios = [r[0] for r in results], [r[1] for r in results]
    verdict = "met" if max(ratios) <= TARGET else "MISSED"
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}x"
    report.line(f"  a move against the floor: {spread} at p50 (target at most {TARGET:g}x: {verdict})")
    report.line(f"  CPU per request, a move against the floor: {min(cpu_ratios):.2f}-{max(cpu_ratios):.2f}x")
    report.save(collect=False)


if __name__ == "__main__":
    main()
