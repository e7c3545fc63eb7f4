"""The streams of `make run`: SQLite, no Redis, and the Celery worker it starts on the embedded broker
(config/broker.py). Its processes, on a database and a var folder of the test's own:
a bot's move, played by that worker, reaches an open stream within 2 seconds of its commit (the
streams then read the database twice a second)."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.asgi import free_port
from tests.live.conftest import Stream
from tests.live.test_processes import wait_until

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.fixture
def make_run_site(tmp_path) -> Iterator[str]:
    env = {key: value for key, value in os.environ.items() if key not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        SLOWHAND_VAR_DIR=str(tmp_path / "var"),
        PYTHONPATH=str(ROOT),
    )
    manage = [sys.executable, "manage.py"]
    for command in (["migrate", "--noinput"], ["ensure_demo_user"]):
        subprocess.run([*manage, *command], cwd=ROOT, env=env, check=True, capture_output=True, timeout=300)
    port = free_port()
    logs = {name: (tmp_path / f"{name}.log").open("w") for name in ("web", "worker")}
    web = subprocess.Popen(
        [BIN / "uvicorn", "config.asgi:application", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=logs["web"], stderr=subprocess.STDOUT,
    )  # fmt: skip
    worker = subprocess.Popen(
        [BIN / "celery", "-A", "config", "worker", "--beat", "--pool=solo",
         "--loglevel=WARNING", f"--schedule={tmp_path / 'beat-schedule'}"],
        cwd=ROOT, env=env, stdout=logs["worker"], stderr=subprocess.STDOUT,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert web.poll() is None, (tmp_path / "web.log").read_text()
        try:
            return httpx.get(f"{url}/api/v1/rules/scat/", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        wait_until(answers, "the site did not start", timeout=60)
        yield url
    finally:
        for process in (web, worker):
            process.terminate()
            process.wait(20)
        for log in logs.values():
            log.close()


def test_a_bots_move_played_by_the_worker_reaches_the_stream_within_two_seconds(make_run_site):
    login = httpx.post(f"{make_run_site}/api/v1/auth/token/", json={"username": "demo", "password": "demo"})
    assert login.status_code in (200, 201), login.text
    api = httpx.Client(base_url=make_run_site, headers={"Authorization": f"Token {login.json()['token']}"}, timeout=20)
    created = api.post("/api/v1/games/", json={"kind": "scat", "seats": 2, "bots": ["good"]})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    stream = Stream(f"{make_run_site}/api/v1/games/{game_id}/stream/", api.headers).start()
    try:
        first = stream.next(timeout=20)
        assert first.event == "game", first
        detail = first.data
        bot_moves, acted_at = [], -1
        while len(bot_moves) < 3 and detail["status"] == "active":
            if detail["legal_actions"] and detail["version"] > acted_at:
                acted_at = detail["version"]
                action = next((a for a in detail["legal_actions"] if a["type"] != "knock"), detail["legal_actions"][0])
                posted = api.post(
                    f"/api/v1/games/{game_id}/moves/", json={"action": action, "version": detail["version"]}
                )
                assert posted.status_code == 201, posted.text
            event = stream.next(timeout=30)
            arrived = datetime.datetime.now(datetime.UTC)
            if event.event == "move" and event.data["move"]["seat"] != detail["your_seat"]:
                committed = datetime.datetime.fromisoformat(event.data["move"]["created_at"])
                bot_moves.append((arrived - committed).total_seconds())
            # Moves that land together (the bot's draw and discard) arrive together, the detail with the last.
            detail = event.data if event.event == "game" else event.data.get("detail", detail)
    finally:
        stream.close()
    assert bot_moves, "the bot never moved"
    assert max(bot_moves) < 2.0, bot_moves
