"""/healthz says whether the worker and beat do their work, besides the database and the broker: with
a real Celery worker on the site's broker (Redis when REDIS_URL is set, else the embedded one)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import time_machine
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import caches

from config import health
from config.celery import app
from tests.conftest import redis_reachable, require_service


@pytest.fixture
def worker(transactional_db, monkeypatch) -> Iterator[None]:
    """A worker thread on the site's broker, seeing the committed test database; no notes from before."""
    if settings.REDIS_URL:
        require_service(redis_reachable(settings.REDIS_URL), f"Redis at {settings.REDIS_URL} does not answer")
    caches["health"].clear()
    monkeypatch.setattr(health, "_last_noted", 0.0)
    # Tasks that earlier tests of this process left queued (a finished game's review) would otherwise
    # run here, and one finishing while the clock is moved counts as an answer at the moved time.
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
        yield


def answer(client) -> tuple[int, dict]:
    response = client.get("/healthz")
    return response.status_code, response.json()


def wait_for_health(client, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        status, body = answer(client)
        if status == 200 or time.monotonic() > deadline:
            assert status == 200, body
            return body


def test_healthz_is_503_until_a_worker_answers_and_the_timeout_sweep_runs(client, db):
    caches["health"].clear()
    status, body = answer(client)
    assert status == 503
    assert body["unhealthy"] == ["worker", "beat"]
    assert body["checks"]["worker"] == "stale: no worker has answered yet"
    assert body["checks"]["beat"] == "stale: the timeout sweep has not run yet"
    assert body["checks"]["database"] == body["checks"]["broker"] == "ok"


def test_healthz_names_the_worker_and_beat_once_each_has_been_silent_too_long(client, worker):
    app.send_task(health.TIMEOUT_SWEEP_TASK)  # as beat sends it every 2 s
    body = wait_for_health(client)
    assert body["checks"] == {"database": "ok", "broker": "ok", "worker": "ok", "beat": "ok"}
    swept_at = caches["health"].get(health.TIMEOUTS_SWEPT)

    with time_machine.travel(swept_at + 31, tick=False):
        status, body = answer(client)
    assert status == 503
    assert body["unhealthy"] == ["beat"]
    assert body["checks"]["beat"] == "stale: the timeout sweep last ran 31 s ago"

    with time_machine.travel(caches["health"].get(health.WORKER_ANSWERED) + 61, tick=False):
        status, body = answer(client)
    assert status == 503
    assert body["unhealthy"] == ["worker", "beat"]
    assert body["checks"]["worker"] == "stale: no worker has answered for 61 s"


def test_any_task_the_worker_finishes_counts_as_an_answer_but_only_the_sweep_as_beats(client, worker):
    app.send_task("notifications.tasks.sweep_deliveries")
    deadline = time.monotonic() + 30
    while caches["health"].get(health.WORKER_ANSWERED) is None:
        assert time.monotonic() < deadline, "the worker did not answer"
        time.sleep(0.1)
    status, body = answer(client)
    assert status == 503
    assert body["unhealthy"] == ["beat"]
