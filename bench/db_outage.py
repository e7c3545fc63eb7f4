"""Outage: PostgreSQL stopped under load, then started again; every answer counted by status.

Run from the project folder, with PostgreSQL's server programs (initdb, pg_ctl) and `redis-server`
installed:

    .venv/bin/python -m bench.db_outage [--players 6] [--streams 8] [--before 10] [--down 15] [--after 30]

It never touches the PostgreSQL of the machine (port 5432): it makes a cluster of its own with initdb
in a temporary folder (as the user `postgres` when run as root, since PostgreSQL refuses to run as
root), on a free port of 127.0.0.1, and a redis-server of its own; migrates a database there; and
starts the site as production runs it (gunicorn config.asgi with uvicorn workers, DJANGO_DEBUG=0)
on them, after collectstatic into staticfiles/ (the pages need its manifest). Client threads then
play two-seat Scat games through the API (GET the game, POST a random legal move), anonymous
readers load pages (the leaderboard, profiles), and stream readers follow the games (SSE; after a
cut they reconnect with Last-Event-ID, as a browser does). After --before seconds
the cluster is stopped (`pg_ctl stop -m fast`: every connection is cut, as by a restart or a
failover), after --down more it is started again, and the clients go on for --after seconds. A
client that gets a 503 waits half a second (not the Retry-After) so that the outage is sampled
often.

It prints, for before / during / after the outage (by the time each request was sent), the answers
by status, whether every 503 carried Retry-After (and under /api/ the error shape), latency, how long
after the restart the last 503 was sent, and for the streams: cuts, reconnections and whether each
received every move once and in order. Writes bench/results/db_outage.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import pwd
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import (
    PYTHON,
    ROOT,
    PrivateRedis,
    Report,
    bench_env,
    free_port,
    percentile,
    setup_django,
    start_asgi_server,
    stop_group,
    wait_for_port,
)

DATABASE = "slowhand_outage"
NO_ANSWER = 0  # the status recorded when the connection failed or timed out


class PrivatePostgres:
    """A PostgreSQL cluster of the benchmark's own, in a temporary folder, on a free port."""

    def __init__(self) -> None:
        self.initdb = shutil.which("initdb") or self._bin("initdb")
        self.pg_ctl = shutil.which("pg_ctl") or self._bin("pg_ctl")
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="slowhand-bench-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        # PostgreSQL will not run as root: then the cluster belongs to the user postgres.
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user:
            os.chown(self.dir, pwd.getpwnam(self.user).pw_uid, -1)

    @staticmethod
    def _bin(name: str) -> str:
        found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
        if not found:
            raise SystemExit(f"{name} is not installed (apt-get install postgresql)")
        return str(found[-1])

    def _run(self, *command: str, timeout: float = 120) -> None:
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        subprocess.run([*prefix, *command], check=True, timeout=timeout, stdout=subprocess.DEVNULL)

    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def create(self) -> PrivatePostgres:
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start()
        import psycopg

        with psycopg.connect(f"postgres://postgres@127.0.0.1:{self.port}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", str(self.log), "-w", "start")

    def stop(self) -> None:
        self._run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


# --- clients ----------------------------------------------------------------------------------


@dataclass
class Answer:
    sent_at: float
    kind: str  # "game" (GET), "move", "new game" (create and join), "page", "stream open"
    status: int
    seconds: float
    retry_after: bool = False
    shaped: bool = False  # the API's error shape, with the code database_unavailable or busy


def call(port: int, method: str, path: str, token: str | None = None, body: dict | None = None) -> tuple[Answer, dict]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Accept": "application/json" if path.startswith("/api/") else "text/html"}
    if token:
        headers["Authorization"] = f"Token {token}"
    if data is not None:
        headers["Content-Type"] = "application/json"
    sent_at = time.time()
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        status, retry_after = response.status, response.getheader("Retry-After") is not None
    except (OSError, http.client.HTTPException):
        return Answer(sent_at, "", NO_ANSWER, time.perf_counter() - start), {}
    finally:
        conn.close()
    payload: dict = {}
    if raw and path.startswith("/api/"):
        try:
            payload = json.loads(raw)
        except ValueError:
            payload = {}
    shaped = isinstance(payload, dict) and set(payload) == {"code", "message", "details"}
    shaped = shaped and payload["code"] in ("database_unavailable", "busy")
    return Answer(sent_at, "", status, time.perf_counter() - start, retry_after, shaped), payload


