"""GET /api/v1/games/{id}/advice/ and /review/: the advisor for the player to act in an unrated game
with advice on, and each player's review once the game is over; never for anyone else."""

from __future__ import annotations

import pytest

from games import advice, services
from games.models import Review
from tests.api.helpers import create_game, move, started_two_player_game
from tests.api.test_secrets import cards_in

pytestmark = pytest.mark.usefixtures("own_advisor_slots")


@pytest.fixture(params=["scat", "scattle"])
def advised(request, alice_client, bob_client) -> tuple[dict, dict]:
    game = started_two_player_game(alice_client, bob_client, kind=request.param, rated=False, advice=True)
    clients = {0: alice_client, 1: bob_client}
    return game, clients


def test_the_player_to_act_gets_a_figure_for_each_legal_action(advised):
    game, clients = advised
    mover = clients[game["to_act"]]
    detail = mover.get(f"/api/v1/games/{game['id']}/").json()
    answer = mover.get(f"/api/v1/games/{game['id']}/advice/")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["version"] == detail["version"]
    assert [entry["action"] for entry in body["actions"]] == detail["legal_actions"]
    measure = "loss_chance" if game["kind"] == "scat" else "expected_points"
    assert body["measure"] == measure
    assert all(measure in entry for entry in body["actions"])
    if measure == "loss_chance":
        assert all(0 <= entry["loss_chance"] <= 1 for entry in body["actions"])
    assert 0 <= body["best"] < len(body["actions"])
    # Nothing in it the player could not see.
    assert cards_in(body) <= cards_in(detail)
    # The same position, the same advice.
    assert mover.get(f"/api/v1/games/{game['id']}/advice/").json() == body


def test_advice_is_for_the_player_to_act_only(advised, charlie_client, anon_client):
    game, clients = advised
    waiting = clients[1 - game["to_act"]]
    for client in (waiting, charlie_client, anon_client):
        answer = client.get(f"/api/v1/games/{game['id']}/advice/")
        assert answer.status_code == 403
        assert answer.json()["code"] == "not_your_turn"


def test_no_advice_in_a_game_without_it(alice_client, bob_client):
    game = started_two_player_game(alice_client, bob_client, rated=False)
    mover = {0: alice_client, 1: bob_client}[game["to_act"]]
    answer = mover.get(f"/api/v1/games/{game['id']}/advice/")
    assert answer.status_code == 403
    assert answer.json()["code"] == "advice_off"


def test_a_private_game_is_404_to_outsiders(alice_client, charlie_client):
    created = create_game(alice_client, rated=False, advice=True, is_private=True)
    for path in ("advice", "review"):
        answer = charlie_client.get(f"/api/v1/games/{created['id']}/{path}/")
        assert answer.status_code == 404, path


def play_a_few_moves(game: dict, clients: dict, count: int) -> None:
    for _ in range(count):
        detail = clients[0].get(f"/api/v1/games/{game['id']}/").json()
        if detail["status"] != "active":
            return
        mover = clients[detail["to_act"]]
        mine = mover.get(f"/api/v1/games/{game['id']}/").json()
        assert move(mover, game["id"], mine["legal_actions"][0], mine["version"]).status_code == 201


def test_a_review_after_the_game_for_each_player(alice_client, bob_client, charlie_client, alice, bob):
    game = started_two_player_game(alice_client, bob_client)
    clients = {0: alice_client, 1: bob_client}
    assert alice_client.get(f"/api/v1/games/{game['id']}/review/").json()["code"] == "game_not_finished"
    play_a_few_moves(game, clients, 8)
    assert alice_client.post(f"/api/v1/games/{game['id']}/resign/", format="json").status_code == 200
    # The end of the game started a review for each player; the task has not run.
    assert set(Review.objects.filter(game__public_id=game["id"]).values_list("user", flat=True)) == {alice.pk, bob.pk}
    pending = bob_client.get(f"/api/v1/games/{game['id']}/review/")
    assert pending.status_code == 202
    assert pending.json()["status"] == "pending"

    for review in Review.objects.filter(game__public_id=game["id"]):
        while advice.review_step(review.pk):
            pass
    for client in (alice_client, bob_client):
        answer = client.get(f"/api/v1/games/{game['id']}/review/")
        assert answer.status_code == 200
        body = answer.json()
        assert body["status"] == "ready"
        assert body["turns"], "no decision reviewed"
        assert all(turn["cost"] >= 0 for turn in body["turns"])
        assert sum(turn["costly"] for turn in body["turns"]) <= 3
        assert all(turn["best"] == turn["taken"] or turn["cost"] >= 0 for turn in body["turns"])
    assert charlie_client.get(f"/api/v1/games/{game['id']}/review/").json()["code"] == "not_seated"


def test_a_review_split_over_tasks_equals_one_made_at_once(alice_client, bob_client, monkeypatch):
    game = started_two_player_game(alice_client, bob_client, kind="scattle")
    play_a_few_moves(game, {0: alice_client, 1: bob_client}, 30)
    alice_client.post(f"/api/v1/games/{game['id']}/resign/", format="json")
    review = Review.objects.get(game__public_id=game["id"], seat=0)
    whole, _ = advice.review_turns(review.game, 0)
    monkeypatch.setattr(advice, "REVIEW_DECISIONS_PER_TASK", 2)
    steps = 1
    while advice.review_step(review.pk):
        steps += 1
    review.refresh_from_db()
    assert steps > 1
    assert [{k: v for k, v in t.items() if k != "costly"} for t in review.turns] == whole


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_an_expert_computer_player_takes_its_turns(alice_client, kind):
    created = create_game(alice_client, kind=kind, bots=["expert"])
    assert created["status"] == "active"
    game_id = created["id"]
    for _ in range(6):
        detail = alice_client.get(f"/api/v1/games/{game_id}/").json()
        if detail["status"] != "active":
            break
        if detail["is_your_turn"]:
            assert move(alice_client, game_id, detail["legal_actions"][0], detail["version"]).status_code == 201
        else:
            assert services.play_bot_moves(game_id=game_id) > 0
    moves = alice_client.get(f"/api/v1/games/{game_id}/moves/").json()["results"]
    assert any(m["by_server"] == "bot" for m in moves)
    assert alice_client.get(f"/api/v1/games/{game_id}/").json()["seats"][1]["bot_level"] == "expert"
