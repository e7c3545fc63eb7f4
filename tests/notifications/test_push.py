"""Web Push end to end: Bob subscribes a phone (keys this test made) at a push service on 127.0.0.1;
when Alice moves, a real Celery worker sends the phone one message, signed with the site's VAPID key
and encrypted for that phone, which holds the game and no card."""

from __future__ import annotations

import re
import time

import pytest
from django.utils import timezone

from games import services
from games.engine.cards import DECK
from notifications import vapid
from notifications.models import Delivery, Notification, PushSubscription
from tests.conftest import client_for
from tests.tasks.helpers import play_one_turn
from tests.tasks.test_worker import wait_until

from .push_service import push_service, vapid_claims

CARD_CODE = re.compile(r"\b(" + "|".join(DECK) + r")\b")


@pytest.fixture
def phones(settings):
    settings.PUSH_ALLOW_PRIVATE = True  # the push service is on 127.0.0.1
    with push_service() as service:
        yield service


def game_for(alice, bob, **options):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, **options)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    return game


def until_bobs_turn(game, bob):
    """Moves until Bob is to act, and the notification of that turn."""
    while game.seats.get(index=game.to_act_seat).user_id != bob.pk:
        game = play_one_turn(game.public_id)
    return game, Notification.objects.filter(user=bob, kind="your_turn", game=game).latest("pk")


def subscribe(user, browser) -> dict:
    answer = client_for(user).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def test_the_opponents_move_sends_one_signed_encrypted_push_with_the_game_and_no_card(
    celery_worker, phones, alice, bob
):
    phone = phones.browser("bobs-phone")
    subscribe(bob, phone)
    game = game_for(alice, bob)
    if game.seats.get(index=game.to_act_seat).user_id == bob.pk:
        game = play_one_turn(game.public_id)  # Bob's opening turn goes; Alice's move makes the next one
        phones.wait_for(1, phone)
        phones.received.clear()
    sent_at = time.time()
    game = play_one_turn(game.public_id)  # Alice moves: Bob's turn

    [message] = phones.wait_for(1, phone)
    time.sleep(0.5)
    assert len(phones.messages(phone)) == 1
    claims = vapid_claims(message, vapid.public_key())
    assert claims["aud"] == phones.origin
    assert sent_at < claims["exp"] <= sent_at + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https://"))
    assert message.headers["Urgency"] == "high"
    assert message.headers["Content-Encoding"] == "aes128gcm"
    # The push service keeps it for a sleeping phone until the turn's deadline, never 0.
    assert game.move_time_limit - 60 <= int(message.headers["TTL"]) <= game.move_time_limit
    payload = phone.decrypt(message)
    assert payload == {
        "type": "your_turn",
        "game": game.public_id,
        "title": "Your turn",
        "body": "Your turn in Scat with alice.",
        "url": f"/games/{game.public_id}/",
    }
    assert not CARD_CODE.search(message.headers.get("Topic", "") + str(payload))
    delivery = Delivery.objects.filter(channel="push", notification__user=bob, status="sent").latest("pk")
    assert message.headers["Topic"] == f"delivery-{delivery.pk}"  # the same on every attempt
    assert PushSubscription.objects.get(user=bob).last_success_at is not None


def test_a_410_removes_the_device_and_later_moves_send_it_nothing(celery_worker, phones, alice, bob):
    gone, kept = phones.browser("gone"), phones.browser("kept")
    subscribe(bob, gone)
    subscribe(bob, kept)
    phones.status_for[gone.endpoint.removeprefix(phones.origin)] = 410
    game = game_for(alice, bob)
    game, _ = until_bobs_turn(game, bob)
    assert len(phones.wait_for(1, kept)) == 1
    assert wait_until(lambda: not PushSubscription.objects.filter(endpoint=gone.endpoint).exists())
    assert len(phones.messages(gone)) == 1

    game = play_one_turn(game.public_id)  # Bob moves
    game, _ = until_bobs_turn(game, bob)  # and it is his turn again
    assert len(phones.wait_for(2, kept)) == 2
    time.sleep(0.5)
    assert len(phones.messages(gone)) == 1  # nothing more to the device that is gone


def test_the_last_device_gone_takes_push_out_of_the_players_channels(phones, alice, bob):
    phone = phones.browser("only")
    device = subscribe(bob, phone)
    assert "push" in bob.preference.channels["your_turn"]
    assert client_for(bob).delete(f"/api/v1/me/push-subscriptions/{device['id']}/").status_code == 204
    bob.preference.refresh_from_db()
    assert "push" not in bob.preference.channels["your_turn"]


def test_a_push_that_cannot_reach_any_device_lets_the_email_go_at_once(phones, alice, bob, settings):
    from notifications import delivery as sending

    phone = phones.browser("phone")
    subscribe(bob, phone)
    PushSubscription.objects.filter(user=bob).delete()  # gone behind the site's back (no 410 yet)
    _game, notification = until_bobs_turn(game_for(alice, bob), bob)
    push = notification.deliveries.get(channel="push")
    email = notification.deliveries.get(channel="email")

    assert sending.deliver(push.pk) == "skipped"
    assert Delivery.objects.get(pk=push.pk).skip_reason == "no_device"
    assert sending.deliver(email.pk) == "sent"
    assert timezone.now() >= Delivery.objects.get(pk=email.pk).sent_at


def test_a_retry_after_one_device_failed_goes_only_to_that_device(phones, alice, bob):
    from notifications import delivery as sending

    steady, flaky = phones.browser("steady"), phones.browser("flaky")
    subscribe(bob, steady)
    subscribe(bob, flaky)
    flaky_path = flaky.endpoint.removeprefix(phones.origin)
    phones.status_for[flaky_path] = 500
    _game, notification = until_bobs_turn(game_for(alice, bob), bob)
    push = notification.deliveries.get(channel="push")

    assert sending.deliver(push.pk) == "retry"
    assert len(phones.messages(steady)) == 1
    assert len(phones.messages(flaky)) == 1
    phones.status_for[flaky_path] = 201
    Delivery.objects.filter(pk=push.pk).update(next_attempt_at=timezone.now())
    assert sending.deliver(push.pk) == "sent"

    assert len(phones.messages(steady)) == 1  # it had the message: not sent again
    assert len(phones.messages(flaky)) == 2
    reached = Delivery.objects.get(pk=push.pk).reached_devices
    assert sorted(reached) == sorted(PushSubscription.objects.filter(user=bob).values_list("public_id", flat=True))
