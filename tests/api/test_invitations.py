"""Invitations cannot flood a player, a player can block another, and leaving a private game answers 200."""

from __future__ import annotations

from datetime import timedelta

import time_machine
from django.utils import timezone

from games import services
from notifications.models import Notification
from tests.conftest import make_user

from .helpers import create_game


def block(client, username: str):
    return client.post("/api/v1/me/blocks/", {"username": username}, format="json")


def test_leaving_a_private_game_answers_200_though_the_game_is_now_out_of_sight(alice_client, bob_client, bob):
    created = create_game(alice_client, seats=3, is_private=True, invite=["bob"])
    assert bob_client.post(f"/api/v1/games/{created['id']}/join/").status_code == 200

    left = bob_client.post(f"/api/v1/games/{created['id']}/leave/")
    assert left.status_code == 200
    assert left.json()["your_seat"] is None
    assert bob_client.get(f"/api/v1/games/{created['id']}/").status_code == 404


def test_declining_a_private_invitation_answers_200(alice_client, bob_client):
    created = create_game(alice_client, seats=3, is_private=True, invite=["bob"])
    declined = bob_client.post(f"/api/v1/games/{created['id']}/decline/")
    assert declined.status_code == 200
    assert declined.json()["seats"][1]["invited"] is None


def test_a_player_holds_at_most_two_waiting_invitations_from_one_creator(alice_client, bob):
    for _ in range(2):
        create_game(alice_client, seats=2, is_private=True, invite=["bob"])
    third = alice_client.post(
        "/api/v1/games/", {"kind": "scat", "seats": 2, "is_private": True, "invite": ["bob"]}, format="json"
    )
    assert third.status_code == 400
    assert third.json()["code"] == "too_many_invitations"
    assert Notification.objects.filter(user=bob, kind="invitation").count() == 2


def test_an_answered_invitation_makes_room_for_another(alice_client, bob_client):
    first = create_game(alice_client, seats=2, invite=["bob"])
    create_game(alice_client, seats=2, invite=["bob"])
    bob_client.post(f"/api/v1/games/{first['id']}/decline/")
    create_game(alice_client, seats=2, invite=["bob"])


