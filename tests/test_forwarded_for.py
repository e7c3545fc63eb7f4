"""The servers in front of Django leave the client's address alone: a forged X-Forwarded-For changes
nothing unless TRUSTED_PROXY_COUNT says our own proxies wrote it. Through real servers: the tests'
uvicorn (as `make run` serves the site) and gunicorn with the README's production command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken
from tests.asgi import close_server_connections, free_port, serve_asgi

ROOT = Path(__file__).resolve().parents[1]
RULES = "/api/v1/rules/scat/"
TOKEN = "/api/v1/auth/token/"


@pytest.fixture
def server(transactional_db):
    with serve_asgi() as url:
        yield url
    close_server_connections()


def test_a_forged_forwarded_for_does_not_escape_the_anonymous_rate_limit(server, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "3/minute")
    answers = [
        httpx.get(f"{server}{RULES}", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(4)
    ]
    assert answers == [200, 200, 200, 429]


def test_a_forged_forwarded_for_does_not_escape_the_login_lock(server, alice):
    for n in range(5):
        wrong = {"username": "alice", "password": f"guess-{n}"}
        assert httpx.post(f"{server}{TOKEN}", json=wrong, headers={"X-Forwarded-For": f"10.0.0.{n}"}).status_code == 400

    right = {"username": "alice", "password": "alice-pw-1234"}
    response = httpx.post(f"{server}{TOKEN}", json=right, headers={"X-Forwarded-For": "203.0.113.77"})

    assert response.status_code == 429
    assert not ApiToken.objects.filter(user=alice).exists()


def test_behind_one_trusted_proxy_the_forwarded_clients_count_apart(server, alice, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(5):
        wrong = {"username": "alice", "password": f"guess-{n}"}
        httpx.post(f"{server}{TOKEN}", json=wrong, headers={"X-Forwarded-For": "198.51.100.20"})
    right = {"username": "alice", "password": "alice-pw-1234"}

    assert httpx.post(f"{server}{TOKEN}", json=right, headers={"X-Forwarded-For": "198.51.100.20"}).status_code == 429
    assert httpx.post(f"{server}{TOKEN}", json=right, headers={"X-Forwarded-For": "203.0.113.77"}).status_code == 201


def readme_production_command(port: int) -> list[str]:
    """The README's gunicorn command for the web tier, on one worker and a local port."""
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"^\s*(gunicorn config\.asgi:application .*?)\n\s*```", readme, re.MULTILINE | re.DOTALL)
    assert block, "the README has no gunicorn command for config.asgi"
    command = block.group(1).replace("\\\n", " ").replace("$((2 * $(nproc)))", "1")
    words = shlex.split(command)
    for flag, value in (("--workers", "1"), ("--bind", f"127.0.0.1:{port}")):
        words[words.index(flag) + 1] = value
    return [str(Path(sys.executable).parent / "gunicorn"), *words[1:]]


def test_the_readme_production_command_ignores_a_forged_forwarded_for(tmp_path):
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",  # the rules need no database
        "API_THROTTLE_ANON": "3/minute",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("REDIS_URL", None)  # the limit counts in the worker's own memory
    log = (tmp_path / "gunicorn.log").open("w")
    server = subprocess.Popen(readme_production_command(port), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (tmp_path / "gunicorn.log").read_text()
            try:
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.2)
        # /healthz is no API request: the rules are the first of the three this address may send.
        answers = [
            httpx.get(f"http://127.0.0.1:{port}{RULES}", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
            for n in range(4)
        ]
    finally:
        server.terminate()
        server.wait(20)
        log.close()
    assert answers == [200, 200, 200, 429]
