"""Say it once, at the right time: a turn's push and email stay away from a player who is looking at
the game, the email follows an unanswered push after the player's delay, and quiet hours hold back
what is not urgent. Each rule fails its test without it."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import services, sweeps
from notifications import delivery as sending
from notifications import presence
from notifications.models import Delivery, Notification, PlayerPreference
from tests.conftest import client_for
from tests.tasks.helpers import play_one_turn

from .push_service import push_service

UTC = dt.UTC


@pytest.fixture
def phone(settings, bob):
    """Bob's phone, subscribed at a local push service."""
    settings.PUSH_ALLOW_PRIVATE = True
    with push_service() as service:
        browser = service.browser("bob")
        answer = client_for(bob).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
        assert answer.status_code == 201
        yield service, browser


def bobs_turn(alice, bob, **options) -> tuple:
    game = services.create_game(creator=alice, kind="scat", num_seats=2, **options)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    while game.seats.get(index=game.to_act_seat).user_id != bob.pk:
        game = play_one_turn(game.public_id)
    notification = Notification.objects.filter(user=bob, kind="your_turn", game=game).latest("pk")
    return game, notification


def delivery_of(notification, channel: str) -> Delivery:
    return notification.deliveries.get(channel=channel)


def status(delivery: Delivery) -> tuple[str, str]:
    delivery.refresh_from_db()
    return delivery.status, delivery.skip_reason


# --- the player is looking at the game ---------------------------------------------------------


def test_no_push_or_email_while_the_player_has_the_table_open(phone, alice, bob, client):
    service, browser = phone
    client.force_login(bob)
    game, notification = bobs_turn(alice, bob)
    assert client.get(f"/games/{game.public_id}/").status_code == 200  # Bob is at the table

    push, email = delivery_of(notification, "push"), delivery_of(notification, "email")
    assert sending.deliver(push.pk) == "skipped"
    assert sending.deliver(email.pk) == "skipped"

    assert status(push) == ("skipped", "seen") and status(email) == ("skipped", "seen")
    assert service.messages(browser) == []
    assert Notification.objects.filter(pk=notification.pk, in_app=True).exists()  # still listed


def test_an_open_stream_of_the_game_counts_as_looking(phone, alice, bob):
    game, notification = bobs_turn(alice, bob)
    presence.mark_seen([(bob.pk, game.pk)], now=timezone.now() - timedelta(seconds=25))  # the stream's last mark

    assert sending.deliver(delivery_of(notification, "push").pk) == "skipped"


def test_a_player_who_looked_a_while_ago_is_not_looking_now(phone, alice, bob):
    game, notification = bobs_turn(alice, bob)
    presence.mark_seen([(bob.pk, game.pk)], now=notification.created_at - timedelta(minutes=5))

    assert sending.deliver(delivery_of(notification, "push").pk) == "sent"


def test_the_email_stays_home_when_the_player_opened_the_game_after_the_move(alice, bob, client):
    game, notification = bobs_turn(alice, bob)  # no device: the email is the message itself
    email = delivery_of(notification, "email")
    later = timezone.now() + timedelta(minutes=10)
    with time_machine.travel(later - timedelta(minutes=5), tick=False):
        client.force_login(bob)
        client.get(f"/games/{game.public_id}/")
    with time_machine.travel(later, tick=False):
        assert sending.deliver(email.pk) == "skipped"
    assert status(email) == ("skipped", "seen")


def test_a_turn_already_played_is_not_announced(alice, bob):
    game, notification = bobs_turn(alice, bob)
    play_one_turn(game.public_id)  # Bob moved through the API before the email went

    assert sending.deliver(delivery_of(notification, "email").pk) == "skipped"
    assert status(delivery_of(notification, "email")) == ("skipped", "answered")


# --- email follows an unanswered push -----------------------------------------------------------


def test_the_email_follows_an_unanswered_push_after_the_players_delay(phone, alice, bob):
    PlayerPreference.objects.filter(user=bob).update(follow_up_after=3 * 3600)
    _game, notification = bobs_turn(alice, bob)
    push, email = delivery_of(notification, "push"), delivery_of(notification, "email")
    assert sending.deliver(push.pk) == "sent"

    assert sending.deliver(email.pk) == "waiting"
    email.refresh_from_db()
    assert email.next_attempt_at == notification.created_at + timedelta(hours=3)
    with time_machine.travel(email.next_attempt_at + timedelta(seconds=1), tick=False):
        assert sending.due_deliveries() == [email.pk]
        assert sending.deliver(email.pk) == "sent"


def test_no_follow_up_when_the_game_was_opened_within_the_delay(phone, alice, bob, client):
    game, notification = bobs_turn(alice, bob)
    push, email = delivery_of(notification, "push"), delivery_of(notification, "email")
    assert sending.deliver(push.pk) == "sent"
    assert sending.deliver(email.pk) == "waiting"
    email.refresh_from_db()
    with time_machine.travel(notification.created_at + timedelta(hours=2), tick=False):
        client.force_login(bob)
        client.get(f"/games/{game.public_id}/")  # the push brought Bob to the table
    with time_machine.travel(email.next_attempt_at + timedelta(seconds=1), tick=False):
        assert sending.deliver(email.pk) == "skipped"