@dataclass
class Player:
    """Two accounts playing one game after another against each other."""

    port: int
    tokens: tuple[str, str]
    rng: random.Random
    answers: list[Answer] = field(default_factory=list)
    game: dict | None = None

    def record(self, kind: str, answer: Answer) -> Answer:
        answer.kind = kind
        self.answers.append(answer)
        return answer

    def new_game(self) -> dict:
        answer, created = call(self.port, "POST", "/api/v1/games/", self.tokens[0], {"kind": "scat", "seats": 2})
        self.record("new game", answer)
        if answer.status != 201:
            return {}
        answer, joined = call(self.port, "POST", f"/api/v1/games/{created['id']}/join/", self.tokens[1], {})
        self.record("new game", answer)
        return joined if answer.status == 200 else {}

    def step(self) -> bool:
        """One GET and, on the player's turn, one move; False when something was refused."""
        if not self.game or self.game.get("status") != "active":
            created = self.new_game()
            self.game = created or self.game
            return bool(created)
        seat = self.game.get("to_act") or 0
        answer, detail = call(self.port, "GET", f"/api/v1/games/{self.game['id']}/", self.tokens[seat])
        if self.record("game", answer).status != 200:
            return False
        self.game = detail
        if detail["status"] != "active" or not detail["is_your_turn"]:
            return True
        body = {"action": self.rng.choice(detail["legal_actions"]), "version": detail["version"]}
        answer, moved = call(self.port, "POST", f"/api/v1/games/{detail['id']}/moves/", self.tokens[seat], body)
        if self.record("move", answer).status == 201:
            self.game = moved["game"]
            return True
        return answer.status == 409  # the other seat's client may have moved first: not a failure


def play(player: Player, until: float) -> None:
    while time.time() < until:
        if not player.step():
            time.sleep(0.5)


def read_pages(port: int, names: list[str], answers: list[Answer], until: float) -> None:
    rng = random.Random(7)
    while time.time() < until:
        path = "/leaderboard/" if rng.random() < 0.5 else f"/users/{rng.choice(names)}/"
        answer, _ = call(port, "GET", path)
        answer.kind = "page"
        answers.append(answer)
        time.sleep(0.5 if answer.status != 200 else 0.05)


@dataclass
class StreamReader:
    """An SSE client of one game: reconnects with Last-Event-ID after a cut, as EventSource does."""

    port: int
    game_id: str
    token: str | None
    owner_token: str  # a player's, to read the game at the end
    answers: list[Answer] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)  # of the move events, as received
    first_version: int | None = None
    last_id: int | None = None
    cuts: list[float] = field(default_factory=list)
    events_after_restart: int = 0
    restarted_at: float = 0.0

    def run(self, until: float) -> None:
        while time.time() < until:
            self.follow(until)
            if time.time() < until:
                time.sleep(1.0)

    def follow(self, until: float) -> None:
        headers = {"Accept": "text/event-stream"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if self.last_id is not None:
            headers["Last-Event-ID"] = str(self.last_id)
        sent_at, start = time.time(), time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=45)
        try:
            conn.request("GET", f"/api/v1/games/{self.game_id}/stream/", headers=headers)
            response = conn.getresponse()
            retry_after = response.getheader("Retry-After") is not None
            self.answers.append(
                Answer(sent_at, "stream open", response.status, time.perf_counter() - start, retry_after, True)
            )
            if response.status != 200:
                response.read()
                return
            self.read(response, until)
        except (OSError, http.client.HTTPException):
            if time.time() < until:
                self.cuts.append(time.time())
        finally:
            conn.close()

    def read(self, response, until: float) -> None:
        fields: dict[str, str] = {}
        while time.time() < until:
            line = response.readline()
            if not line:
                self.cuts.append(time.time())  # the server ended the stream
                return
            line = line.decode().rstrip("\n")
            if line == "":
                if "data" in fields:
                    self.event(int(fields["id"]), fields.get("event", ""), json.loads(fields["data"]))
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")

    def event(self, event_id: int, name: str, data: dict) -> None:
        self.last_id = event_id
        if self.restarted_at and time.time() >= self.restarted_at:
            self.events_after_restart += 1
        if name == "move":
            self.versions.append(data["version"])
        elif name == "game" and self.first_version is None:
            self.first_version = data["version"]


