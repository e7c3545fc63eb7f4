"""The last two games of a round ending at the same moment start the next round once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services as game_services
from games.models import Game
from tests.conftest import client_for
from tournaments import services
from tournaments.models import Entry, Round, Table

from .helpers import make_players, new_tournament

pytestmark = [pytest.mark.concurrency]


def racing_client(user=None):
    """A client that hands back a server error as a 500 response instead of raising it in its thread."""
    client = client_for(user)
    client.raise_request_exception = False
    return client


@pytest.mark.django_db(transaction=True)
def test_two_last_games_ending_at_once_start_the_next_round_once(concurrent_database):
    for attempt in range(3):
        players = make_players(4, f"race{attempt}-")
        tournament = new_tournament(players, kind="scat", format="swiss", table_size=2, rounds=3)
        services.start_tournament(tournament_id=tournament.public_id, user=players[0])
        games = list(Game.objects.filter(tournament_table__round__tournament=tournament).order_by("pk"))
        assert len(games) == 2
        losers = [game.seats.get(index=0).user for game in games]
        barrier = threading.Barrier(2)
        errors: list[BaseException] = []

        def resign(game_id: str, loser, barrier=barrier, errors=errors) -> None:
            try:
                barrier.wait()
                game_services.resign(game_id=game_id, user=loser)
            except BaseException as exc:  # reported by the assertion below
                errors.append(exc)
            finally:
                connection.close()

        threads = [
            threading.Thread(target=resign, args=(game.public_id, loser))
            for game, loser in zip(games, losers, strict=True)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert errors == []
        assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
        assert Table.objects.filter(round__tournament=tournament, round__number=2).count() == 2
        assert Round.objects.get(tournament=tournament, number=1).finished_at is not None


@pytest.mark.django_db(transaction=True)
def test_the_tournament_reads_whole_while_players_join(concurrent_database):
    """Fifteen players join while five readers keep reading the tournament: every join and every
    read answers 200, and each read's players, standings and count agree with one another."""
    creator, *joiners = make_players(16, "crowd")
    tournament = new_tournament([creator], kind="scat", format="swiss", table_size=3, rounds=2, max_players=20)
    address = f"/api/v1/tournaments/{tournament.public_id}/"
    joining = threading.Event()
    joins_done = threading.Event()
    reads: list = []
    joins: list = []

    def reader() -> None:
        client = racing_client()
        try:
            joining.wait()
            while not joins_done.is_set() or len(reads) < 50:
                reads.append(client.get(address))
        finally:
            connection.close()

    def joiner(player) -> None:
        client = racing_client(player)
        try:
            joining.wait()
            joins.append(client.post(f"{address}join/"))
        finally:
            connection.close()

    readers = [threading.Thread(target=reader) for _ in range(5)]
    joiner_threads = [threading.Thread(target=joiner, args=(player,)) for player in joiners]
    for thread in readers + joiner_threads:
        thread.start()
    joining.set()
    for thread in joiner_threads:
        thread.join()
    joins_done.set()
    for thread in readers:
        thread.join()

    assert sorted(response.status_code for response in joins) == [200] * 15
    assert {response.status_code for response in reads + joins} == {200}
    for response in reads + joins:
        body = response.json()
        assert sorted(row["player"] for row in body["standings"]) == sorted(body["players"])
        assert body["player_count"] == len(body["players"])
    assert Entry.objects.filter(tournament=tournament).count() == 16
