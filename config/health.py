"""GET /healthz: the database, the Celery broker, and whether the worker and beat are doing their work.

The worker notes the time whenever it finishes a task, and the time of every timeout sweep that
succeeds (config/celery.py), in the "health" cache, which every process of the site sees (Redis, or
files under var/). Beat sends the sweep every 2 s, so a silent worker or a silent beat shows within
the limits below; the answer is 503 and names what is stale.
"""

from __future__ import annotations

import time

from celery import current_app
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, JsonResponse

# No task finished for this long: no worker is answering.
WORKER_STALE_SECONDS = 60
# No timeout sweep for this long: beat (or the worker) has stopped, and turns are not played out.
SWEEP_STALE_SECONDS = 30
WORKER_ANSWERED = "worker-answered"
TIMEOUTS_SWEPT = "timeouts-swept"
TIMEOUT_SWEEP_TASK = "games.tasks.sweep_timeouts"

# A worker writes its answer at most this often: a note per task would be a write per bot move.
_NOTE_EVERY_SECONDS = 5.0
_last_noted = 0.0


def note_worker_answered() -> None:
    global _last_noted
    now = time.time()
    if now - _last_noted >= _NOTE_EVERY_SECONDS:
        caches["health"].set(WORKER_ANSWERED, now, timeout=None)
        _last_noted = now


def note_timeouts_swept() -> None:
    caches["health"].set(TIMEOUTS_SWEPT, time.time(), timeout=None)


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not healthy", and the reason is shown
        return f"error: {type(exc).__name__}"
    return "ok"


def broker_status() -> str:
    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def _age(key: str) -> float | None:
    noted = caches["health"].get(key)
    return None if noted is None else max(0.0, time.time() - noted)


def worker_status() -> str:
    age = _age(WORKER_ANSWERED)
    if age is None:
        return "stale: no worker has answered yet"
    if age > WORKER_STALE_SECONDS:
        return f"stale: no worker has answered for {age:.0f} s"
    return "ok"


def beat_status() -> str:
    age = _age(TIMEOUTS_SWEPT)
    if age is None:
        return "stale: the timeout sweep has not run yet"
    if age > SWEEP_STALE_SECONDS:
        return f"stale: the timeout sweep last ran {age:.0f} s ago"
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": database_status(),
        "broker": broker_status(),
        "worker": worker_status(),
        "beat": beat_status(),
    }
    unhealthy = [name for name, value in checks.items() if value != "ok"]
    broker = "redis" if settings.REDIS_URL else "sqlite"
    return JsonResponse(
        {"status": "unhealthy" if unhealthy else "ok", "checks": checks, "unhealthy": unhealthy, "broker": broker},
        status=503 if unhealthy else 200,
    )
