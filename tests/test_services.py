"""Proof that the suite runs on the real services CI provides."""

import redis
from django.db import connection

from config.health import broker_status


def test_the_suite_runs_on_postgresql(postgres):
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")


def test_redis_answers_and_stores(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.set("slowhand:test:ping", "pong", ex=10)
    assert client.get("slowhand:test:ping") == b"pong"


def test_celery_broker_is_reachable(redis_url, settings):
    assert settings.CELERY_BROKER_URL == redis_url
    assert broker_status() == "ok"


def test_healthz_reports_database_and_broker(redis_url, client, db):
    body = client.get("/healthz").json()
    assert body["broker"] == "redis"
    assert body["checks"]["database"] == body["checks"]["broker"] == "ok"


def test_healthz_answers_503_when_the_broker_is_down(client, db, monkeypatch, settings):
    from config.celery import app

    unreachable = "redis://127.0.0.1:1/0" if settings.REDIS_URL else "sqlite:////nonexistent-folder/broker.sqlite3"
    monkeypatch.setattr(app.conf, "broker_url", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["broker"].startswith("error")