def test_a_creator_invites_at_most_twenty_players_a_day(alice_client, alice):
    names = [make_user(f"player{i}").username for i in range(21)]
    for start in range(0, 20, 4):
        create_game(alice_client, seats=5, invite=names[start : start + 4])
    refused = alice_client.post("/api/v1/games/", {"kind": "scat", "seats": 2, "invite": names[20:]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invitation_limit"
    assert Notification.objects.filter(kind="invitation").count() == 20


def test_a_blocked_player_cannot_invite_the_blocker(alice_client, bob_client):
    assert block(alice_client, "bob").status_code == 201
    refused = bob_client.post("/api/v1/games/", {"kind": "scat", "seats": 2, "invite": ["alice"]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "cannot_invite"
    assert not Notification.objects.filter(kind="invitation").exists()


def test_neither_joins_a_table_where_the_other_sits(alice_client, bob_client, charlie_client):
    block(alice_client, "bob")
    alices = create_game(alice_client, seats=3)
    bobs = create_game(bob_client, seats=3)
    assert bob_client.post(f"/api/v1/games/{alices['id']}/join/").json()["code"] == "blocked"
    assert alice_client.post(f"/api/v1/games/{bobs['id']}/join/").status_code == 403
    assert charlie_client.post(f"/api/v1/games/{alices['id']}/join/").status_code == 200


def test_an_invitation_link_does_not_seat_a_blocked_player(alice_client, bob_client):
    block(alice_client, "bob")
    created = create_game(alice_client, seats=2)
    link = alice_client.post(f"/api/v1/games/{created['id']}/invitations/", {}, format="json").json()
    joined = bob_client.post(f"/api/v1/games/{created['id']}/join/", {"invite_token": link["token"]}, format="json")
    assert joined.status_code == 403


def test_blocks_are_listed_and_lifted(alice_client, bob_client):
    block(alice_client, "Bob")
    assert [b["username"] for b in alice_client.get("/api/v1/me/blocks/").json()["results"]] == ["bob"]
    assert block(alice_client, "bob").status_code == 201  # blocking twice changes nothing
    assert alice_client.delete("/api/v1/me/blocks/bob/").status_code == 204
    assert alice_client.get("/api/v1/me/blocks/").json()["results"] == []
    assert alice_client.delete("/api/v1/me/blocks/bob/").status_code == 404
    created = create_game(bob_client, seats=2, invite=["alice"])
    assert created["seats"][1]["invited"] == "alice"


def test_blocking_names_what_is_wrong(alice_client):
    assert block(alice_client, "nobody").json()["code"] == "unknown_user"
    assert block(alice_client, "alice").json()["code"] == "block_self"
    assert block(alice_client, "").status_code == 400


def test_the_settings_page_blocks_and_unblocks(client, alice, bob):
    client.force_login(alice)
    assert client.post("/settings/blocks/", {"username": "bob"}).status_code == 302
    page = client.get("/settings/").content.decode()
    assert "Unblock bob" in page
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    assert client.post("/settings/blocks/remove/", {"username": "bob"}).status_code == 302
    services.join_game(game_id=game.public_id, user=bob)


# --- an invitation that ends asks for nothing more ---------------------------------------------


def unread_invitations(user) -> int:
    return Notification.objects.filter(user=user, kind="invitation", read_at__isnull=True).count()


def test_an_invitation_that_ends_leaves_nothing_unread(alice_client, bob_client, charlie_client, bob, charlie):
    declined = create_game(alice_client, seats=3, is_private=True, invite=["bob"])
    bob_client.post(f"/api/v1/games/{declined['id']}/decline/")
    joined = create_game(alice_client, seats=2, is_private=True, invite=["bob"])
    bob_client.post(f"/api/v1/games/{joined['id']}/join/")
    assert unread_invitations(bob) == 0, "bob answered both"

    started_without = create_game(alice_client, seats=3, is_private=True, invite=["bob", "charlie"])
    alice_client.post(f"/api/v1/games/{started_without['id']}/join/")
    charlie_client.post(f"/api/v1/games/{started_without['id']}/join/")
    assert alice_client.post(f"/api/v1/games/{started_without['id']}/start/").status_code == 200
    cancelled = create_game(alice_client, seats=2, is_private=True, invite=["charlie"])
    alice_client.post(f"/api/v1/games/{cancelled['id']}/leave/")
    assert unread_invitations(bob) == 0 and unread_invitations(charlie) == 0, "both were withdrawn"
    assert Notification.objects.filter(user=bob, kind="invitation").count() == 3, "read, not deleted"


def test_the_notifications_page_links_only_to_games_the_reader_may_still_open(alice_client, bob, client):
    kept = create_game(alice_client, seats=3, is_private=True, invite=["bob"])
    withdrawn = create_game(alice_client, seats=2, is_private=True, invite=["bob"])
    alice_client.post(f"/api/v1/games/{withdrawn['id']}/leave/")  # cancelled: still Bob's to see
    declined = create_game(alice_client, seats=2, is_private=True, invite=["bob"])
    client.force_login(bob)
    client.post(f"/api/v1/games/{declined['id']}/decline/")

    page = client.get("/notifications/").content.decode()
    assert f'href="/games/{kept["id"]}/"' in page and f'href="/games/{withdrawn["id"]}/"' in page
    assert f'href="/games/{declined["id"]}/"' not in page, "a link that answers 404"
    assert page.count("(no longer open to you)") == 1


def test_a_seat_whose_invitation_expired_taken_by_another_ends_that_invitation(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"], invite_days=1)
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        services.join_game(game_id=game.public_id, user=charlie)  # Bob's seat, its invitation run out
    assert unread_invitations(bob) == 0
