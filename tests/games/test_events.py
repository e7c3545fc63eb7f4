"""Each change to a game is announced as one typed event naming the game, the change and the revision
it leads to; the rooms above hear it inside the change's transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest

from config import events
from games import services
from games.engine import get_rules
from games.events import (
    GameChanged,
    GameEvent,
    GameFinished,
    GameStarted,
    InvitationsAnswered,
    InvitationsSent,
    MoveMade,
    PlayerJoined,
    PlayerResigned,
    TurnBegan,
    TurnTimedOut,
)
from games.models import Game, GameStatus
from tests.accounts.helpers import drawer


@pytest.fixture
def announced(monkeypatch):
    """Every game event published, in order (the real subscribers still run)."""
    seen: list[GameEvent] = []
    publish = events.publish

    def recording(event):
        if isinstance(event, GameEvent):
            seen.append(event)
        publish(event)

    monkeypatch.setattr("games.services.publish", recording)
    return seen


def kinds(seen) -> list[str]:
    return [type(event).__name__ for event in seen]


def test_an_invitation_a_join_and_the_start_are_announced_in_order(alice, bob, announced):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=[bob.username])
    services.join_game(game_id=game.public_id, user=bob)

    assert kinds(announced) == ["InvitationsSent", "InvitationsAnswered", "GameStarted", "TurnBegan"]
    sent, answered, started, began = announced
    assert isinstance(sent, InvitationsSent) and sent.user_ids == [bob.pk]
    assert isinstance(answered, InvitationsAnswered) and answered.user_ids == [bob.pk]
    assert isinstance(started, GameStarted) and started.started_by == bob.pk
    assert started.viewers == sorted([alice.pk, bob.pk])
    game.refresh_from_db()
    assert started.revision == game.revision
    assert isinstance(began, TurnBegan) and began.seat.index == game.to_act_seat


def test_a_join_that_leaves_seats_free_is_a_player_joining(alice, bob, announced):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    services.join_game(game_id=game.public_id, user=bob)

    joined = announced[-1]
    assert isinstance(joined, PlayerJoined) and isinstance(joined, GameChanged)
    assert joined.user_id == bob.pk and joined.revision == Game.objects.get(pk=game.pk).revision


def test_a_move_is_announced_with_the_revision_it_leads_to(alice, bob, announced):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=[bob.username])
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    players = {0: alice, 1: bob}
    announced.clear()

    rules = get_rules("scat")
    action = drawer(rules.legal_actions(rules.from_json(game.state), game.to_act_seat))
    result = services.submit_move(
        game_id=game.public_id, user=players[game.to_act_seat], action=action, version=game.version
    )

    moved = announced[0]
    assert type(moved) is MoveMade
    assert moved.move == result.move and moved.moves == [result.move]
    assert moved.revision == result.move.revision == Game.objects.get(pk=game.pk).revision


def test_a_resignation_ends_the_game_and_both_are_announced(alice, bob, announced):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=[bob.username])
    services.join_game(game_id=game.public_id, user=bob)
    announced.clear()

    services.resign(game_id=game.public_id, user=bob)

    assert kinds(announced) == ["PlayerResigned", "GameFinished"]
    resigned, finished = announced
    assert isinstance(resigned, PlayerResigned) and resigned.move.action == {"type": "resign"}
    assert isinstance(finished, GameFinished) and finished.revision == resigned.revision
    assert finished.game.status == GameStatus.FINISHED and finished.outcome == finished.game.outcome


def test_a_turn_played_for_a_player_out_of_time_is_a_timeout(alice, bob, announced):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=[bob.username], move_time_limit=60)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    announced.clear()

    assert services.apply_timeout(game_id=game.public_id, now=game.deadline + timedelta(seconds=1))

    timed_out = [event for event in announced if isinstance(event, MoveMade)]
    assert timed_out and all(type(event) is TurnTimedOut for event in timed_out)
    assert all(event.move.by_server == "timeout" for event in timed_out)
