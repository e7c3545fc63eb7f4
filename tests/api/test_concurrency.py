"""Concurrent and repeated submissions never lose or double a move (on PostgreSQL)."""

import threading

import pytest
from django.db import connection

from games.models import Move
from tests.conftest import client_for

from .helpers import game, move, started_two_player_game


def post_at_once(clients, game_id, action, version, headers_for=lambda i: {}) -> list[int]:
    barrier = threading.Barrier(len(clients))
    statuses = [0] * len(clients)

    def run(i: int) -> None:
        try:
            barrier.wait()
            statuses[i] = move(clients[i], game_id, action, version, **headers_for(i)).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.django_db(transaction=True)
def test_ten_threads_posting_the_same_move_apply_it_once(postgres, alice, bob):
    detail = started_two_player_game(client_for(alice), client_for(bob))
    mover = (alice, bob)[detail["to_act"]]
    clients = [client_for(mover) for _ in range(10)]

    statuses = post_at_once(clients, detail["id"], {"type": "draw_stock"}, detail["version"])

    assert sorted(statuses) == [201] + [409] * 9
    assert Move.objects.filter(game__public_id=detail["id"]).count() == 1
    assert game(clients[0], detail["id"])["version"] == detail["version"] + 1


@pytest.mark.django_db(transaction=True)
def test_ten_retries_with_one_idempotency_key_make_one_move(postgres, alice, bob):
    detail = started_two_player_game(client_for(alice), client_for(bob))
    mover = (alice, bob)[detail["to_act"]]
    clients = [client_for(mover) for _ in range(10)]

    statuses = post_at_once(
        clients, detail["id"], {"type": "draw_stock"}, detail["version"], lambda i: {"HTTP_IDEMPOTENCY_KEY": "same"}
    )

    assert statuses == [201] * 10
    assert Move.objects.filter(game__public_id=detail["id"]).count() == 1
