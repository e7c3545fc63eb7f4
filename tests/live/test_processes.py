"""Streams across processes, as production runs them: two uvicorn processes on the test database and a
Redis server of the test's own. A move posted to one process reaches a stream held by the other, and a
stream lives through a Redis restart without losing an event."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connection

from games import services
from tests.asgi import close_server_connections, free_port
from tests.conftest import redis_reachable, require_service
from tests.live.helpers import token_of

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# Long enough that only a Redis message can bring an event sooner: the database check is the
# fallback, and these tests are about the messages.
DATABASE_CHECK_SECONDS = "30"


class RedisServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: redis_reachable(self.url), "redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def wait_until(condition, message: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, message
        time.sleep(0.1)


@pytest.fixture
def redis_server() -> Iterator[RedisServer]:
    require_service(shutil.which("redis-server") is not None, "redis-server is not installed")
    server = RedisServer()
    server.start()
    yield server
    server.stop()


def serve_in_a_process(redis_url: str, log: Path) -> tuple[subprocess.Popen, str]:
    database = connection.settings_dict
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "REDIS_URL": redis_url,
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "API_THROTTLE_USER": "100000/minute",
        "API_THROTTLE_TOKEN": "100000/minute",
        "LIVE_DATABASE_CHECK_SECONDS": DATABASE_CHECK_SECONDS,
        "LIVE_KEEPALIVE_SECONDS": "1",
        "PYTHONPATH": str(ROOT),
    }
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return httpx.get(f"{url}/api/v1/rules/scat/", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    wait_until(answers, "uvicorn did not start")
    return process, url


@pytest.fixture
def two_processes(redis_server, tmp_path, postgres) -> Iterator[tuple[str, str]]:
    started = [serve_in_a_process(redis_server.url, tmp_path / f"server-{n}.log") for n in range(2)]
    yield started[0][1], started[1][1]
    for process, _ in started:
        process.terminate()
        process.wait(10)
    close_server_connections()


@pytest.fixture
def game_of_two(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"initial_tokens": 3})
    services.join_game(game_id=game.public_id, user=bob)
    return game.public_id, {alice.username: token_of(alice), bob.username: token_of(bob)}


def play_a_move(base: str, game_id: str, tokens: dict[str, str]) -> dict:
    """The move of whoever is to act, posted to the server at `base`."""
    for token in tokens.values():
        with httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=20) as client:
            detail = client.get(f"/api/v1/games/{game_id}/").json()
            if detail["legal_actions"]:
                answer = client.post(
                    f"/api/v1/games/{game_id}/moves/",
                    json={"action": detail["legal_actions"][0], "version": detail["version"]},
                )
                assert answer.status_code == 201, answer.text
                return answer.json()
    raise AssertionError("nobody may move")


def test_a_move_posted_to_one_process_reaches_a_stream_held_by_the_other(two_processes, game_of_two, open_stream):
    first, second = two_processes
    game_id, tokens = game_of_two
    stream = open_stream(f"{second}/api/v1/games/{game_id}/stream/", token=tokens["alice"])
    assert stream.next().event == "game"
    for _ in range(3):
        played = play_a_move(first, game_id, tokens)
        # Sooner than the database check: the event came by Redis, from the other process.
        event = stream.next(timeout=10)
        assert (event.event, event.data["version"]) == ("move", played["game"]["version"])


def test_a_stream_lives_through_a_redis_restart_and_misses_nothing(
    two_processes, game_of_two, open_stream, redis_server
):
    first, second = two_processes
    game_id, tokens = game_of_two
    stream = open_stream(f"{second}/api/v1/games/{game_id}/stream/", token=tokens["bob"])
    assert stream.next().event == "game"
    versions = [play_a_move(first, game_id, tokens)["game"]["version"]]

    redis_server.stop()
    # Moves go on while Redis is away: their messages are lost, the moves are not.
    versions += [play_a_move(first, game_id, tokens)["game"]["version"] for _ in range(2)]
    redis_server.start()
    versions += [play_a_move(first, game_id, tokens)["game"]["version"]]

    received = [stream.next(timeout=20) for _ in versions]
    assert [(e.event, e.data["version"]) for e in received] == [("move", v) for v in versions]
    assert not stream.ended.is_set()
    ids = [e.id for e in received]
    assert ids == sorted(set(ids)), "an event came twice or out of order"
