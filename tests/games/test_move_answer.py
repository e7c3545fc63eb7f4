"""A move's answer is built from what the move holds (the engine's new state, the locked game and its
seats), and says exactly what reading the game again would say."""

from __future__ import annotations

import random

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import get_rules
from games.models import Game
from tests.api.helpers import game, move, started_two_player_game


def test_every_answer_is_the_detail_read_again(alice_client, bob_client):
    detail = started_two_player_game(alice_client, bob_client)
    clients = {0: alice_client, 1: bob_client}
    rng = random.Random(7)
    for _ in range(60):
        if detail["status"] != "active":
            break
        client = clients[detail["to_act"]]
        mine = game(client, detail["id"])
        response = move(client, detail["id"], rng.choice(mine["legal_actions"]), mine["version"])
        assert response.status_code == 201, response.json()
        answer = response.json()["game"]
        again = game(client, detail["id"])
        for body in (answer, again):
            for seat in body["seats"]:
                seat.pop("seconds_left", None)
            body.pop("seconds_left", None)
        assert answer == again
        detail = answer


def test_the_answer_reads_the_held_state_not_the_stored_one_again(alice_client, bob_client, alice, bob):
    detail = started_two_player_game(alice_client, bob_client)
    user = alice if detail["to_act"] == 0 else bob
    action = next(a for a in game(alice_client if user == alice else bob_client, detail["id"])["legal_actions"])
    result = services.submit_move(game_id=detail["id"], user=user, action=action, version=detail["version"])
    rules = get_rules(result.game.kind)
    held = result.game.engine_state(rules)
    assert held == rules.from_json(result.game.state)
    with CaptureQueriesContext(connection):
        assert result.game.engine_state(rules) is held  # no second reading
    # A game read from the database, or whose stored state changed since, is read from its stored state.
    fresh = Game.objects.get(pk=result.game.pk)
    assert fresh.engine_state(rules) is not held and fresh.engine_state(rules) == held
    result.game.state = dict(result.game.state)
    assert result.game.engine_state(rules) is not held
