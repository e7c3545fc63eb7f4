"""The last two games of a round ending at the same moment start the next round once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services as game_services
from games.models import Game
from tournaments import services
from tournaments.models import Round, Table

from .helpers import make_players, new_tournament

pytestmark = [pytest.mark.concurrency]


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
