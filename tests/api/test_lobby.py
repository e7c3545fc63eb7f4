"""Creating, joining, inviting, starting and leaving games."""

from games.models import Game
from notifications.models import Notification

from .helpers import create_game, game, started_two_player_game


def test_alice_creates_a_scat_game_and_waits_in_the_lobby(alice_client, bob_client):
    created = create_game(alice_client, kind="scat", seats=3)
    assert created["status"] == "open"
    assert created["your_seat"] == 0
    assert created["hand"] is None
    assert len(created["id"]) >= 10 and not created["id"].isdigit()

    lobby = bob_client.get("/api/v1/games/?status=open").json()
    assert [g["id"] for g in lobby["results"]] == [created["id"]]
    assert lobby["results"][0]["open_seats"] == 2


def test_the_game_starts_when_the_last_seat_is_taken(alice_client, bob_client):
    detail = started_two_player_game(alice_client, bob_client)
    assert detail["your_seat"] == 1
    assert len(detail["hand"]) == 3
    assert detail["fairness"]["seed_sha256"] and detail["fairness"]["seed"] is None
    assert detail["deadline"] is not None


def test_options_are_validated_with_a_message_naming_the_option(alice_client):
    response = alice_client.post(
        "/api/v1/games/", {"kind": "scat", "seats": 2, "options": {"initial_tokens": 0}}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_option"
    assert "initial_tokens" in body["message"]


def test_unknown_option_is_refused(alice_client):
    response = alice_client.post(
        "/api/v1/games/", {"kind": "scattle", "seats": 2, "options": {"jokers": True}}, format="json"
    )
    assert response.status_code == 400
    assert "jokers" in response.json()["message"]


def test_a_game_full_of_bots_starts_at_once(alice_client):
    detail = create_game(alice_client, kind="scattle", seats=3, bots=["good", "random"])
    assert detail["status"] == "active"
    assert [s["is_bot"] for s in detail["seats"]] == [False, True, True]


def test_an_invited_player_is_notified_and_the_seat_is_held_for_him(alice_client, bob_client, charlie_client, bob):
    created = create_game(alice_client, seats=3, invite=["Bob"])
    assert Notification.objects.filter(user=bob, kind="invitation").count() == 1
    assert created["seats"][1]["invited"] == "bob"

    charlie_joins = charlie_client.post(f"/api/v1/games/{created['id']}/join/").json()
    assert charlie_joins["your_seat"] == 2

    bob_joins = bob_client.post(f"/api/v1/games/{created['id']}/join/").json()
    assert bob_joins["your_seat"] == 1
    assert bob_joins["status"] == "active"


def test_inviting_a_stranger_names_him(alice_client):
    response = alice_client.post("/api/v1/games/", {"kind": "scat", "seats": 2, "invite": ["nobody"]}, format="json")
    assert response.status_code == 400
    assert response.json()["details"]["invite"] == ["nobody"]


def test_an_invitation_can_be_declined_and_the_seat_opens(alice_client, bob_client, charlie_client):
    created = create_game(alice_client, seats=2, invite=["bob"])
    assert charlie_client.post(f"/api/v1/games/{created['id']}/join/").status_code == 409
    assert bob_client.post(f"/api/v1/games/{created['id']}/decline/").status_code == 200
    assert charlie_client.post(f"/api/v1/games/{created['id']}/join/").json()["status"] == "active"


def test_an_invite_link_lets_a_friend_take_the_reserved_seat(alice_client, bob_client, charlie_client):
    created = create_game(alice_client, seats=3, is_private=True)
    link = alice_client.post(f"/api/v1/games/{created['id']}/invitations/", {}, format="json").json()
    assert link["token"] in link["url"]

    # The game is private: without the token it does not exist for Bob.
    assert bob_client.get(f"/api/v1/games/{created['id']}/").status_code == 404
    joined = bob_client.post(f"/api/v1/games/{created['id']}/join/", {"invite_token": link["token"]}, format="json")
    assert joined.status_code == 200
    assert joined.json()["your_seat"] == link["seat"]


def test_a_wrong_invite_token_is_refused(alice_client, bob_client):
    created = create_game(alice_client, seats=2)
    alice_client.post(f"/api/v1/games/{created['id']}/invitations/", {}, format="json")
    response = bob_client.post(f"/api/v1/games/{created['id']}/join/", {"invite_token": "forged"}, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "bad_invite"


def test_the_creator_can_start_early_and_empty_seats_are_dropped(alice_client, bob_client):
    created = create_game(alice_client, seats=4)
    bob_client.post(f"/api/v1/games/{created['id']}/join/")
    assert bob_client.post(f"/api/v1/games/{created['id']}/start/").status_code == 403
    started = alice_client.post(f"/api/v1/games/{created['id']}/start/").json()
    assert started["status"] == "active"
    assert started["num_seats"] == 2
    assert [s["username"] for s in started["seats"]] == ["alice", "bob"]


def test_a_game_cannot_start_alone(alice_client):
    created = create_game(alice_client, seats=3)
    response = alice_client.post(f"/api/v1/games/{created['id']}/start/")
    assert response.status_code == 409
    assert response.json()["code"] == "not_enough_players"


def test_leaving_frees_the_seat_and_the_creator_leaving_cancels(alice_client, bob_client):
    created = create_game(alice_client, seats=3)
    bob_client.post(f"/api/v1/games/{created['id']}/join/")
    assert bob_client.post(f"/api/v1/games/{created['id']}/leave/").json()["open_seats"] == 2
    assert alice_client.post(f"/api/v1/games/{created['id']}/leave/").json()["status"] == "aborted"


def test_my_games_list_puts_the_games_awaiting_me_first(alice_client, bob_client, alice):
    waiting_for_bob = started_two_player_game(alice_client, bob_client)
    first = started_two_player_game(alice_client, bob_client)
    awaiting_alice = [g for g in (waiting_for_bob, first) if g["to_act"] == 0]
    listed = alice_client.get("/api/v1/games/?player=alice").json()["results"]
    flags = [g["is_your_turn"] for g in listed]
    assert flags == sorted(flags, reverse=True)
    assert sum(flags) == len(awaiting_alice)


def test_lists_filter_by_kind_and_status(alice_client, bob_client):
    create_game(alice_client, kind="scattle", seats=2)
    started_two_player_game(alice_client, bob_client)
    assert [g["kind"] for g in alice_client.get("/api/v1/games/?kind=scattle").json()["results"]] == ["scattle"]
    assert [g["status"] for g in alice_client.get("/api/v1/games/?status=active").json()["results"]] == ["active"]
    bad = alice_client.get("/api/v1/games/?status=sleeping")
    assert bad.status_code == 400
    assert "status" in bad.json()["details"]


def test_private_games_stay_out_of_other_peoples_lists(alice_client, bob_client):
    create_game(alice_client, seats=2, is_private=True)
    assert bob_client.get("/api/v1/games/").json()["count"] == 0
    assert alice_client.get("/api/v1/games/").json()["count"] == 1


def test_spectators_see_no_hand(alice_client, bob_client, anon_client):
    detail = started_two_player_game(alice_client, bob_client)
    seen = game(anon_client, detail["id"])
    assert seen["hand"] is None and seen["your_seat"] is None and seen["legal_actions"] == []
    assert Game.objects.get(public_id=detail["id"]).seed not in str(seen)


def test_a_misspelt_field_in_a_new_game_is_named_not_ignored(alice_client):
    response = alice_client.post("/api/v1/games/", {"kind": "scattle", "seats": 2, "invites": ["bob"]}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert body["message"].startswith("invites: “invites” is not a field here")
    assert body["details"]["invites"][0].startswith("“invites” is not a field here; the fields are kind, seats")
