"""A request that waits for a database connection longer than the pool allows is told to come back
(503, Retry-After, the error shape), not given a 500."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from psycopg_pool import ConnectionPool

from config.api_errors import api_exception_handler

pytestmark = pytest.mark.services


def pool_timeout() -> Exception:
    """The exception Django raises when psycopg's pool gives up: a real PoolTimeout, wrapped as
    Django's database layer wraps it."""
    params = connection.get_connection_params()
    conninfo = f"host={params['host']} port={params['port']} user={params['user']} dbname={params['dbname']}"
    with ConnectionPool(conninfo, min_size=1, max_size=1, timeout=0.2) as pool, pool.connection():
        try:
            pool.getconn()
        except Exception as exc:
            try:
                raise OperationalError(str(exc)) from exc
            except OperationalError as wrapped:
                return wrapped
    raise AssertionError("the pool lent a second connection")


def test_waiting_too_long_for_a_connection_is_a_503_in_the_error_shape(db, postgres):
    response = api_exception_handler(pool_timeout(), {})
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response.data["code"] == "busy"
    assert "try again" in response.data["message"]


def test_other_database_errors_stay_server_errors(db, postgres):
    assert api_exception_handler(OperationalError("disk full"), {}) is None
