"""Standing orders played by the server: limits, hand moves, cancelling, timeouts, notices, history."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import translation

from games import selectors, services, vacations
from games.engine import get_rules
from games.models import Game, Move, Turn
from notifications.models import Notification
from notifications.texts import text_of
from orders import services as orders
from orders.models import StandingOrders
from tests.conftest import make_user

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DRAW_AND_THROW = [
    {"when": {"phase": "turn_start"}, "do": {"type": "draw_stock"}},
    {"when": {"phase": "must_discard"}, "do": {"policy": "best_discard"}},
]


@pytest.fixture
def travel():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def scat_game(alice, bob, **kwargs) -> Game:
    """Alice and Bob at two-seat Scat; Alice is to act."""
    game = services.create_game(creator=alice, kind="scat", num_seats=2, **kwargs)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    if game.seats.get(index=game.to_act_seat).user != alice:
        hand_turn(game, bob)
    return game


def hand_turn(game: Game, user) -> Game:
    """`user` draws from the stock and discards the first card they may, by hand."""
    game.refresh_from_db()
    rules = get_rules(game.kind)
    seat = game.to_act_seat
    assert game.seats.get(index=seat).user == user
    services.submit_move(game_id=game.public_id, user=user, action={"type": "draw_stock"}, version=game.version)
    game.refresh_from_db()
    while game.to_act_seat == seat and game.status == "active":
        legal = rules.legal_actions(rules.from_json(game.state), seat)
        action = next((a for a in legal if a["type"] == "discard"), legal[0])
        services.submit_move(game_id=game.public_id, user=user, action=action, version=game.version)
        game.refresh_from_db()
    return game


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).index


def test_orders_play_the_turn_as_the_server_and_everyone_sees_by_order(alice, bob):
    game = scat_game(alice, bob)
    orders.set_orders(game_id=game.public_id, user=alice, rules=DRAW_AND_THROW, limit={"turns": 3})
    assert orders.play_orders(game_id=game.public_id) == 2

    game.refresh_from_db()
    moves = list(Move.objects.filter(game=game).order_by("seq"))[-2:]
    assert [m.by_server for m in moves] == ["standing_order", "standing_order"]
    assert [m.action["type"] for m in moves] == ["draw_stock", "discard"]
    assert game.seats.get(index=game.to_act_seat).user == bob
    for viewer in (alice, bob, None):
        shown = selectors.move_history(game, viewer, moves)
        assert [m["by_server"] for m in shown] == ["standing_order", "standing_order"]
    kept = StandingOrders.objects.get(seat__user=alice)
    assert kept.turns_played == 1 and [p["version"] for p in kept.played] == [m.seq for m in moves]
    assert kept.is_active


def test_orders_end_at_their_turn_limit_and_the_player_is_told(alice, bob):
    game = scat_game(alice, bob)
    orders.set_orders(game_id=game.public_id, user=alice, rules=DRAW_AND_THROW, limit={"turns": 2})
    orders.play_orders(game_id=game.public_id)
    before = Notification.objects.filter(user=alice, kind="your_turn", game=game).count()
    hand_turn(game, bob)
    assert Notification.objects.filter(user=alice, kind="your_turn", game=game).count() == before  # held back
    orders.play_orders(game_id=game.public_id)
    hand_turn(game, bob)
    assert StandingOrders.objects.get(seat__user=alice).ended == "limit"
    # The turn that began with the orders ended is announced as usual (no task plays it).
    told = Notification.objects.filter(user=alice, kind="your_turn", game=game).latest("pk")
    assert orders.play_orders(game_id=game.public_id) == 0
    assert told.payload["game"] == game.public_id
    assert Move.objects.filter(game=game, by_server="standing_order").count() == 4


def test_when_no_rule_matches_the_player_is_told_with_what_the_orders_did(alice, bob):
    game = scat_game(alice, bob)
    draw_only = [{"when": {"phase": "turn_start"}, "do": {"type": "draw_stock"}}]
    orders.set_orders(game_id=game.public_id, user=alice, rules=draw_only, limit={"until_i_move": True})
    before = Notification.objects.filter(user=alice, kind="your_turn", game=game).count()
    assert orders.play_orders(game_id=game.public_id) == 1  # the draw at once; the discard is hers
    # Set on her own turn, she is there: no second "your turn" for it.
    assert Notification.objects.filter(user=alice, kind="your_turn", game=game).count() == before
    game.refresh_from_db()
    rules = get_rules("scat")
    throw = rules.legal_actions(rules.from_json(game.state), seat_of(game, alice))[0]
    services.submit_move(game_id=game.public_id, user=alice, action=throw, version=game.version)  # by hand
    assert orders.orders_for(game=game, user=alice).ended == "hand_move"

    orders.set_orders(game_id=game.public_id, user=alice, rules=draw_only, limit={"until_i_move": True})
    hand_turn(game, bob)
    assert orders.play_orders(game_id=game.public_id) == 1  # the draw; the discard is hers
    told = Notification.objects.filter(user=alice, kind="your_turn", game=game).latest("pk")
    assert told.payload["orders_played"] == 1
    assert text_of(told) == "Your turn in Scat with bob. Your standing orders played 1 move first."
    with translation.override("fa"):
        assert text_of(told) == "در بازی اسکات با bob نوبت شماست. دستورهای دائمی شما پیش از آن \u06f1 حرکت انجام دادند."
    assert orders.play_orders(game_id=game.public_id) == 0  # run again: nothing more, no second notice
    assert Notification.objects.filter(user=alice, kind="your_turn", game=game).latest("pk") == told


def test_a_hand_move_ends_the_orders_before_they_play_again(alice, bob):
    game = scat_game(alice, bob)
    draw_only = [{"when": {"phase": "turn_start"}, "do": {"type": "draw_stock"}}]
    orders.set_orders(game_id=game.public_id, user=alice, rules=draw_only, limit={"turns": 10})
    orders.play_orders(game_id=game.public_id)
    game.refresh_from_db()
    rules = get_rules("scat")
    legal = rules.legal_actions(rules.from_json(game.state), seat_of(game, alice))
    services.submit_move(game_id=game.public_id, user=alice, action=legal[0], version=game.version)
    hand_turn(game, bob)
    assert orders.play_orders(game_id=game.public_id) == 0
    assert StandingOrders.objects.get(seat__user=alice).ended == "hand_move"


def test_orders_end_at_their_time(travel, alice, bob):
    game = scat_game(alice, bob)
    until = START + timedelta(hours=1)
    orders.set_orders(game_id=game.public_id, user=alice, rules=DRAW_AND_THROW, limit={"until": until})
    assert orders.play_orders(game_id=game.public_id) == 2
    hand_turn(game, bob)
    travel.move_to(until + timedelta(seconds=1))
    assert orders.play_orders(game_id=game.public_id) == 0
    assert StandingOrders.objects.get(seat__user=alice).ended == "limit"


def test_cancelled_orders_play_nothing(alice, bob):
    game = scat_game(alice, bob)
    orders.set_orders(game_id=game.public_id, user=alice, rules=DRAW_AND_THROW, limit={"turns": 3})
    orders.cancel_orders(game_id=game.public_id, user=alice)
    assert orders.play_orders(game_id=game.public_id) == 0
    assert not StandingOrders.objects.filter(seat__user=alice).exists()


def test_a_timeout_never_preempts_a_matching_order(travel, alice, bob):
    game = scat_game(alice, bob)
    orders.set_orders(game_id=game.public_id, user=alice, rules=DRAW_AND_THROW, limit={"turns": 5})
    # The orders' task has not run (a worker busy, a broker down) and the deadline has passed.
    game.refresh_from_db()
    travel.move_to(game.deadline + timedelta(seconds=1))
    assert services.apply_timeout(game_id=game.public_id) is True
    game.refresh_from_db()
    assert not Move.objects.filter(game=game, by_server="timeout").exists()
    assert Move.objects.filter(game=game, by_server="standing_order").count() == 2
    assert not Turn.objects.filter(game=game, timed_out=True).exists()
    assert game.seats.get(user=alice).timeouts_in_row == 0


def test_a_timeout_still_falls_when_no_order_matches(travel, alice, bob):
    game = scat_game(alice, bob)
    draw_only = [{"when": {"phase": "turn_start"}, "do": {"type": "draw_stock"}}]
    orders.set_orders(game_id=game.public_id, user=alice, rules=draw_only, limit={"turns": 5})
    game.refresh_from_db()
    travel.move_to(game.deadline + timedelta(seconds=1))
    assert services.apply_timeout(game_id=game.public_id) is True
    moves = list(Move.objects.filter(game=game).order_by("seq"))[-2:]
    assert [m.by_server for m in moves] == ["standing_order", "timeout"]
    assert Turn.objects.filter(game=game, timed_out=True).count() == 1


def test_the_game_end_ends_the_orders(alice, bob):
    game = scat_game(alice, bob, options={"initial_tokens": 1, "on_the_county": False})
    knock = [{"when": {"phase": "turn_start"}, "do": {"type": "knock"}}]
    orders.set_orders(game_id=game.public_id, user=alice, rules=knock, limit={"turns": 50})
    orders.play_orders(game_id=game.public_id)
    hand_turn(game, bob)  # the last turn after the knock: the showdown ends the one-life game
    game.refresh_from_db()
    if game.status == "active":  # a new hand when nobody lost a life
        pytest.skip("this deal left both players in")
    assert orders.orders_for(game=game, user=alice).ended == "game_over"


def test_four_seat_scattle_orders_play_several_turns_in_a_row(alice, bob, charlie):
    dave = make_user("dave")
    game = services.create_game(creator=alice, kind="scattle", num_seats=4)
    for user in (bob, charlie, dave):
        services.join_game(game_id=game.public_id, user=user)
    orders.set_orders(game_id=game.public_id, user=alice, preset="routine", limit={"turns": 3})
    for _ in range(12):
        game.refresh_from_db()
        mover = game.seats.get(index=game.to_act_seat).user
        if mover == alice:
            assert orders.play_orders(game_id=game.public_id) >= 2
        else:
            hand_turn(game, mover)
    kept = StandingOrders.objects.get(seat__user=alice)
    assert kept.turns_played == 3 and kept.ended == "limit"
    by_order = Move.objects.filter(game=game, by_server="standing_order")
    assert {m.seat for m in by_order} == {seat_of(game, alice)}


def test_orders_play_while_the_player_is_away_and_the_clock_stays_stopped(travel, alice, bob):
    game = scat_game(alice, bob)
    orders.set_orders(game_id=game.public_id, user=alice, preset="routine", limit={"until_i_move": True})
    orders.play_orders(game_id=game.public_id)
    vacations.start_vacation(user=alice, until=START + timedelta(days=3))
    hand_turn(game, bob)
    game.refresh_from_db()
    assert game.seats.get(index=game.to_act_seat).user == alice and game.deadline is None  # her clock stopped
    assert orders.play_orders(game_id=game.public_id) == 2
    game.refresh_from_db()
    assert game.seats.get(index=game.to_act_seat).user == bob
