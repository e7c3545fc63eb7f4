"""One player's notification settings can never stop anyone's game: a repeated channel is refused at
the boundary, and a malformed choice already stored (or written around the boundary) is read as
each known channel once."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import services, sweeps, tasks
from games.models import Game
from notifications.models import Delivery, Notification, PlayerPreference
from tests.conftest import make_user
from tests.tasks.helpers import play_one_turn


def store_channels(user, channels: dict) -> None:
    """What an older version of the settings let through, written straight to the row."""
    PlayerPreference.objects.update_or_create(user=user, defaults={"channels": channels})


def two_player_game(alice, bob, **kwargs) -> Game:
    game = services.create_game(creator=alice, kind="scat", num_seats=2, **kwargs)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    return game


def test_the_api_refuses_a_channel_named_twice(bob_client):
    response = bob_client.patch(
        "/api/v1/me/notification-settings/", {"channels": {"your_turn": ["email", "email"]}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert "your_turn" in response.json()["message"]


def test_the_settings_form_keeps_each_channel_once(client, bob):
    client.force_login(bob)
    form = {"reminder_percent": "80", "digest_hour": "8", "channels_your_turn": ["email", "email", "in_app"]}
    response = client.post("/settings/notifications/", form)
    assert response.status_code == 302
    assert PlayerPreference.objects.get(user=bob).channels["your_turn"] == ["email", "in_app"]


@pytest.mark.parametrize(
    "stored",
    [
        {"your_turn": ["email", "email", "in_app", "in_app"], "game_started": ["email", "email"]},
        {"your_turn": ["email", "carrier-pigeon", 7, ["email"]], "game_started": "email"},
    ],
)
def test_moves_starts_and_resigns_go_on_whatever_the_opponent_stored(postgres, alice, bob, stored):
    store_channels(bob, stored)
    game = two_player_game(alice, bob)  # the last join starts the game and tells bob
    for _ in range(3):
        game = play_one_turn(game.public_id)
    services.resign(game_id=game.public_id, user=alice)

    game.refresh_from_db()
    assert game.status == "finished"
    for notification in Notification.objects.filter(user=bob):
        channels = list(notification.deliveries.values_list("channel", flat=True))
        assert len(channels) == len(set(channels))
        assert set(channels) <= {"email", "webhook"}


def test_the_creators_start_and_the_timeout_task_go_on_too(postgres, alice, bob):
    store_channels(bob, {"your_turn": ["email", "email"], "game_started": ["webhook", "webhook"]})
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    services.join_game(game_id=game.public_id, user=bob)
    services.start_game(game_id=game.public_id, user=alice)
    game.refresh_from_db()
    with time_machine.travel(game.deadline + timedelta(seconds=1)):
        assert tasks.apply_timeouts([game.public_id]) == 1
    assert Game.objects.get(pk=game.pk).version > game.version


def test_a_repeated_reminder_channel_does_not_roll_back_everyones_reminders(postgres, alice, bob):
    charlie, dave = make_user("charlie"), make_user("dave")
    for player in (alice, bob, charlie, dave):
        store_channels(player, {"time_running_out": ["email", "email"]})
    games = [two_player_game(alice, bob), two_player_game(charlie, dave)]
    latest = max(g.reminder_at for g in games)
    with time_machine.travel(latest + timedelta(seconds=1)):
        assert sweeps.send_due_reminders() == 2
    reminded = Notification.objects.filter(kind="time_running_out")
    assert reminded.count() == 2
    assert Delivery.objects.filter(notification__in=reminded).count() == reminded.count()
    assert not Game.objects.filter(pk__in=[g.pk for g in games], reminder_at__lte=timezone.now()).exists()
