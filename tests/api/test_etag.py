"""GET /api/v1/games/{id}/ answers with an ETag of the viewer and the game's revision, and 304 to a
matching If-None-Match while nothing that viewer sees has changed."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games import vacations
from tests.api.helpers import create_game, move, started_two_player_game


def fetch(client, game_id: str, etag: str | None = None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag is not None else {}
    return client.get(f"/api/v1/games/{game_id}/", **headers)


@pytest.fixture
def game(alice_client, bob_client) -> dict:
    return started_two_player_game(alice_client, bob_client)


def test_the_detail_has_a_private_etag_and_a_matching_request_is_304(alice_client, game):
    first = fetch(alice_client, game["id"])
    assert first.status_code == 200
    assert first["ETag"].startswith('"') and first["ETag"].endswith('"')
    assert "private" in first["Cache-Control"]
    assert {"Authorization", "Cookie"} <= {v.strip() for v in first["Vary"].split(",")}

    again = fetch(alice_client, game["id"], first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_a_weak_or_listed_tag_matches_too(alice_client, game):
    etag = fetch(alice_client, game["id"])["ETag"]
    assert fetch(alice_client, game["id"], f"W/{etag}").status_code == 304
    assert fetch(alice_client, game["id"], f'"other", {etag}').status_code == 304
    assert fetch(alice_client, game["id"], '"other"').status_code == 200


def test_a_move_changes_the_tag(alice_client, bob_client, game):
    clients = {0: alice_client, 1: bob_client}
    etags = {seat: fetch(client, game["id"])["ETag"] for seat, client in clients.items()}
    mover = clients[game["to_act"]]
    mine = fetch(mover, game["id"]).json()
    assert move(mover, game["id"], mine["legal_actions"][0], mine["version"]).status_code == 201
    for seat, client in clients.items():
        answer = fetch(client, game["id"], etags[seat])
        assert answer.status_code == 200, seat
        assert answer["ETag"] != etags[seat]


def test_each_viewer_has_a_tag_of_their_own(alice_client, bob_client, anon_client, game):
    tags = [fetch(client, game["id"])["ETag"] for client in (alice_client, bob_client, anon_client)]
    assert len(set(tags)) == 3
    # Bob's tag says nothing about what Alice sees: she gets the whole body.
    assert fetch(alice_client, game["id"], tags[1]).status_code == 200


def test_a_seat_taken_changes_the_tag(alice_client, bob_client):
    created = create_game(alice_client, seats=3)
    etag = fetch(alice_client, created["id"])["ETag"]
    assert bob_client.post(f"/api/v1/games/{created['id']}/join/", format="json").status_code == 200
    answer = fetch(alice_client, created["id"], etag)
    assert answer.status_code == 200
    assert answer.json()["players"][:2] == ["alice", "bob"]


def test_a_private_game_is_404_whatever_the_tag(alice_client, charlie_client):
    created = create_game(alice_client, is_private=True)
    etag = fetch(alice_client, created["id"])["ETag"]
    answer = fetch(charlie_client, created["id"], etag)
    assert answer.status_code == 404
    assert answer.json()["code"] == "not_found"


def test_a_deadline_moved_by_a_vacation_changes_the_tag(alice_client, bob_client, game, alice, bob):
    waiting = bob_client if game["to_act"] == 0 else alice_client
    on_vacation = alice if game["to_act"] == 0 else bob
    etag = fetch(waiting, game["id"])["ETag"]
    vacations.start_vacation(user=on_vacation, until=timezone.now() + datetime.timedelta(days=2))
    answer = fetch(waiting, game["id"], etag)
    assert answer.status_code == 200
    assert answer.json()["deadline"] != game["deadline"]
