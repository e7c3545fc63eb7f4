"""Standing orders through a running Celery worker on Redis and PostgreSQL, watched on the
opponents' live streams: each move by order arrives once, in order, marked as such."""

from __future__ import annotations

import time

import httpx
import pytest

from games import services
from games.models import Game, Move
from orders.models import StandingOrders
from tests.conftest import make_user, require_service
from tests.live.helpers import api, token_of


@pytest.fixture
def on_postgres(transactional_db):
    from django.db import connection

    require_service(connection.vendor == "postgresql", "these tests need PostgreSQL")


def wait_until(condition, timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def play_by_hand(client: httpx.Client, game_id: str) -> None:
    """Draw from the stock, then throw the first card allowed, through the API."""
    detail = client.get(f"/api/v1/games/{game_id}/").json()
    seat = detail["your_seat"]
    answer = client.post(
        f"/api/v1/games/{game_id}/moves/", json={"action": {"type": "draw_stock"}, "version": detail["version"]}
    )
    assert answer.status_code == 201, answer.text
    detail = answer.json()["game"]
    while detail["status"] == "active" and detail["to_act"] == seat and detail["legal_actions"]:
        action = next((a for a in detail["legal_actions"] if a["type"] == "discard"), detail["legal_actions"][0])
        answer = client.post(f"/api/v1/games/{game_id}/moves/", json={"action": action, "version": detail["version"]})
        assert answer.status_code == 201, answer.text
        detail = answer.json()["game"]


def play_with_orders(game: Game, users: list, clients: dict, ordered, turns: int) -> None:
    """The others play by hand; the ordered player's turns are left to the worker, until their
    orders have played `turns` turns."""
    seat_of = {s.user_id: s.index for s in game.seats.all()}
    ordered_seat = seat_of[ordered.pk]
    for _ in range(turns * len(users) * 3):
        game.refresh_from_db()
        kept = StandingOrders.objects.get(seat__game=game, seat__index=ordered_seat)
        if game.status != "active" or kept.turns_played >= turns:
            return
        if game.to_act_seat == ordered_seat:
            mine = game.turn_started_at

            def moved_on(mine=mine) -> bool:
                game.refresh_from_db()
                return game.to_act_seat != ordered_seat or game.turn_started_at != mine

            assert wait_until(moved_on), "the orders did not play the turn"
        else:
            mover = next(u for u in users if seat_of[u.pk] == game.to_act_seat)
            play_by_hand(clients[mover.pk], game.public_id)
    raise AssertionError("the orders never reached their turns")


def stream_moves(stream, version: int) -> list[dict]:
    """The move events of a stream up to the game's `version`."""
    moves: list[dict] = []
    while not moves or moves[-1]["version"] < version:
        item = stream.next(timeout=20)
        if item.event == "move":
            moves.append(item.data)
    return moves


def check_streams(game: Game, streams: dict, ordered_seat: int) -> int:
    game.refresh_from_db()
    by_order = list(
        Move.objects.filter(game=game, by_server="standing_order").order_by("seq").values_list("seq", flat=True)
    )
    assert by_order and {m.seat for m in Move.objects.filter(game=game, by_server="standing_order")} == {ordered_seat}
    for stream in streams.values():
        moves = stream_moves(stream, game.version)
        versions = [m["version"] for m in moves]
        assert versions == list(range(1, game.version + 1))  # every move once, in order
        shown = [m["version"] for m in moves if m["move"]["by_server"] == "standing_order"]
        assert shown == by_order
    return len(by_order)


def test_two_seat_scat_orders_play_several_turns_while_the_other_plays_by_hand(
    on_postgres, celery_worker, asgi_server, open_stream, alice, bob
):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    stream_url = f"{asgi_server}/api/v1/games/{game.public_id}/stream/"
    tokens = {alice.pk: token_of(alice), bob.pk: token_of(bob)}
    clients = {pk: api(asgi_server, token) for pk, token in tokens.items()}
    bob_stream = open_stream(stream_url, tokens[bob.pk])
    assert bob_stream.next().event == "game"
    services.join_game(game_id=game.public_id, user=bob)
    answer = clients[alice.pk].put(
        f"/api/v1/games/{game.public_id}/orders/", json={"preset": "routine", "limit": {"turns": 4}}
    )
    assert answer.status_code == 200, answer.text

    play_with_orders(game, [alice, bob], clients, alice, turns=4)

    seat = game.seats.get(user=alice).index
    assert check_streams(game, {bob.pk: bob_stream}, seat) >= 8  # a draw and a discard a turn
    kept = StandingOrders.objects.get(seat__user=alice, seat__game=game)
    assert kept.turns_played == 4 and kept.ended == "limit"
    body = clients[alice.pk].get(f"/api/v1/games/{game.public_id}/orders/").json()
    assert body["active"] is False and len(body["played"]) >= 8
    assert clients[bob.pk].get(f"/api/v1/games/{game.public_id}/orders/").status_code == 404


def test_four_seat_scattle_orders_play_several_turns_while_three_play_by_hand(
    on_postgres, celery_worker, asgi_server, open_stream, alice, bob, charlie
):
    dave = make_user("dave")
    players = [alice, bob, charlie, dave]
    game = services.create_game(creator=alice, kind="scattle", num_seats=4)
    stream_url = f"{asgi_server}/api/v1/games/{game.public_id}/stream/"
    tokens = {user.pk: token_of(user) for user in players}
    clients = {pk: api(asgi_server, token) for pk, token in tokens.items()}
    answer = clients[alice.pk].put(
        f"/api/v1/games/{game.public_id}/orders/", json={"preset": "routine", "limit": {"until_i_move": True}}
    )
    assert answer.status_code == 200, answer.text
    streams = {}
    for user in (bob, charlie, dave):
        streams[user.pk] = open_stream(stream_url, tokens[user.pk])
        assert streams[user.pk].next().event == "game"
        services.join_game(game_id=game.public_id, user=user)

    play_with_orders(game, players, clients, alice, turns=3)

    assert check_streams(game, streams, game.seats.get(user=alice).index) >= 6
    assert StandingOrders.objects.get(seat__user=alice, seat__game=game).is_active  # until she moves
