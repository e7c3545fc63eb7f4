"""Soak: the `make run` stack (uvicorn, the Celery worker and beat under supervisord, SQLite, the
embedded broker) under ordinary play for a long while.

    .venv/bin/python -m bench.soak [--minutes 30] [--tables 20]

It starts `make run` itself, on a port, a database and a var folder of its own (under a temporary
folder), with mail going to a local SMTP sink and every player's notifications also to a local
webhook receiver. Then, for `--minutes`:

- `--tables` games are under way at once, each made by an account of its own with two computer
  players (Scat and Scattle in turn, 60 s a move). The account never moves: the timeout sweep plays
  its turns, three times, then takes it off the table, and the bots play the game out; a finished
  table is replaced at once. So the worker plays bot moves, applies timeouts and sends "your turn"
  and "time running out" by email and webhook all along.
- one player plays Scat against the good bot through the API, a move a second, and asks for the
  review of each finished game (computed on the `reviews` queue).

Every 5 s it asks /healthz and reads each table. Then it stops making games, waits 30 s for the
work in flight, and prints: the worker's restarts (supervisord's log), tasks lost (messages written
to the broker that no worker took, or taken and never finished), the longest gap between timeout
sweeps that ran, games left stuck (a bot to move, or a deadline passed more than 15 s, and nothing
moved for 30 s), emails and webhooks sent and received, reviews, /healthz answers other than 200,
and `verify_games`. The figures go to bench/results/soak.txt.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socketserver
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import datetime
from itertools import pairwise
from pathlib import Path

import httpx

from bench.common import ROOT, Report, WebhookReceiver, free_port, verify_games

VENV = Path(sys.prefix)
STUCK_AFTER = 30.0  # seconds without a move while a bot is to act, or past the deadline
DEADLINE_GRACE = 15.0
DRAIN = 30.0
LOG_TIME = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): ")


class SmtpSink:
    """A local SMTP server that takes every message and counts its Message-ID (one per delivery)."""

    def __init__(self) -> None:
        self.received: Counter[str] = Counter()
        self.lock = threading.Lock()
        sink = self

        class Session(socketserver.StreamRequestHandler):
            def reply(self, line: str) -> None:
                self.wfile.write(f"{line}\r\n".encode())

            def handle(self) -> None:
                self.reply("220 soak ESMTP")
                while line := self.rfile.readline():
                    command = line.decode("latin-1").strip().upper()
                    if command.startswith("EHLO"):
                        self.reply("250-soak")
                        self.reply("250 8BITMIME")
                    elif command == "DATA":
                        self.reply("354 go on")
                        message = []
                        while (data := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                            message.append(data.decode("latin-1"))
                        found = re.search(r"^Message-ID: (\S+)", "".join(message), re.MULTILINE | re.IGNORECASE)
                        with sink.lock:
                            sink.received[found.group(1) if found else "?"] += 1
                        self.reply("250 taken")
                    elif command == "QUIT":
                        self.reply("221 bye")
                        return
                    else:
                        self.reply("250 ok")

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Session)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Stack:
    """`make run` in a process group of its own, its output (supervisord, web, worker, beat) in one log."""

    def __init__(self, folder: Path, env: dict[str, str], port: int) -> None:
        self.log = folder / "make-run.log"
        self.url = f"http://127.0.0.1:{port}"
        with self.log.open("w") as output:
            self.process = subprocess.Popen(
                ["make", "-o", f"{VENV}/.installed", "run", f"VENV={VENV}", f"PORT={port}"],
                cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip

    def health(self) -> int | None:
        try:
            return httpx.get(f"{self.url}/healthz", timeout=10).status_code
        except httpx.HTTPError:
            return None

    def wait_healthy(self, limit: float = 300) -> None:
        deadline = time.monotonic() + limit
        while self.health() != 200:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"make run did not come up; see {self.log}")
            time.sleep(1)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)


def manage(env: dict[str, str], code: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise SystemExit(result.stderr)
    return result.stdout


ACCOUNTS = """
import json
from accounts.models import ApiToken, User
tokens = {}
for name in NAMES:
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password="soak-pw-1234")
    tokens[name] = ApiToken.issue(user=user, name="soak")[1]
