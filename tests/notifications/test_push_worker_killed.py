"""A Celery worker killed (SIGKILL) in the middle of sending pushes: a new worker sends what it left,
and every push arrives, each under its delivery's stable id (the Topic header). The one in flight
when the worker died may arrive twice, with the same id, so the push service and the service worker
keep one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.db.models import F

from config.celery import app
from notifications import delivery as sending
from notifications.models import Delivery, Notification, PlayerPreference
from notifications.outbox import notify
from tests.conftest import client_for
from tests.tasks.test_worker import wait_until

from .push_service import push_service

ROOT = Path(__file__).resolve().parents[2]
PUSHES = 6


def worker(env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [Path(sys.executable).parent / "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT, env=env, stdout=log.open("a"), stderr=subprocess.STDOUT,
    )  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_pushes_a_killed_worker_was_sending_all_arrive_with_their_ids(postgres, redis_url, settings, bob, tmp_path):
    settings.PUSH_ALLOW_PRIVATE = True
    database = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "REDIS_URL": redis_url,
        "PUSH_ALLOW_PRIVATE": "1",
        "DELIVERY_CLAIM_SECONDS": "2",
        "PYTHONPATH": str(ROOT),
    }
    log = tmp_path / "worker.log"
    app.control.purge()  # what earlier tests queued without a worker
    with push_service() as service:
        phone = service.browser("bob")
        assert client_for(bob).post("/api/v1/me/push-subscriptions/", phone.as_json(), format="json").status_code == 201
        PlayerPreference.objects.filter(user=bob).update(channels={"invitation": ["in_app", "push"]})
        service.delay = 3.0  # the worker is still waiting for an answer when it dies
        first = worker(env, log)
        with transaction.atomic():
            notify("invitation", [(bob.pk, None, {"from": "alice", "kind": "scat"})] * PUSHES)
        pushes = list(Delivery.objects.filter(channel="push").values_list("pk", flat=True))
        assert len(pushes) == PUSHES

        assert wait_until(lambda: len(service.messages(phone)) >= 1, timeout=30), log.read_text()
        first.send_signal(signal.SIGKILL)
        first.wait(10)
        service.delay = 0.0
        assert Delivery.objects.filter(channel="push", status="sent").count() < PUSHES

        second = worker(env, log)
        try:
            time.sleep(2.5)  # the dead worker's claim runs out
            # A minute on, the sweep no longer waits for the pushes' own message (it was lost).
            Notification.objects.update(created_at=F("created_at") - sending.OWN_MESSAGE_GRACE)
            app.send_task("notifications.tasks.sweep_deliveries")
            assert wait_until(lambda: Delivery.objects.filter(channel="push", status="sent").count() == PUSHES, 30), (
                log.read_text()
            )
        finally:
            second.terminate()
            second.wait(20)

    topics = Counter(message.headers["Topic"] for message in service.messages(phone))
    assert set(topics) == {f"delivery-{pk}" for pk in pushes}  # every push arrived, under its own id
    assert sum(topics.values()) <= PUSHES + 1  # at most the one in flight twice