def test_never_means_no_follow_up_email(phone, alice, bob):
    PlayerPreference.objects.filter(user=bob).update(follow_up_after=None)
    _game, notification = bobs_turn(alice, bob)
    assert sending.deliver(delivery_of(notification, "push").pk) == "sent"

    assert sending.deliver(delivery_of(notification, "email").pk) == "skipped"
    assert status(delivery_of(notification, "email")) == ("skipped", "no_follow_up")


def test_the_default_delay_is_twelve_hours(phone, alice, bob):
    _game, notification = bobs_turn(alice, bob)
    sending.deliver(delivery_of(notification, "push").pk)
    sending.deliver(delivery_of(notification, "email").pk)

    assert delivery_of(notification, "email").next_attempt_at == notification.created_at + timedelta(hours=12)


# --- quiet hours ---------------------------------------------------------------------------------


def quiet_from_22_to_8(user, zone: str = "Europe/Istanbul") -> None:
    user.time_zone = zone
    user.save(update_fields=["time_zone"])
    PlayerPreference.objects.filter(user=user).update(quiet_hours_start=dt.time(22), quiet_hours_end=dt.time(8))


def at_local(hour: int, minute: int = 0, zone: str = "Europe/Istanbul") -> dt.datetime:
    import zoneinfo

    day = dt.date(2026, 12, 2)
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zoneinfo.ZoneInfo(zone))


def test_a_turn_at_night_waits_for_the_quiet_hours_to_end(phone, alice, bob):
    service, browser = phone
    quiet_from_22_to_8(bob)
    with time_machine.travel(at_local(23, 30), tick=False):
        _game, notification = bobs_turn(alice, bob)
        push = delivery_of(notification, "push")
        assert sending.deliver(push.pk) == "waiting"
    push.refresh_from_db()
    assert push.next_attempt_at == at_local(8, 0) + timedelta(days=1)
    assert service.messages(browser) == []
    with time_machine.travel(push.next_attempt_at + timedelta(seconds=5), tick=False):
        assert push.pk in sending.due_deliveries()
        assert sending.deliver(push.pk) == "sent"


def test_outside_quiet_hours_nothing_waits(phone, alice, bob):
    quiet_from_22_to_8(bob)
    with time_machine.travel(at_local(21, 59), tick=False):
        _game, notification = bobs_turn(alice, bob)
        assert sending.deliver(delivery_of(notification, "push").pk) == "sent"


def test_time_running_out_for_a_deadline_inside_the_quiet_hours_goes_at_once(phone, alice, bob):
    service, browser = phone
    quiet_from_22_to_8(bob)
    with time_machine.travel(at_local(21, 0), tick=False):
        _game, _ = bobs_turn(alice, bob, move_time_limit=3 * 3600)  # deadline at midnight
    with time_machine.travel(at_local(23, 30), tick=False):
        sweeps.send_due_reminders()
        reminder = Notification.objects.get(user=bob, kind="time_running_out")
        assert sending.deliver(delivery_of(reminder, "push").pk) == "sent"
        assert sending.deliver(delivery_of(reminder, "email").pk) == "waiting"  # the follow-up
    [message] = [m for m in service.messages(browser) if browser.decrypt(m)["type"] == "time_running_out"]
    assert message.headers["Urgency"] == "high"


def test_time_running_out_for_a_deadline_after_the_quiet_hours_waits(phone, alice, bob):
    quiet_from_22_to_8(bob)
    with time_machine.travel(at_local(18, 0), tick=False):
        _game, _ = bobs_turn(alice, bob, move_time_limit=16 * 3600)  # deadline at 10:00, after the night
    with time_machine.travel(at_local(6, 50) + timedelta(days=1), tick=False):  # the reminder, at 06:48
        sweeps.send_due_reminders()
        reminder = Notification.objects.get(user=bob, kind="time_running_out")
        assert sending.deliver(delivery_of(reminder, "push").pk) == "waiting"


# --- an invitation ended before its email went --------------------------------------------------


def test_an_invitation_answered_or_withdrawn_before_its_email_is_not_sent(alice, bob):
    declined = services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    withdrawn = services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    services.decline_invitation(game_id=declined.public_id, user=bob)
    services.leave_game(game_id=withdrawn.public_id, user=alice)
    standing = services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])

    def email_of(game) -> Delivery:
        return Delivery.objects.get(notification__user=bob, notification__game=game, channel="email")

    for game in (declined, withdrawn):
        assert sending.deliver(email_of(game).pk) == "skipped"
        assert status(email_of(game)) == ("skipped", "invitation_over")
    assert sending.deliver(email_of(standing).pk) == "sent"
