import pytest
from django.core.management import CommandError, call_command

from games import services
from games.engine import get_rules
from games.models import Game, Move

from .helpers import create_game


@pytest.fixture
def bot_game(alice_client):
    """A Scat game between Alice and a bot, in which both have moved."""
    detail = create_game(alice_client, kind="scat", seats=2, bots=["good"])
    rules = get_rules("scat")
    for _ in range(20):
        services.play_bot_moves(game_id=detail["id"])
        game = Game.objects.get(public_id=detail["id"])
        if game.version >= 4 or game.status != "active":
            break
        action = rules.legal_actions(rules.from_json(game.state), 0)[0]
        services.submit_move(game_id=game.public_id, user=game.creator, action=action, version=game.version)
    assert game.version >= 2
    return game


def test_verify_games_finds_every_untouched_game_consistent(bot_game, capsys):
    call_command("verify_games")
    assert "checked 1 games, 0 inconsistent" in capsys.readouterr().out


def test_verify_games_catches_a_tampered_snapshot(bot_game, capsys):
    state = bot_game.state
    hand = state["hands"][0]
    hand[0], state["stock"][0] = state["stock"][0], hand[0]
    Game.objects.filter(pk=bot_game.pk).update(state=state)
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert f"INCONSISTENT {bot_game.public_id}" in capsys.readouterr().out


def test_verify_games_catches_a_lost_move(bot_game, capsys):
    Move.objects.filter(game=bot_game, seq=1).delete()
    with pytest.raises(CommandError):
        call_command("verify_games")
    assert "without gaps" in capsys.readouterr().out
