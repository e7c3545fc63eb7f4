"""`make run` itself, as a newcomer starts it (SQLite, no Redis), on a folder and a port of the test's
own: its links follow HOST and PORT, a forged X-Forwarded-For changes nothing, and a worker that dies
is started again, which the log says, and goes on with the work."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.asgi import free_port

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)


def wait_until(condition, message: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.2)


def healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def worker_pids(log: Path) -> list[int]:
    return [int(pid) for pid in re.findall(r"spawned: 'worker' with pid (\d+)", log.read_text())]


def test_make_run_serves_on_its_port_and_starts_a_dead_worker_again(tmp_path):
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "SITE_URL")}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", SLOWHAND_VAR_DIR=str(tmp_path / "var"))
    log = tmp_path / "make-run.log"
    with log.open("w") as output:
        make = subprocess.Popen(
            ["make", "-o", f"{VENV}/.installed", "run", f"VENV={VENV}", f"PORT={port}"],
            cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: make.poll() is None and healthy(url), f"make run did not come up:\n{log.read_text()}", 240)
        api = httpx.Client(base_url=url, timeout=20)

        # Links in emails and calendars name the address the site was started on.
        token = api.post("/api/v1/auth/token/", json={"username": "demo", "password": "demo"}).json()["token"]
        api.headers["Authorization"] = f"Token {token}"
        assert api.get("/api/v1/me/calendar/").json()["url"].startswith(f"{url}/")

        # The worker dies; supervisord says so and starts another, which plays the bot's moves.
        first = worker_pids(log)[-1]
        os.kill(first, signal.SIGKILL)
        wait_until(lambda: "exited: worker (terminated by SIGKILL; not expected)" in log.read_text(), "no word of it")
        wait_until(lambda: worker_pids(log)[-1] != first, "the worker was not started again")
        game_id = api.post("/api/v1/games/", json={"kind": "scat", "seats": 2, "bots": ["good"]}).json()["id"]

        def the_bot_moved() -> bool:
            detail = api.get(f"/api/v1/games/{game_id}/").json()
            moves = api.get(f"/api/v1/games/{game_id}/moves/").json()["results"]
            if any(move["seat"] != detail["your_seat"] for move in moves):
                return True
            if detail["legal_actions"]:  # our turn first: play it, then the bot's comes
                action = next((a for a in detail["legal_actions"] if a["type"] != "knock"), detail["legal_actions"][0])
                api.post(f"/api/v1/games/{game_id}/moves/", json={"action": action, "version": detail["version"]})
            return False

        wait_until(the_bot_moved, "the new worker did not play the bot's move")
        assert healthy(url)

        # Five wrong passwords from "different" addresses lock the pair all the same.
        for n in range(5):
            wrong = {"username": "demo", "password": f"guess-{n}"}
            api.post("/api/v1/auth/token/", json=wrong, headers={"X-Forwarded-For": f"10.0.0.{n}"})
        right = {"username": "demo", "password": "demo"}
        let_in = api.post("/api/v1/auth/token/", json=right, headers={"X-Forwarded-For": "203.0.113.77"})
        assert let_in.status_code == 429
    finally:
        os.killpg(make.pid, signal.SIGTERM)
        try:
            make.wait(90)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            raise
