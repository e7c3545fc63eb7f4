"""The ASGI application under a real uvicorn server in a thread of the test process (so on the test
database), for the tests that read event streams: Django's WSGI live server would buffer them."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from django.db import connection


class RequestsInFlight:
    """The HTTP requests the tests' servers are answering, streams apart: a test waits for the last
    request to end before its database is flushed (one still running would hold locks the flush
    needs, or find the database gone). A stream whose reader went away ends when it next writes."""

    def __init__(self) -> None:
        self._counts = {"requests": 0, "streams": 0}
        self._lock = threading.Lock()

    def wrap(self, app):
        async def counted(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            counter = "streams" if scope["path"].endswith("/stream/") else "requests"
            with self._lock:
                self._counts[counter] += 1
            try:
                return await app(scope, receive, send)
            finally:
                with self._lock:
                    self._counts[counter] -= 1

        return counted

    def wait_until_none(self, counter: str = "requests", timeout: float = 10) -> bool:
        deadline = time.monotonic() + timeout
        while self._counts[counter] and time.monotonic() < deadline:
            time.sleep(0.02)
        return not self._counts[counter]


requests_in_flight = RequestsInFlight()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve_asgi() -> Iterator[str]:
    """config.asgi on a free port; yields its address and stops it (streams are cut after 2 s)."""
    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        requests_in_flight.wrap(application),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=2,
        # As `make run` and production serve it: the client is the socket's peer, whatever
        # X-Forwarded-For says (Django reads that header itself, per TRUSTED_PROXY_COUNT).
        proxy_headers=False,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def close_server_connections() -> None:
    """The server's threads keep database connections of their own: end them, or the test database
    could not be flushed or dropped."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
