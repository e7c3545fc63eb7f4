"""GET /api/v1/me/games/: the reader's active games, and with ?to_act=me where to play next."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, GameStatus
from tests.tasks.helpers import play_one_turn

from .helpers import create_game, started_two_player_game


def a_game_where(to_act, alice_client, bob_client, alice, *, deadline_in: timedelta | None) -> str:
    """A started game between alice and bob where `to_act` (a user) is to move, its deadline so far away."""
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    game = Game.objects.get(public_id=game_id)
    if game.seats.get(index=game.to_act_seat).user_id != to_act.pk:
        play_one_turn(game_id)
    deadline = timezone.now() + deadline_in if deadline_in is not None else None
    Game.objects.filter(public_id=game_id).update(deadline=deadline)
    return game_id


def ids(response) -> list[str]:
    assert response.status_code == 200, response.json()
    return [game["id"] for game in response.json()["results"]]


def test_alice_sees_the_games_awaiting_her_most_urgent_first(alice_client, bob_client, alice, bob):
    later = a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(days=2))
    paused = a_game_where(alice, alice_client, bob_client, alice, deadline_in=None)  # her clock stopped
    soon = a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(hours=1))
    bobs = a_game_where(bob, alice_client, bob_client, alice, deadline_in=timedelta(minutes=5))
    create_game(alice_client, seats=2)  # open: not active
    finished = a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(minutes=1))
    Game.objects.filter(public_id=finished).update(status=GameStatus.FINISHED)

    to_act = alice_client.get("/api/v1/me/games/?to_act=me")
    assert ids(to_act) == [soon, later, paused]
    assert to_act.json()["count"] == 3
    assert all(game["is_your_turn"] for game in to_act.json()["results"])
    assert ids(alice_client.get("/api/v1/me/games/")) == [soon, later, paused, bobs]
    assert ids(bob_client.get("/api/v1/me/games/?to_act=me")) == [bobs]


def test_a_game_alice_resigned_from_is_hers_no_more(alice_client, bob_client, charlie_client, alice, charlie):
    created = create_game(alice_client, seats=3, invite=["bob", "charlie"])
    bob_client.post(f"/api/v1/games/{created['id']}/join/", format="json")
    charlie_client.post(f"/api/v1/games/{created['id']}/join/", format="json")
    assert ids(alice_client.get("/api/v1/me/games/")) == [created["id"]]
    assert alice_client.post(f"/api/v1/games/{created['id']}/resign/", format="json").status_code == 200
    assert Game.objects.get(public_id=created["id"]).status == GameStatus.ACTIVE  # bob and charlie play on
    assert ids(alice_client.get("/api/v1/me/games/")) == []
    assert ids(charlie_client.get("/api/v1/me/games/")) == [created["id"]]


def test_charlie_sees_none_of_their_games(alice_client, bob_client, charlie_client, alice):
    a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(hours=1))
    assert ids(charlie_client.get("/api/v1/me/games/")) == []


def test_it_needs_an_account_and_a_known_filter(anon_client, alice_client):
    assert anon_client.get("/api/v1/me/games/").status_code in (401, 403)
    refused = alice_client.get("/api/v1/me/games/?to_act=bob")
    assert refused.status_code == 400
    assert "to_act" in refused.json()["details"]


def test_it_pages_like_the_other_lists(alice_client, bob_client, alice):
    a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(hours=1))
    body = alice_client.get("/api/v1/me/games/?to_act=me&page=1").json()
    assert set(body) >= {"count", "next", "previous", "results"}
    assert alice_client.get("/api/v1/me/games/?page=9").status_code == 404


def queries_to_list(client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/v1/me/games/?to_act=me").status_code == 200
    return len(captured)


def test_the_list_costs_the_same_queries_for_two_games_and_for_twelve(alice_client, bob_client, alice):
    for hours in range(2):
        a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(hours=hours + 1))
    few = queries_to_list(alice_client)
    for hours in range(10):
        a_game_where(alice, alice_client, bob_client, alice, deadline_in=timedelta(hours=hours + 3))
    assert queries_to_list(alice_client) == few
    # The token, the count, the page of games, their seats, the seats' players.
    assert few <= 5


def test_the_schema_documents_it(anon_client):
    schema = anon_client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/me/games/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"to_act", "page"}
    assert "earliest deadline first" in operation["description"] or "most urgent first" in operation["description"]