# --- setup ------------------------------------------------------------------------------------


def make_players(count: int) -> list[tuple[str, str, str]]:
    """`count` pairs of accounts with an API token each: (username, token) ... and a spectator."""
    from accounts.models import ApiToken, User

    made = []
    for n in range(count * 2):
        user = User.objects.create_user(username=f"outage{n}", email=f"outage{n}@example.com", password="pw-outage-1")
        made.append((user.username, ApiToken.issue(user=user, name="bench")[1]))
    return made


def summarise(report: Report, title: str, answers: list[Answer]) -> None:
    statuses = Counter(a.status for a in answers)
    text = ", ".join(f"{'no answer' if s == NO_ANSWER else s}: {n}" for s, n in sorted(statuses.items()))
    report.line(f"  {title}: {len(answers)} answers ({text})")
    unavailable = [a for a in answers if a.status == 503]
    if unavailable:
        with_retry = sum(a.retry_after for a in unavailable)
        api = [a for a in unavailable if a.kind != "page"]
        shaped = sum(a.shaped for a in api)
        seconds = [a.seconds for a in unavailable]
        report.line(
            f"    503: {with_retry} of {len(unavailable)} with Retry-After; {shaped} of {len(api)} API answers in"
            f" the error shape; answered in p50 {percentile(seconds, 0.5) * 1000:.0f} ms,"
            f" p95 {percentile(seconds, 0.95) * 1000:.0f} ms, longest {max(seconds) * 1000:.0f} ms"
        )
    ok = [a.seconds for a in answers if 200 <= a.status < 300]
    if ok:
        report.line(
            f"    2xx answered in p50 {percentile(ok, 0.5) * 1000:.0f} ms, p95 {percentile(ok, 0.95) * 1000:.0f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6, help="client threads, each playing with two accounts")
    parser.add_argument("--readers", type=int, default=2, help="anonymous page readers")
    parser.add_argument("--streams", type=int, default=8, help="stream readers (half players, half spectators)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's uvicorn workers")
    parser.add_argument("--before", type=float, default=10)
    parser.add_argument("--down", type=float, default=15)
    parser.add_argument("--after", type=float, default=30)
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        raise SystemExit("redis-server is not installed (apt-get install redis-server)")

    report = Report("db_outage", "PostgreSQL stopped and started again under load (bench/db_outage.py)")
    postgres = PrivatePostgres()
    redis = PrivateRedis()
    server = None
    try:
        postgres.create()
        redis.start()
        env = bench_env(DATABASE_URL=postgres.url(), REDIS_URL=redis.url(), LIVE_KEEPALIVE_SECONDS="5")
        for command in (["migrate"], ["collectstatic"]):  # the pages need the static files' manifest
            subprocess.run(
                [PYTHON, "manage.py", *command, "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=600
            )
        setup_django(DATABASE_URL=postgres.url(), REDIS_URL=redis.url())
        accounts = make_players(args.players)
        port = free_port()
        log = Path(tempfile.gettempdir()) / "slowhand-bench-db-outage-server.log"
        server = start_asgi_server(env, port, args.workers, log)
        wait_for_port(port)
        report.line(
            f"site: gunicorn config.asgi, {args.workers} uvicorn workers (psycopg pool of 20 each), DJANGO_DEBUG=0;"
            f" PostgreSQL {postgres.port} (private cluster), Redis {redis.port} (private)"
        )
        report.line(
            f"load: {args.players} players' threads (two accounts each, GET the game then POST a move),"
            f" {args.readers} anonymous page readers, {args.streams} stream readers;"
            f" PostgreSQL stopped after {args.before:.0f} s, started {args.down:.0f} s later,"
            f" then {args.after:.0f} s more"
        )

        players = [
            Player(port, (accounts[2 * i][1], accounts[2 * i + 1][1]), random.Random(i)) for i in range(args.players)
        ]
        for player in players:
            player.game = player.new_game()
        readers = []
        for i in range(args.streams):
            owner = players[i % len(players)]
            readers.append(StreamReader(port, owner.game["id"], owner.tokens[0] if i % 2 else None, owner.tokens[0]))
        page_answers: list[list[Answer]] = [[] for _ in range(args.readers)]
        names = [name for name, _token in accounts]

        start = time.time()
        stop_at, until = start + args.before, start + args.before + args.down + args.after
        threads = [threading.Thread(target=play, args=(p, until), daemon=True) for p in players]
        # The readers go on a little longer, for the events of the last moves.
        threads += [threading.Thread(target=r.run, args=(until + 5,), daemon=True) for r in readers]
        threads += [
            threading.Thread(target=read_pages, args=(port, names, page_answers[i], until), daemon=True)
            for i in range(args.readers)
        ]
        for thread in threads:
            thread.start()
        time.sleep(max(0.0, stop_at - time.time()))
        stopped_at = time.time()
        postgres.stop()
        report.line(f"PostgreSQL stopped in {time.time() - stopped_at:.1f} s")
        time.sleep(max(0.0, stopped_at + args.down - time.time()))
        starting_at = time.time()
        postgres.start()
        started_at = time.time()
        report.line(f"PostgreSQL started again in {started_at - starting_at:.1f} s")
        for reader in readers:
            reader.restarted_at = started_at
        for thread in threads:
            thread.join(until - time.time() + 60)

        answers = [a for p in players for a in p.answers] + [a for r in readers for a in r.answers]
        answers += [a for part in page_answers for a in part]
        phases = {
            "before": [a for a in answers if a.sent_at < stopped_at],
            "during (stopped, starting)": [a for a in answers if stopped_at <= a.sent_at < started_at],
            "after": [a for a in answers if a.sent_at >= started_at],
        }
        for title, part in phases.items():
            report.line(f"{title}:")
            for kind in ("game", "move", "new game", "page", "stream open"):
                of_kind = [a for a in part if a.kind == kind]
                if of_kind:
                    summarise(report, kind, of_kind)
        every = Counter(a.status for a in answers)
        errors = sum(n for s, n in every.items() if s >= 500 and s != 503)
        report.line(f"in all: {len(answers)} answers; 5xx other than 503: {errors}; no answer: {every[NO_ANSWER]}")
        late = [a.sent_at - started_at for a in phases["after"] if a.status == 503]
        first_ok = min((a.sent_at - started_at for a in phases["after"] if 200 <= a.status < 300), default=None)
        report.line(
            "after the start: "
            + (f"first 2xx sent {first_ok:.1f} s after it; " if first_ok is not None else "no 2xx; ")
            + (f"the last 503 sent {max(late):.1f} s after it ({len(late)} in all)" if late else "no 503")
        )
        check_streams(report, readers)
        server_log = log.read_text(errors="replace")
        report.line(
            f"server log: {server_log.count('Traceback')} tracebacks,"
            f" {server_log.count('Internal Server Error')} 'Internal Server Error' lines,"
            f" {server_log.count('The database cannot be reached')} outage warnings"
        )
    finally:
        if server is not None:
            stop_group(server)
        redis.stop()
        shutil.rmtree(redis.dir, ignore_errors=True)
        postgres.remove()
    report.save()


def check_streams(report: Report, readers: list[StreamReader]) -> None:
    """Each stream's moves against the game's: every version after the first event's, once, in order."""
    whole = 0
    problems: defaultdict[str, int] = defaultdict(int)
    for reader in readers:
        if reader.first_version is None:
            problems["never opened"] += 1
            continue
        answer, detail = call(reader.port, "GET", f"/api/v1/games/{reader.game_id}/", reader.owner_token)
        last = detail.get("version", -1) if answer.status == 200 else -1
        expected = list(range(reader.first_version + 1, last + 1))
        if reader.versions == expected:
            whole += 1
        elif len(set(reader.versions)) != len(reader.versions):
            problems["a move twice"] += 1
        elif sorted(reader.versions) != reader.versions:
            problems["out of order"] += 1
        else:
            problems["a move missing"] += 1
    cut = sum(1 for r in readers if r.cuts)
    reopened = Counter(a.status for r in readers for a in r.answers[1:])
    report.line(
        f"streams: {len(readers)} opened; {len(readers) - cut} stayed open throughout, {cut} cut"
        f" (reconnections by status: {dict(reopened) or 'none'}); {whole} received every move once and in order"
        + (f"; {dict(problems)}" if problems else "")
        + f"; events after the restart: {sum(r.events_after_restart for r in readers)}"
    )


if __name__ == "__main__":
    main()
