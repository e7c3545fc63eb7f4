"""Through a running Celery worker on Redis: notifications arrive, bots play, outages lose nothing."""

from __future__ import annotations

import hashlib
import hmac
import subprocess
import time

import pytest
from django.db import connection
from django.db.models import F
from django.utils import timezone

from config import dispatch
from config.celery import app
from games import services
from games.models import Game
from notifications import delivery as outbox_delivery
from notifications import tasks as notification_tasks
from notifications.channels.webhook import WEBHOOK_NOT_ACCEPTED
from notifications.models import Delivery, Notification, PlayerPreference
from tests.conftest import require_service

from .conftest import reset_broker_connections
from .helpers import play_one_turn, subscribe_webhook


def wait_until(condition, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def test_a_move_leads_to_a_delivered_your_turn_notification(celery_worker, webhook_receiver, alice, bob):
    url, receiver = webhook_receiver
    subscribe_webhook(alice, url, ["your_turn"])
    subscribe_webhook(bob, url, ["your_turn"])
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    first = receiver.wait_for(1, "your_turn")
    assert len(first) == 1

    game = play_one_turn(game.public_id)

    bodies = receiver.wait_for(2, "your_turn")
    assert len(bodies) == 2
    latest = receiver.calls[-1]
    assert latest["body"]["notification"]["game"] == game.public_id
    expected = "sha256=" + hmac.new(b"s3cret", latest["raw"], hashlib.sha256).hexdigest()
    assert latest["headers"]["X-Slowhand-Signature"] == expected
    assert not any(f'"{card}"' in latest["raw"].decode() for hand in game.state["hands"] for card in hand)


def test_bots_play_through_the_worker_until_a_person_is_to_act(celery_worker, alice):
    game = services.create_game(creator=alice, kind="scattle", num_seats=3, bots=["good", "random"])

    def awaiting_alice() -> bool:
        game.refresh_from_db()
        return game.status != "active" or game.to_act_seat == 0

    assert wait_until(awaiting_alice)
    assert game.moves.exclude(by_server="bot").count() == 0 or game.to_act_seat == 0


def test_a_failed_webhook_is_retried_and_the_error_shown(celery_worker, webhook_receiver, alice, bob):
    url, receiver = webhook_receiver
    receiver.fail_next = 1
    subscribe_webhook(bob, url, ["invitation"])
    services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    delivery = Delivery.objects.get(channel="webhook")
    assert wait_until(lambda: Delivery.objects.get(pk=delivery.pk).attempts == 1)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.last_error == WEBHOOK_NOT_ACCEPTED
    assert PlayerPreference.objects.get(user=bob).webhook_last_error == WEBHOOK_NOT_ACCEPTED

    # The retry comes due; the sweep hands it to the worker, which sends it once.
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    notification_tasks.sweep_deliveries.delay()
    assert len(receiver.wait_for(1, "invitation")) == 1
    assert wait_until(lambda: Delivery.objects.get(pk=delivery.pk).status == "sent")


@pytest.fixture
def private_redis(redis_url):
    """A Redis server of this test's own, so that stopping it disturbs nothing else."""
    port = 6391
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    try:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        require_service(False, "redis-server is not installed")
    url = f"redis://127.0.0.1:{port}/0"
    original = app.conf.broker_url
    app.conf.broker_url = url
    reset_broker_connections()
    state = {"process": process}

    def stop() -> None:
        state["process"].terminate()
        state["process"].wait(10)

    def start() -> None:
        state["process"] = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)

    time.sleep(0.5)
    yield stop, start
    stop()
    app.conf.broker_url = original
    reset_broker_connections()
    dispatch._broker_down_until = 0.0  # this process saw the outage; later tests start afresh


def test_a_move_is_accepted_while_redis_is_down_and_notified_once_it_is_back(
    private_redis, transactional_db, webhook_receiver, alice, bob
):
    from celery.contrib.testing.worker import start_worker

    from tests.conftest import client_for

    stop_redis, start_redis = private_redis
    url, receiver = webhook_receiver
    subscribe_webhook(bob, url, ["your_turn"])
    subscribe_webhook(alice, url, ["your_turn"])
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    mover = (alice, bob)[game.to_act_seat]

    stop_redis()
    reset_broker_connections()
    client = client_for(mover)
    drawn = client.post(
        f"/api/v1/games/{game.public_id}/moves/",
        {"action": {"type": "draw_stock"}, "version": game.version},
        format="json",
    )
    assert drawn.status_code == 201
    discard = next(a for a in drawn.json()["game"]["legal_actions"] if a["type"] == "discard")
    discarded = client.post(
        f"/api/v1/games/{game.public_id}/moves/",
        {"action": discard, "version": drawn.json()["game"]["version"]},
        format="json",
    )
    assert discarded.status_code == 201
    pending = Delivery.objects.filter(status="pending", notification__kind="your_turn").count()
    assert pending == 2  # the opening turn's and this one's: nothing could be queued

    start_redis()
    reset_broker_connections()
    # A minute on, the sweep stops waiting for the webhooks' own messages (they never left).
    Notification.objects.update(created_at=F("created_at") - outbox_delivery.OWN_MESSAGE_GRACE)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
        notification_tasks.sweep_deliveries.delay()
        notification_tasks.sweep_deliveries.delay()  # a second sweep finds nothing left to send
        bodies = receiver.wait_for(2, "your_turn")
        time.sleep(1)
    assert len(receiver.bodies("your_turn")) == 2
    assert len({b["delivery"] for b in receiver.bodies("your_turn")}) == 2
    assert Delivery.objects.filter(status="sent", notification__kind="your_turn").count() == 2
    assert Game.objects.get(pk=game.pk).version == game.version + 2
    assert bodies
    connection.close()
