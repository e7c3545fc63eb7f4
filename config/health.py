"""GET /healthz: is the database reachable, and the Celery broker?"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "not healthy", and the reason is shown
        return f"error: {type(exc).__name__}"
    return "ok"


def broker_status() -> str:
    from config.celery import app

    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {type(exc).__name__}"
    return "ok"


def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": database_status(), "broker": broker_status()}
    healthy = all(value == "ok" for value in checks.values())
    broker = "redis" if settings.REDIS_URL else "filesystem"
    return JsonResponse(
        {"status": "ok" if healthy else "unhealthy", "checks": checks, "broker": broker},
        status=200 if healthy else 503,
    )