print(json.dumps(tokens))
"""

FINAL_COUNTS = """
import json
from collections import Counter
from notifications.models import Delivery
print(json.dumps({f"{c} {s}": n for (c, s), n in Counter(Delivery.objects.values_list("channel", "status")).items()}))
"""


class Table:
    """One account's game with two bots; it is replaced when it ends."""

    def __init__(self, api: httpx.Client, number: int) -> None:
        self.api = api
        self.number = number
        self.game_id = ""
        self.games = 0
        self.changed_at = time.monotonic()
        self.version = -1
        self.longest_stall = 0.0
        self.stuck = False

    def start(self) -> None:
        kind = ("scat", "scattle")[(self.number + self.games) % 2]
        body = {"kind": kind, "seats": 3, "bots": ["good", "random"], "move_time_limit": 60, "rated": False}
        response = self.api.post("/api/v1/games/", json=body)
        response.raise_for_status()
        self.game_id = response.json()["id"]
        self.games += 1
        self.version, self.changed_at, self.stuck = -1, time.monotonic(), False

    def look(self, replace: bool) -> None:
        detail = self.api.get(f"/api/v1/games/{self.game_id}/").json()
        now = time.monotonic()
        if detail["version"] != self.version:
            self.version, self.changed_at = detail["version"], now
        if detail["status"] != "active":
            if detail["status"] == "finished" and replace:
                self.start()
            return
        idle = now - self.changed_at
        self.longest_stall = max(self.longest_stall, idle)
        to_act = next((seat for seat in detail["seats"] if seat["index"] == detail["to_act"]), None)
        overdue = detail["deadline"] and (
            datetime.fromisoformat(detail["deadline"]).timestamp() < time.time() - DEADLINE_GRACE
        )
        self.stuck = idle > STUCK_AFTER and bool((to_act and to_act["is_bot"]) or overdue)


