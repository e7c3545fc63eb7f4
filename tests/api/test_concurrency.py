"""Concurrent and repeated requests never lose, double or half-apply a change, and never answer 5xx.

They run on PostgreSQL with the rest of the suite, and `make test` runs them (marker `concurrency`)
once more on SQLite, the embedded database `make run` uses.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from functools import partial
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import User
from games.models import Game, GameStatus, Move, Seat
from notifications.models import Notification, NotificationKind
from tests.conftest import client_for, make_user

from .helpers import create_game, game, move, started_two_player_game

pytestmark = [pytest.mark.concurrency]


def racing_client(user: User) -> APIClient:
    """A client that hands back a server error as a 500 response instead of raising it in its thread."""
    client = client_for(user)
    client.raise_request_exception = False
    return client


def at_once(requests: list[Callable[[], object]]) -> list:
    """Send each request from its own thread (and database connection), all released together;
    the responses come back in the order of the requests."""
    barrier = threading.Barrier(len(requests))
    responses: list = [None] * len(requests)

    def run(i: int) -> None:
        try:
            barrier.wait()
            responses[i] = requests[i]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return responses


def statuses(responses) -> list[int]:
    return sorted(response.status_code for response in responses)


def error_codes(responses) -> set[str]:
    return {response.json()["code"] for response in responses if response.status_code >= 400}


def join(client: APIClient, game_id: str):
    return client.post(f"/api/v1/games/{game_id}/join/", format="json")


def resign(client: APIClient, game_id: str):
    return client.post(f"/api/v1/games/{game_id}/resign/", format="json")


def assert_every_game_consistent(games: int) -> None:
    out = StringIO()
    call_command("verify_games", stdout=out)  # raises CommandError when a game is inconsistent
    assert out.getvalue().splitlines()[-1] == f"checked {games} games, 0 inconsistent"


@pytest.mark.django_db(transaction=True)
def test_twenty_threads_posting_the_same_move_apply_it_once(concurrent_database, alice, bob):
    detail = started_two_player_game(client_for(alice), client_for(bob))
    mover = (alice, bob)[detail["to_act"]]
    clients = [racing_client(mover) for _ in range(20)]

    responses = at_once([partial(move, c, detail["id"], {"type": "draw_stock"}, detail["version"]) for c in clients])

    assert statuses(responses) == [201] + [409] * 19
    assert error_codes(responses) == {"stale_version"}
    assert Move.objects.filter(game__public_id=detail["id"]).count() == 1
    assert game(clients[0], detail["id"])["version"] == detail["version"] + 1
    assert_every_game_consistent(1)


@pytest.mark.django_db(transaction=True)
def test_twenty_retries_with_one_idempotency_key_make_one_move(concurrent_database, alice, bob):
    detail = started_two_player_game(client_for(alice), client_for(bob))
    mover = (alice, bob)[detail["to_act"]]
    clients = [racing_client(mover) for _ in range(20)]
    draw = {"type": "draw_stock"}

    responses = at_once(
        [partial(move, c, detail["id"], draw, detail["version"], HTTP_IDEMPOTENCY_KEY="same") for c in clients]
    )

    assert statuses(responses) == [201] * 20
    assert sorted(r.headers.get("Idempotent-Replayed", "") for r in responses) == [""] + ["true"] * 19
    assert Move.objects.filter(game__public_id=detail["id"]).count() == 1
    assert_every_game_consistent(1)


@pytest.mark.django_db(transaction=True)
def test_ten_players_racing_for_three_open_seats_fill_them_and_start_the_game_once(concurrent_database, alice):
    created = create_game(client_for(alice), kind="scat", seats=4)
    joiners = [make_user(f"player{i}") for i in range(10)]

    responses = at_once([partial(join, racing_client(user), created["id"]) for user in joiners])

    assert statuses(responses) == [200] * 3 + [409] * 7
    assert error_codes(responses) <= {"no_free_seat", "game_not_open"}
    seated = {user.pk for user, response in zip(joiners, responses, strict=True) if response.status_code == 200}
    started = Game.objects.get(public_id=created["id"])
    assert started.status == GameStatus.ACTIVE
    assert set(Seat.objects.filter(game=started).values_list("user", flat=True)) == {alice.pk} | seated
    # Starting tells every player but the one whose join started it, once: a second start would tell
    # them twice.
    told = list(
        Notification.objects.filter(game=started, kind=NotificationKind.GAME_STARTED).values_list("user", flat=True)
    )
    assert len(told) == len(set(told)) == 3
    assert alice.pk in told and set(told) < {alice.pk} | seated
    assert_every_game_consistent(1)


@pytest.mark.django_db(transaction=True)
def test_a_resignation_against_a_move_at_the_same_instant_leaves_a_consistent_history(concurrent_database, alice, bob):
    games = [started_two_player_game(client_for(alice), client_for(bob)) for _ in range(5)]
    requests = []
    for detail in games:
        mover, other = (alice, bob) if detail["to_act"] == 0 else (bob, alice)
        requests.append(partial(move, racing_client(mover), detail["id"], {"type": "draw_stock"}, detail["version"]))
        requests.append(partial(resign, racing_client(other), detail["id"]))

    responses = at_once(requests)

    moved, resigned = responses[0::2], responses[1::2]
    assert statuses(resigned) == [200] * 5
    assert set(statuses(moved)) <= {201, 409}
    assert error_codes(moved) <= {"game_over", "stale_version"}
    for detail, move_response in zip(games, moved, strict=True):
        history = [m.action["type"] for m in Move.objects.filter(game__public_id=detail["id"]).order_by("seq")]
        assert history == (["draw_stock", "resign"] if move_response.status_code == 201 else ["resign"])
        assert Game.objects.get(public_id=detail["id"]).status == GameStatus.FINISHED
    assert_every_game_consistent(5)


@pytest.mark.django_db(transaction=True)
def test_two_players_declining_each_others_invitations_at_once_both_succeed(
    concurrent_database, alice, bob, monkeypatch
):
    from games import services

    to_bob = create_game(client_for(alice), seats=3, invite=["bob"])
    to_alice = create_game(client_for(bob), seats=3, invite=["alice"])
    # Hold each decline after it has marked its invitation read and before it writes the game's
    # news, so that both are inside their transactions at once (PostgreSQL; SQLite runs them in turn).
    both_inside = threading.Barrier(2, timeout=2)
    seats_changed = services._seats_changed

    def held(*args, **kwargs):
        with contextlib.suppress(threading.BrokenBarrierError):
            both_inside.wait()
        return seats_changed(*args, **kwargs)

    monkeypatch.setattr(services, "_seats_changed", held)
    responses = at_once(
        [
            partial(racing_client(bob).post, f"/api/v1/games/{to_bob['id']}/decline/", format="json"),
            partial(racing_client(alice).post, f"/api/v1/games/{to_alice['id']}/decline/", format="json"),
        ]
    )
    assert statuses(responses) == [200, 200], [r.content for r in responses]
    assert not Notification.objects.filter(kind=NotificationKind.INVITATION, read_at__isnull=True).exists()
