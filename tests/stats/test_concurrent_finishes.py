"""Games of the same players finishing at the same moment lose no result (on PostgreSQL)."""

import threading

import pytest
from django.db import connection

from games import services
from stats.models import PlayerStats, Rating, RatingHistory
from tests.accounts.helpers import two_player_game


@pytest.mark.django_db(transaction=True)
def test_eight_games_ending_at_once_all_count_for_alice_and_bob(postgres, alice, bob):
    # Their first games: the statistics and rating rows do not exist yet, and every thread races to create them.
    games = [two_player_game(alice, bob) for _ in range(8)]
    barrier = threading.Barrier(len(games))
    errors: list[BaseException] = []

    def resign(game_id: str, loser) -> None:
        try:
            barrier.wait()
            services.resign(game_id=game_id, user=loser)
        except BaseException as exc:  # a thread's failure is reported by the assertion below
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=resign, args=(game.public_id, bob if i % 2 else alice)) for i, game in enumerate(games)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    alice_stats = PlayerStats.objects.get(user=alice, kind="scat")
    bob_stats = PlayerStats.objects.get(user=bob, kind="scat")
    assert (alice_stats.games_finished, alice_stats.games_won) == (8, 4)
    assert (bob_stats.games_finished, bob_stats.games_won) == (8, 4)
    assert Rating.objects.get(user=alice, kind="scat").games == 8
    assert RatingHistory.objects.count() == 16
