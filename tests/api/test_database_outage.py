"""While PostgreSQL cannot be reached, every request is told to come back (503, Retry-After; the API's
error shape under /api/, a page elsewhere), never given a 500; other database errors stay bugs.

The database is made unreachable for real: the connection settings point at a port where nothing
listens, so every new connection is refused, as during a restart."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection, connections
from django.test import Client

from config.outage import database_unavailable
from tests.conftest import client_for, require_service

pytestmark = pytest.mark.services


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # free again once closed: nothing listens there


@contextmanager
def database_unreachable() -> Iterator[None]:
    """Every connection opened from here on is refused (the settings are shared by every thread's
    connection); the open ones are closed first. Restored after."""
    settings_dict = connections["default"].settings_dict
    host, port = settings_dict["HOST"], settings_dict["PORT"]
    connections.close_all()
    settings_dict["HOST"], settings_dict["PORT"] = "127.0.0.1", str(closed_port())
    try:
        yield
    finally:
        settings_dict["HOST"], settings_dict["PORT"] = host, port
        connections.close_all()


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
    import psycopg
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
