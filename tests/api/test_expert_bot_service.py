"""The expert bot in a game: the service hands it the seat's history, so it plays on into later hands
(where the view's deal events alone would be no history), and the game replays from its seed."""

from __future__ import annotations

import random

from django.core.management import call_command

from games import services
from games.engine import get_rules
from games.engine.scat_bots import choose
from games.models import Game, Move

from .helpers import create_game


def test_an_expert_bot_plays_scat_into_its_third_hand(alice_client, capsys):
    detail = create_game(alice_client, kind="scat", seats=2, bots=["expert"], options={"initial_tokens": 6})
    rules, rng = get_rules("scat"), random.Random(7)
    for _ in range(400):
        services.play_bot_moves(game_id=detail["id"])
        game = Game.objects.get(public_id=detail["id"])
        if game.state["hand_no"] >= 3 or game.status != "active":
            break
        state = rules.from_json(game.state)
        action = choose(state, 0, "good", rng)
        services.submit_move(game_id=game.public_id, user=game.creator, action=action, version=game.version)
    assert game.state["hand_no"] >= 3 or game.status == "finished"
    bot_moves = Move.objects.filter(game=game, seat=1, by_server="bot")
    assert bot_moves.count() >= 4
    assert {move.events[0]["type"] for move in bot_moves} <= {"draw_stock", "draw_discard", "discard", "knock"}
    call_command("verify_games")
    assert "0 inconsistent" in capsys.readouterr().out