class Player(threading.Thread):
    """A person playing Scat against the good bot through the API, a move a second."""

    def __init__(self, api: httpx.Client, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.api, self.stop = api, stop
        self.moves = self.games = self.reviews_asked = self.reviews_ready = 0
        self.refused: Counter[str] = Counter()
        self.rng = random.Random(7)

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.play_a_game()
            except httpx.HTTPError as exc:
                self.refused[type(exc).__name__] += 1
                time.sleep(1)

    def play_a_game(self) -> None:
        body = {"kind": "scat", "seats": 2, "bots": ["good"], "move_time_limit": 3600, "rated": False}
        game_id = self.api.post("/api/v1/games/", json=body).json()["id"]
        while not self.stop.is_set():
            detail = self.api.get(f"/api/v1/games/{game_id}/").json()
            if detail["status"] != "active":
                self.games += 1
                self.ask_for_review(game_id)
                return
            if detail["legal_actions"]:
                actions = [a for a in detail["legal_actions"] if a["type"] != "knock"] or detail["legal_actions"]
                move = {"action": self.rng.choice(actions), "version": detail["version"]}
                answer = self.api.post(f"/api/v1/games/{game_id}/moves/", json=move)
                if answer.status_code == 201:
                    self.moves += 1
                elif answer.status_code != 409:  # 409: the bot moved meanwhile
                    self.refused[str(answer.status_code)] += 1
            time.sleep(1)

    def ask_for_review(self, game_id: str) -> None:
        self.reviews_asked += 1
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not self.stop.is_set():
            if self.api.get(f"/api/v1/games/{game_id}/review/").status_code == 200:
                self.reviews_ready += 1
                return
            time.sleep(2)


def worker_figures(log: str) -> dict:
    """From the worker's INFO log: tasks received and finished, and the timeout sweeps' times."""
    received, finished, sweeps = set(), set(), []
    for line in log.splitlines():
        task = re.search(r"Task ([\w.]+)\[([0-9a-f-]+)\] (\w+)", line)
        if not task:
            continue
        name, task_id, what = task.groups()
        if what == "received":
            received.add(task_id)
        else:
            finished.add(task_id)
            stamp = LOG_TIME.match(line)
            if name == "games.tasks.sweep_timeouts" and what == "succeeded" and stamp:
                sweeps.append(datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S,%f").timestamp())
    gaps = [later - earlier for earlier, later in pairwise(sweeps)]
    return {
        "received": len(received),
        "unfinished": len(received - finished),
        "sweeps": len(sweeps),
        "longest_gap": max(gaps, default=float("nan")),
    }


def broker_figures(path: Path) -> tuple[int, int]:
    """Messages ever written to the embedded broker, and those still in it."""
    with sqlite3.connect(path) as broker:
        written = broker.execute("SELECT seq FROM sqlite_sequence WHERE name = 'kombu_message'").fetchone()
        left = broker.execute("SELECT count(*) FROM kombu_message").fetchone()[0]
    return (written[0] if written else 0), left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()

    report = Report("soak", f"soak: make run for {args.minutes:g} minutes, {args.tables} bot tables and a player")
    folder = Path(tempfile.mkdtemp(prefix="slowhand-soak-"))
    report.line(f"folder: {folder}")
    smtp, port = SmtpSink(), free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "SITE_URL", "REQUIRE_SERVICES")}
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}",
        SLOWHAND_VAR_DIR=str(folder / "var"),
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(smtp.port),
        PYTHONPATH=str(ROOT),
    )
    stack = Stack(folder, env, port)
    with WebhookReceiver() as webhooks:
        try:
            stack.wait_healthy()
            names = [f"soak-table-{n:02d}" for n in range(args.tables)] + ["soak-player"]
            tokens = json.loads(manage(env, f"NAMES = {names!r}\n{ACCOUNTS}").strip().splitlines()[-1])
            clients = {
                name: httpx.Client(base_url=stack.url, headers={"Authorization": f"Token {key}"}, timeout=30)
                for name, key in tokens.items()
            }
            for client in clients.values():
                client.patch("/api/v1/me/notification-settings/", json={"webhook_url": webhooks.url}).raise_for_status()
            tables = [Table(clients[f"soak-table-{n:02d}"], n) for n in range(args.tables)]
            for table in tables:
                table.start()
            stop = threading.Event()
            player = Player(clients["soak-player"], stop)
            player.start()

            started, unhealthy = time.monotonic(), Counter()
            end = started + args.minutes * 60
            while time.monotonic() < end + DRAIN:
                making = time.monotonic() < end
                if not making:
                    stop.set()
                status = stack.health()
                if status != 200:
                    unhealthy[status] += 1
                for table in tables:
                    try:
                        table.look(replace=making)
                    except (httpx.HTTPError, KeyError, ValueError) as exc:
                        unhealthy[f"table read: {type(exc).__name__}"] += 1
                time.sleep(5)
            player.join(30)
            elapsed = time.monotonic() - started
        finally:
            stack.stop()

        log = stack.log.read_text()
        worker = worker_figures(log)
        written, left = broker_figures(folder / "var" / "celery-broker.sqlite3")
        deliveries = json.loads(manage(env, FINAL_COUNTS).strip().splitlines()[-1])
        restarts = log.count("exited: worker")
        report.line(f"ran {elapsed / 60:.1f} minutes (the last {DRAIN:.0f} s without new games)")
        report.line(f"worker restarts: {restarts} (beat: {log.count('exited: beat')}, web: {log.count('exited: web')})")
        lost = (written - worker["received"] - left) + worker["unfinished"]
        report.line(
            f"tasks lost: {lost} ({written} messages written to the broker, {worker['received']} taken by the "
            f"worker, {left} left in it, {worker['unfinished']} taken and never finished)"
        )
        report.line(
            f"longest gap between timeout sweeps: {worker['longest_gap']:.1f} s ({worker['sweeps']} sweeps ran)"
        )
        stuck = [table for table in tables if table.stuck]
        report.line(
            f"games left stuck: {len(stuck)} of {args.tables} tables at the end; {sum(t.games for t in tables)} table "
            f"games started; the longest a table went without a move: {max(t.longest_stall for t in tables):.0f} s"
        )
        report.line(
            f"webhooks: {sum(webhooks.received.values())} received, {len(webhooks.received)} distinct deliveries; "
            f"emails: {sum(smtp.received.values())} received, {len(smtp.received)} distinct; deliveries by "
            f"channel and status: {dict(sorted(deliveries.items()))}"
        )
        report.line(
            f"the player: {player.games} games, {player.moves} moves, refused {dict(player.refused) or 'none'}; "
            f"reviews ready {player.reviews_ready} of {player.reviews_asked} asked"
        )
        report.line(f"/healthz or table reads other than 200: {dict(unhealthy) or 'none'}")
        report.line(f"verify_games: {verify_games(env)}")
    report.save()


if __name__ == "__main__":
    main()
