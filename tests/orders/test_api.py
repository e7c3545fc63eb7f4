"""GET, PUT and DELETE /api/v1/games/{id}/orders/: who may, what is checked, the error shape."""

from __future__ import annotations

import pytest

from games import services
from orders.models import StandingOrders

ROUTINE = [
    {"when": {"phase": "must_discard"}, "do": {"policy": "best_discard"}},
    {"when": {"someone_knocked": False}, "do": {"type": "draw_stock"}},
]


@pytest.fixture
def game(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    return game


def url(game) -> str:
    return f"/api/v1/games/{game.public_id}/orders/"


def test_a_player_sets_reads_and_cancels_their_orders(game, alice_client):
    assert alice_client.get(url(game)).json()["code"] == "no_orders"
    answer = alice_client.put(url(game), {"rules": ROUTINE, "limit": {"turns": 5}}, format="json")
    assert answer.status_code == 200, answer.content
    body = alice_client.get(url(game)).json()
    assert body["rules"] == ROUTINE and body["limit"] == {"turns": 5} and body["active"] is True
    assert body["ended"] is None and body["turns_played"] == 0
    assert alice_client.delete(url(game)).status_code == 204
    assert alice_client.get(url(game)).status_code == 404
    assert alice_client.delete(url(game)).status_code == 204  # cancelling nothing is no error


def test_orders_are_private_to_their_player(game, alice_client, bob_client, charlie_client):
    alice_client.put(url(game), {"rules": ROUTINE, "limit": {"until_i_move": True}}, format="json")
    assert bob_client.get(url(game)).status_code == 404  # Bob has none; he never sees Alice's
    answer = charlie_client.get(url(game))
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"
    assert charlie_client.put(url(game), {"preset": "routine", "limit": {"turns": 1}}, format="json").status_code == 403


def test_a_ready_made_set_in_one_click(game, alice_client):
    answer = alice_client.put(url(game), {"preset": "routine_knock_28", "limit": {"turns": 3}}, format="json")
    assert answer.status_code == 200
    assert answer.json()["rules"][0]["do"] == {"type": "knock"}
    wrong = alice_client.put(url(game), {"preset": "draw_and_discard", "limit": {"turns": 3}}, format="json")
    assert wrong.status_code == 400 and "preset" in wrong.json()["details"]  # a Scattle set


def test_errors_name_the_rule_and_the_field(game, alice_client):
    rules = [ROUTINE[0], {"when": {"discard_in": ["KS", "ZZ"]}, "do": {"type": "meld", "cards": ["3H"]}}]
    answer = alice_client.put(url(game), {"rules": rules, "limit": {"turns": 5}}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "bad_orders" and set(body) == {"code", "message", "details"}
    assert sorted(body["details"]) == ["rules[1].do.type", "rules[1].when.discard_in"]


def test_the_good_policy_is_for_unrated_games_only(alice, bob, alice_client):
    good = {"rules": [{"when": {}, "do": {"policy": "good"}}], "limit": {"turns": 5}}
    rated = services.create_game(creator=alice, kind="scat", num_seats=2)
    answer = alice_client.put(url(rated), good, format="json")
    assert answer.status_code == 400 and "rules[0].do.policy" in answer.json()["details"]
    unrated = services.create_game(creator=alice, kind="scat", num_seats=2, rated=False)
    assert alice_client.put(url(unrated), good, format="json").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"rules": ROUTINE},
        {"rules": ROUTINE, "limit": {}},
        {"rules": ROUTINE, "limit": {"turns": 0}},
        {"rules": ROUTINE, "limit": {"turns": 2, "until_i_move": True}},
        {"rules": ROUTINE, "limit": {"until_i_move": False}},
        {"rules": ROUTINE, "limit": {"until": "2001-01-01T00:00:00Z"}},
        {"rules": ROUTINE, "limit": {"until": "soon"}},
        {"rules": ROUTINE, "preset": "routine", "limit": {"turns": 1}},
        {"limit": {"turns": 1}},
        {"rules": ROUTINE * 11, "limit": {"turns": 1}},
        {"rules": "draw", "limit": {"turns": 1}},
        {"rules": [{"when": {"phase": "turn_start"}, "do": {"policy": "x" * 10_000}}], "limit": {"turns": 1}},
        {"rules": ROUTINE, "limit": {"turns": 1}, "extra": 1},
        [],
    ],
)
def test_bad_bodies_are_400_in_the_error_shape(game, alice_client, body):
    answer = alice_client.put(url(game), body, format="json")
    assert answer.status_code == 400, answer.content
    assert set(answer.json()) == {"code", "message", "details"}
    assert not StandingOrders.objects.exists()


def test_a_finished_game_takes_no_orders(game, alice, alice_client):
    services.resign(game_id=game.public_id, user=alice)
    answer = alice_client.put(url(game), {"preset": "routine", "limit": {"turns": 1}}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "game_over"


def test_a_hidden_game_is_404(alice, bob, charlie_client):
    private = services.create_game(creator=alice, kind="scat", num_seats=2, invite=[bob.username], is_private=True)
    assert charlie_client.get(url(private)).status_code == 404
    assert charlie_client.put(
        url(private), {"preset": "routine", "limit": {"turns": 1}}, format="json"
    ).status_code == (404)


def test_the_schema_documents_the_endpoint(client):
    schema = client.get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/v1/games/{game_id}/orders/"]
    assert {"get", "put", "delete"} <= set(path)
