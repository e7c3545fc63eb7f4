"""Notifications, notification settings and vacation through the API."""

from notifications.models import Delivery, Notification, NotificationKind

from .helpers import create_game, started_two_player_game


def test_bob_sees_his_invitation_and_marks_it_read(alice_client, bob_client):
    create_game(alice_client, seats=2, invite=["bob"])
    listed = bob_client.get("/api/v1/notifications/").json()
    assert listed["unread_count"] == 1
    invitation = listed["results"][0]
    assert invitation["kind"] == "invitation"
    assert "alice invites you" in invitation["text"]

    marked = bob_client.post("/api/v1/notifications/read/", {"ids": [invitation["id"]]}, format="json").json()
    assert marked == {"marked": 1, "unread_count": 0, "unread_games": 0}


def test_alice_cannot_mark_bobs_notifications(alice_client, bob_client):
    create_game(alice_client, seats=2, invite=["bob"])
    bobs = bob_client.get("/api/v1/notifications/").json()["results"][0]["id"]
    assert alice_client.post("/api/v1/notifications/read/", {"ids": [bobs]}, format="json").json()["marked"] == 0
    assert bob_client.get("/api/v1/notifications/").json()["unread_count"] == 1


def test_marking_needs_ids_or_all(bob_client):
    response = bob_client.post("/api/v1/notifications/read/", {}, format="json")
    assert response.status_code == 400
    assert "ids" in response.json()["message"]


def test_notifications_never_carry_cards(alice_client, bob_client, bob):
    started_two_player_game(alice_client, bob_client)
    text = str(bob_client.get("/api/v1/notifications/").json())
    assert "hand" not in text and "stock" not in text


def test_a_player_chooses_channels_per_event(bob_client, alice_client):
    response = bob_client.patch(
        "/api/v1/me/notification-settings/", {"channels": {"invitation": ["in_app"]}}, format="json"
    )
    assert response.status_code == 200
    channels = response.json()["channels"]
    assert channels["invitation"] == ["in_app"]
    assert channels["game_over"] == ["in_app", "webhook"]  # a default, shown as it stands
    assert set(channels) == set(NotificationKind.values)
    assert bob_client.get("/api/v1/me/notification-settings/").json()["channels"] == channels
    create_game(alice_client, seats=2, invite=["bob"])
    assert not Delivery.objects.filter(notification__user__username="bob", notification__kind="invitation").exists()


def test_unknown_events_and_channels_are_named(bob_client):
    response = bob_client.patch(
        "/api/v1/me/notification-settings/", {"channels": {"birthday": ["pigeon"]}}, format="json"
    )
    assert response.status_code == 400
    assert "channels" in response.json()["details"]


def test_a_webhook_gets_a_secret_that_only_its_owner_sees(bob_client, alice_client):
    response = bob_client.patch(
        "/api/v1/me/notification-settings/", {"webhook_url": "http://127.0.0.1:9/hook"}, format="json"
    ).json()
    assert len(response["webhook_secret"]) == 48
    assert alice_client.get("/api/v1/me/notification-settings/").json()["webhook_secret"] == ""


def test_a_webhook_must_be_http(bob_client):
    response = bob_client.patch(
        "/api/v1/me/notification-settings/", {"webhook_url": "ftp://example.com/x"}, format="json"
    )
    assert response.status_code == 400
    assert "webhook_url" in response.json()["details"]


def test_vacation_starts_and_ends_through_the_api(bob_client):
    from datetime import timedelta

    from django.utils import timezone

    until = timezone.now() + timedelta(days=2)
    started = bob_client.post("/api/v1/me/vacation/", {"until": until.isoformat()}, format="json")
    assert started.status_code == 201
    assert started.json()["on_vacation"] is True
    again = bob_client.post("/api/v1/me/vacation/", {"until": until.isoformat()}, format="json")
    assert again.status_code == 409
    ended = bob_client.delete("/api/v1/me/vacation/").json()
    assert ended["on_vacation"] is False
    assert ended["days_left"] > 13


def test_a_vacation_longer_than_the_allowance_is_refused(bob_client):
    from datetime import timedelta

    from django.utils import timezone

    response = bob_client.post(
        "/api/v1/me/vacation/", {"until": (timezone.now() + timedelta(days=20)).isoformat()}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] in ("vacation_allowance", "bad_vacation_end")


def test_the_player_who_was_waiting_hears_that_the_game_started_not_the_one_who_started_it(
    alice_client, bob_client, alice, bob
):
    created = create_game(alice_client, seats=2, invite=["bob"])
    assert bob_client.post(f"/api/v1/games/{created['id']}/join/").status_code == 200
    told = Notification.objects.filter(game__public_id=created["id"], kind=NotificationKind.GAME_STARTED)
    assert list(told.values_list("user", flat=True)) == [alice.pk]


def test_the_notifications_about_one_game_are_marked_read_together(alice_client, bob_client, bob):
    first = create_game(alice_client, seats=2, invite=["bob"])
    second = create_game(alice_client, seats=2, invite=["bob"])
    marked = bob_client.post("/api/v1/notifications/read/", {"game": first["id"]}, format="json").json()
    assert marked == {"marked": 1, "unread_count": 1, "unread_games": 1}
    unread = Notification.objects.filter(user=bob, read_at__isnull=True)
    assert [n.game.public_id for n in unread] == [second["id"]]
    nothing = bob_client.post("/api/v1/notifications/read/", {"game": "no-such-game"}, format="json").json()
    assert nothing == {"marked": 0, "unread_count": 1, "unread_games": 1}
