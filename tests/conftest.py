"""Shared fixtures: the cast (Alice, Bob, Charlie), API clients, and the real services."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken, User


def delete_rather_than_truncate() -> None:
    """A test that commits (transactional_db) is followed by a flush of every table. PostgreSQL's
    TRUNCATE gives each table new files, which took 1-3 s a test; DELETE of the few rows a test
    leaves takes milliseconds. Django's foreign keys are checked at commit, so the order is free."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]  # noqa: S608 (Django's table names)

    DatabaseOperations.sql_flush = sql_flush


if connection.vendor == "postgresql":
    delete_rather_than_truncate()


def require_service(available: bool, reason: str) -> None:
    """Skip when a service is missing, but fail under REQUIRE_SERVICES=1 (as CI runs)."""
    if available:
        return
    if settings.REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1, but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def site_language():
    """Every test starts in the site's default language: a page request leaves the language it chose
    active in its thread (LocaleMiddleware does not reset it), and a later test would read its texts."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def generous_rate_limits(monkeypatch):
    """Tests play whole games in seconds; the throttle tests set their own limits. Each test starts
    with nothing left in Redis by the one before (counters, leases, queued tasks)."""
    for scope in ("anon", "user", "token"):
        monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, scope, "1000000/minute")
    cache.clear()
    if settings.REDIS_URL:
        forget_redis_keys()


def forget_redis_keys() -> None:
    """Delete this test process's Redis keys, all under its REDIS_KEY_PREFIX: test processes running
    side by side (pytest-xdist) share one Redis database."""
    import redis

    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        keys = list(client.scan_iter(match=f"{settings.REDIS_KEY_PREFIX}*", count=1000))
        for start in range(0, len(keys), 1000):
            client.unlink(*keys[start : start + 1000])
    except redis.RedisError:
        pass  # the tests that need Redis say so


def pytest_sessionfinish(session) -> None:
    """The test process's own folder (settings: the embedded broker, the health records) and keys go."""
    var_dir = Path(settings.VAR_DIR)
    if var_dir.parent == Path(tempfile.gettempdir()) and var_dir.name == f"slowhand-test-{os.getpid()}":
        shutil.rmtree(var_dir, ignore_errors=True)
    test_database = settings.DATABASES["default"].get("TEST", {}).get("NAME") or ""
    if connection.vendor == "sqlite" and test_database and not Path(test_database).exists():
        for leftover in (f"{test_database}-wal", f"{test_database}-shm"):  # Django removes the file alone
            Path(leftover).unlink(missing_ok=True)
    if settings.REDIS_URL:
        forget_redis_keys()


def redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except redis.RedisError:
        return False


@pytest.fixture
def postgres(db) -> None:
    vendor = connection.vendor
    require_service(vendor == "postgresql", f"this test needs PostgreSQL, and the database is {vendor}")


@pytest.fixture
def concurrent_database(transactional_db) -> None:
    """PostgreSQL, or SQLite in a file: a database that threads write to at once, each over its own
    connection. Transactional, because a thread cannot see what the test's own open transaction wrote."""
    vendor = connection.vendor
    if vendor == "sqlite":
        in_memory = connection.is_in_memory_db()
        require_service(not in_memory, "threads need the SQLite test database in a file, and it is in memory")
    else:
        require_service(vendor == "postgresql", f"this test needs PostgreSQL or SQLite, and the database is {vendor}")


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "")
    require_service(bool(url), "this test needs Redis, and REDIS_URL is not set")
    require_service(redis_reachable(url), f"Redis at {url} does not answer")
    return url


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, email=f"{username}@example.com", password=f"{username}-pw-1234")


@pytest.fixture
def alice(db) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db) -> User:
    return make_user("bob")


@pytest.fixture
def charlie(db) -> User:
    return make_user("charlie")


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        _token, key = ApiToken.issue(user=user, name="tests")
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def alice_client(alice) -> APIClient:
    return client_for(alice)


@pytest.fixture
def bob_client(bob) -> APIClient:
    return client_for(bob)


@pytest.fixture
def charlie_client(charlie) -> APIClient:
    return client_for(charlie)


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch):
    """Every test deals the same cards every run, so none depends on a lucky shuffle (a random deal
    can start with a 31 and move the first turn on): the n-th game started in a test gets seed
    "test-n". The engine's own property tests draw their seeds from hypothesis instead."""
    from games import services

    counter = iter(range(1, 1_000_000))
    monkeypatch.setattr(services, "new_seed", lambda: f"test-{next(counter)}")
