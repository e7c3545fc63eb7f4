"""Moves through the API: the checks in the contract's order, idempotency, history, resignation."""

import pytest

from games.models import Game, Move

from .helpers import create_game, game, move, started_two_player_game


@pytest.fixture
def table(alice_client, bob_client):
    """A running two-player Scat game, with the clients by seat."""
    detail = started_two_player_game(alice_client, bob_client)
    clients = {0: alice_client, 1: bob_client}
    return detail["id"], clients


def current(table):
    game_id, clients = table
    detail = game(clients[0], game_id)
    return detail, clients[detail["to_act"]], clients[1 - detail["to_act"]]


def test_the_player_to_act_draws_and_discards(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    mine = game(mover, game_id)
    assert {"type": "draw_stock"} in mine["legal_actions"]

    drawn = move(mover, game_id, {"type": "draw_stock"}, detail["version"])
    assert drawn.status_code == 201, drawn.json()
    body = drawn.json()
    assert body["move"]["seq"] == detail["version"] + 1
    assert len(body["game"]["hand"]) == 4
    discard = next(a for a in body["game"]["legal_actions"] if a["type"] == "discard")
    assert move(mover, game_id, discard, body["game"]["version"]).status_code == 201


def test_a_malformed_body_is_400_before_anything_else(charlie_client, table):
    game_id, _ = table
    response = charlie_client.post(f"/api/v1/games/{game_id}/moves/", {"action": "draw"}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"code", "message", "details"}
    assert "action" in response.json()["details"]


def test_an_unknown_game_is_404(alice_client):
    response = move(alice_client, "no-such-game", {"type": "draw_stock"}, 0)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_private_game_is_404_to_outsiders_even_for_moves(alice_client, bob_client, charlie_client):
    created = create_game(alice_client, seats=2, invite=["bob"], is_private=True)
    bob_client.post(f"/api/v1/games/{created['id']}/join/")
    assert move(charlie_client, created["id"], {"type": "draw_stock"}, 0).status_code == 404


def test_a_player_without_a_seat_is_403(charlie_client, table):
    game_id, _ = table
    response = move(charlie_client, game_id, {"type": "draw_stock"}, 999)
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"


def test_a_stale_version_is_409_even_when_it_is_not_your_turn(table):
    game_id, _ = table
    detail, _mover, other = current(table)
    response = move(other, game_id, {"type": "draw_stock"}, detail["version"] + 7)
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["details"]["version"] == detail["version"]


def test_moving_out_of_turn_is_403(table):
    game_id, _ = table
    detail, _mover, other = current(table)
    response = move(other, game_id, {"type": "draw_stock"}, detail["version"])
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_turn"


def test_an_illegal_action_is_400_and_says_why(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    response = move(mover, game_id, {"type": "discard", "card": "7S"}, detail["version"])
    assert response.status_code == 400
    assert response.json()["message"]
    assert Move.objects.count() == 0


def test_a_card_that_is_no_card_is_400(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    mover_view = game(mover, game_id)
    move(mover, game_id, {"type": "draw_stock"}, detail["version"])
    response = move(mover, game_id, {"type": "discard", "card": "ZZ"}, mover_view["version"] + 1)
    assert response.status_code == 400


def test_a_retry_with_the_same_idempotency_key_returns_the_first_answer(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    first = move(mover, game_id, {"type": "draw_stock"}, detail["version"], HTTP_IDEMPOTENCY_KEY="k-1")
    again = move(mover, game_id, {"type": "draw_stock"}, detail["version"], HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["move"] == first.json()["move"]
    assert Move.objects.count() == 1


def test_reusing_an_idempotency_key_for_another_action_is_409(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    move(mover, game_id, {"type": "draw_stock"}, detail["version"], HTTP_IDEMPOTENCY_KEY="k-2")
    response = move(mover, game_id, {"type": "draw_discard"}, detail["version"], HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_reused"


def test_history_hides_the_card_another_player_drew_from_the_stock(table):
    game_id, _ = table
    detail, mover, other = current(table)
    move(mover, game_id, {"type": "draw_stock"}, detail["version"])
    mover_history = mover.get(f"/api/v1/games/{game_id}/moves/").json()["results"]
    other_history = other.get(f"/api/v1/games/{game_id}/moves/").json()["results"]
    assert mover_history[0]["action"] == {"type": "draw_stock"}
    secret = [e for e in Move.objects.get().events if "card" in e]
    assert secret
    card = secret[0]["card"]
    assert card in str(mover_history)
    assert card not in str(other_history)


def test_history_after_n_returns_only_later_moves(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    first = move(mover, game_id, {"type": "draw_stock"}, detail["version"]).json()
    discard = next(a for a in first["game"]["legal_actions"] if a["type"] == "discard")
    move(mover, game_id, discard, first["game"]["version"])
    later = mover.get(f"/api/v1/games/{game_id}/moves/?after=1").json()["results"]
    assert [m["seq"] for m in later] == [2]


def test_resigning_a_two_player_game_ends_it_and_reveals_the_seed(table):
    game_id, clients = table
    response = clients[1].post(f"/api/v1/games/{game_id}/resign/")
    assert response.status_code == 200
    detail = response.json()
    assert detail["status"] == "finished"
    assert detail["outcome"]["reason"] == "resignation"
    assert [s["place"] for s in detail["seats"]] == [1, 2]
    assert detail["fairness"]["seed"] == Game.objects.get(public_id=game_id).seed

    verified = clients[0].get(f"/api/v1/games/{game_id}/verify/").json()
    assert verified["seed_matches_hash"] is True
    assert verified["replay_matches"] is True
    assert len(verified["opening_deal"]["hands"]) == 2


def test_moves_after_the_end_are_409(table):
    game_id, clients = table
    clients[1].post(f"/api/v1/games/{game_id}/resign/")
    version = game(clients[0], game_id)["version"]
    response = move(clients[0], game_id, {"type": "draw_stock"}, version)
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"


def test_the_turns_list_shows_who_moved_and_how_long(table):
    game_id, _ = table
    detail, mover, _other = current(table)
    drawn = move(mover, game_id, {"type": "draw_stock"}, detail["version"]).json()
    discard = next(a for a in drawn["game"]["legal_actions"] if a["type"] == "discard")
    move(mover, game_id, discard, drawn["game"]["version"])
    page = mover.get(f"/api/v1/games/{game_id}/turns/").json()
    [finished], running = page["results"], page["current"]
    assert (finished["seat"], running["seat"]) == (detail["to_act"], 1 - detail["to_act"])
    assert finished["ended_at"] == running["started_at"] and running["ended_at"] is None
    assert running["deadline"] is not None
    assert all(t["seconds"] >= 0 and t["timed_out"] is False for t in (finished, running))


@pytest.mark.parametrize("extra", [{"card": "AS"}, {"note": "I hold the ace of spades"}])
def test_an_action_with_keys_it_does_not_take_is_refused_and_never_stored(table, extra):
    game_id, _ = table
    detail, mover, other = current(table)
    response = move(mover, game_id, {"type": "draw_stock", **extra}, detail["version"])
    assert response.status_code == 400
    assert response.json()["code"] == "bad_action"
    assert f'remove "{next(iter(extra))}"' in response.json()["message"]
    assert not Move.objects.filter(game__public_id=game_id).exists()
    assert other.get(f"/api/v1/games/{game_id}/moves/").json()["results"] == []
