"""While PostgreSQL cannot be reached, every request is told to come back (503, Retry-After; the API's
error shape under /api/, a page elsewhere), never given a 500; other database errors stay bugs.

The database is made unreachable for real: the connection settings point at a port where nothing
listens, so every new connection is refused, as during a restart."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
from django.db import connection, connections
from django.test import Client

from config.outage import database_unavailable, gate
from tests.conftest import client_for, require_service

pytestmark = pytest.mark.services


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # free again once closed: nothing listens there


class HangingUp:
    """A server that takes each connection and closes it at once, as a database going down does;
    it counts them."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.taken = 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.taken += 1
            conn.close()


@contextmanager
def database_unreachable(port: int | None = None) -> Iterator[None]:
    """Every connection opened from here on is refused (the settings are shared by every thread's
    connection), or goes to `port`; the open ones are closed first. Restored after."""
    settings_dict = connections["default"].settings_dict
    host, port_before = settings_dict["HOST"], settings_dict["PORT"]
    connections.close_all()
    settings_dict["HOST"], settings_dict["PORT"] = "127.0.0.1", str(port or closed_port())
    try:
        yield
    finally:
        settings_dict["HOST"], settings_dict["PORT"] = host, port_before
        connections.close_all()
        deadline = time.monotonic() + 10
        while not gate.open and time.monotonic() < deadline:
            time.sleep(0.05)  # the site notices within a second that the database is back
        assert gate.open, "the gate stayed closed after the database came back"


@pytest.fixture
def on_postgres(transactional_db) -> None:
    # Transactional: the test's own connection goes away with the database, so it holds no transaction.
    require_service(
        connection.vendor == "postgresql", f"this test needs PostgreSQL, and the database is {connection.vendor}"
    )


def assert_come_back(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Cache-Control"] == "no-store"


def test_the_api_answers_503_in_its_error_shape(on_postgres, alice):
    players_client, anonymous = client_for(alice), Client(raise_request_exception=False)
    with database_unreachable():
        answers = [
            players_client.get("/api/v1/games/"),
            players_client.post("/api/v1/games/", {"kind": "scat", "seats": 2}, format="json"),
            anonymous.get("/api/v1/users/alice/"),
            anonymous.post(
                "/api/v1/auth/token/", {"username": "alice", "password": "x"}, content_type="application/json"
            ),
        ]
    for response in answers:
        assert_come_back(response)
        assert response.json() == {
            "code": "database_unavailable",
            "message": "The database cannot be reached for a moment; try again in 5 seconds.",
            "details": {},
        }
    assert players_client.get("/api/v1/games/").status_code == 200, "and all is well once it is back"


def test_pages_answer_503_with_a_page_that_needs_no_database(on_postgres, alice):
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(alice)
    anonymous = Client(raise_request_exception=False)
    with database_unreachable():
        # The signed-in player's session and user are read by the middleware, before any view.
        answers = [signed_in.get("/games/"), anonymous.get("/leaderboard/"), anonymous.get("/users/alice/")]
        login = anonymous.post("/accounts/login/", {"username": "alice", "password": "alice-pw-1234"})
    for response in [*answers, login]:
        assert_come_back(response)
        assert "Back in a moment" in response.content.decode()
    assert 'href="/games/"' in answers[0].content.decode(), "the page offers the same address again"
    assert signed_in.get("/games/").status_code == 200


def test_the_page_speaks_the_readers_language(on_postgres):
    with database_unreachable():
        response = Client(raise_request_exception=False).get("/leaderboard/", HTTP_ACCEPT_LANGUAGE="tr")
    assert_come_back(response)
    assert "Birazdan döneceğiz" in response.content.decode()


def test_a_503_does_not_send_the_reader_elsewhere(on_postgres):
    with database_unreachable():
        response = Client(raise_request_exception=False).get("//evil.example/")
    assert 'href="//evil.example/"' not in response.content.decode()


def test_only_an_unreachable_database_is_an_outage(on_postgres):
    from django.db import IntegrityError, OperationalError

    with database_unreachable(), pytest.raises(OperationalError) as refused:
        connection.ensure_connection()
    assert database_unavailable(refused.value)
    assert not database_unavailable(OperationalError("disk full"))
    assert not database_unavailable(IntegrityError("duplicate key"))
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 1")
        with pytest.raises(OperationalError) as cancelled:
            cursor.execute("SELECT pg_sleep(1)")
        cursor.execute("RESET statement_timeout")
    assert isinstance(cancelled.value.__cause__, psycopg.errors.QueryCanceled)
    assert not database_unavailable(cancelled.value), "a query too slow is not a database away"


def test_once_one_request_finds_the_database_away_the_others_are_answered_without_trying(on_postgres, alice):
    client, server = client_for(alice), HangingUp()
    with database_unreachable(server.port):
        assert_come_back(client.get("/api/v1/games/"))
        deadline = time.monotonic() + 5
        while gate.open and time.monotonic() < deadline:
            time.sleep(0.01)  # the gate's own connection fails too: it closes
        assert not gate.open
        tried = server.taken
        for _ in range(5):
            assert_come_back(client.get("/api/v1/games/"))
        # The gate's own probe may have tried once or twice meanwhile (every half second); the requests did not.
        assert server.taken - tried <= 2
    assert client.get("/api/v1/games/").status_code == 200


def test_a_pool_that_is_only_busy_leaves_the_gate_open(on_postgres):
    from tests.api.test_busy import pool_timeout

    gate.failed(pool_timeout())
    wait_for_the_gates_probe()
    assert gate.open


def test_one_connection_ended_while_the_database_is_there_leaves_the_gate_open(on_postgres):
    """An administrator's pg_terminate_backend ends one connection with the SQLSTATE of a shutdown:
    the gate's own connection works, so nothing else is refused."""
    from django.db import OperationalError

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    params = {k: v for k, v in connection.get_connection_params().items() if k != "cursor_factory"}
    with psycopg.connect(**params, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    with pytest.raises(OperationalError) as ended, connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    assert database_unavailable(ended.value)
    gate.failed(ended.value)
    wait_for_the_gates_probe()
    assert gate.open
    connection.close()


def wait_for_the_gates_probe() -> None:
    deadline = time.monotonic() + 5
    while gate.prober is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert gate.prober is None
