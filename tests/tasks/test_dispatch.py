"""Queueing after commit: a dead broker costs one timeout, then the sweeps take over."""

import time

from config import dispatch
from config.celery import app

from .conftest import reset_broker_connections


def test_after_one_failure_the_process_leaves_work_to_the_sweep(monkeypatch):
    monkeypatch.setattr(dispatch, "_broker_down_until", 0.0)
    monkeypatch.setattr(app.conf, "broker_url", "redis://127.0.0.1:1/0")
    reset_broker_connections()
    try:
        assert dispatch.send_now("games.tasks.sweep_reminders") is False
        started = time.monotonic()
        assert dispatch.send_now("games.tasks.sweep_reminders") is False
        assert time.monotonic() - started < 0.05  # no second wait for the dead broker
        assert dispatch._broker_down_until > time.monotonic()
    finally:
        monkeypatch.undo()
        reset_broker_connections()
