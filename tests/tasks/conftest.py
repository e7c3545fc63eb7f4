"""A real Celery worker on the real Redis broker, and a local webhook receiver."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from celery.contrib.testing.worker import start_worker

from config.celery import app


def reset_broker_connections() -> None:
    """Forget pooled broker connections, as Celery does after a fork, so a new broker URL is used."""
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None


@pytest.fixture
def celery_worker(redis_url, transactional_db) -> Iterator[None]:
    """A worker thread consuming from Redis, seeing the committed test database."""
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
        yield


class Receiver:
    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.fail_next = 0
        self.lock = threading.Lock()

    def bodies(self, event: str | None = None) -> list[dict]:
        with self.lock:
            return [c["body"] for c in self.calls if event is None or c["body"]["event"] == event]

    def wait_for(self, count: int, event: str | None = None, timeout: float = 20) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.bodies(event)) >= count:
                return self.bodies(event)
            time.sleep(0.1)
        return self.bodies(event)


@pytest.fixture
def webhook_receiver() -> Iterator[tuple[str, Receiver]]:
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            with receiver.lock:
                if receiver.fail_next:
                    receiver.fail_next -= 1
                    self.send_response(503)
                    self.end_headers()
                    return
                receiver.calls.append({"headers": dict(self.headers), "raw": raw, "body": json.loads(raw)})
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/hook", receiver
    server.shutdown()
