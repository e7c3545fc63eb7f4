"""Statistics are folded in when a game ends, in the same transaction, at a fixed cost in queries."""

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import get_rules
from games.models import Game, GameStatus, Move
from stats.models import PlayerStats, RatingHistory
from stats.selectors import player_statistics
from tests.accounts.helpers import (
    drawer,
    finish_in_order,
    lose_to_bot,
    play_out,
    scat_knocker,
    scattle_melder,
    two_player_game,
    win,
)


def events_of(game: Game, seat: int, kind: str) -> list[dict]:
    moves = Move.objects.filter(game=game).order_by("seq")
    return [e for m in moves for e in m.events if e.get("type") == kind and e.get("seat") == seat]


def test_a_scat_game_against_a_bot_counts_knocks_31s_and_lives(alice, fixed_seeds):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, bots=["good"])
    assert get_rules("scat").new_game(2, game.options, game.seed)["hand_no"] == 1, "this seed opens with a 31"
    game = play_out(game, {0: alice}, scat_knocker)

    stats = PlayerStats.objects.get(user=alice, kind="scat")
    knocks = events_of(game, 0, "knock")
    assert stats.knocks == len(knocks) > 0
    assert 0 <= stats.knocks_survived <= stats.knocks
    assert stats.thirty_ones == len(events_of(game, 0, "thirty_one"))
    assert stats.lives_lost == sum(e["lives"] for e in events_of(game, 0, "life_lost")) > 0
    # The same lives, counted from the outcome instead: she started with 3 tokens.
    outcome = game.outcome
    won = 0 in outcome["winners"]
    from_tokens = 3 - outcome["tokens"][0] + (outcome["kitty_won"] if won else 0) + (0 if won else 1)
    assert stats.lives_lost == from_tokens
    assert (stats.games_finished, stats.games_won) == (1, int(won))


def test_a_scattle_game_against_a_bot_counts_melds_points_and_scattles(alice, fixed_seeds):
    game = services.create_game(creator=alice, kind="scattle", num_seats=2, bots=["good"])
    game = play_out(game, {0: alice}, scattle_melder)

    stats = PlayerStats.objects.get(user=alice, kind="scattle")
    assert stats.melds == len(events_of(game, 0, "meld")) > 0
    assert stats.scattles == len(events_of(game, 0, "scattle"))
    assert stats.points == game.outcome["scores"][0]
    figures = player_statistics(alice)["scattle"]
    assert figures["points_per_game"] == stats.points
    assert figures["melds"] == stats.melds


def test_streaks_and_win_rate_follow_the_finishing_order(alice, bob):
    win(alice, bob)
    win(alice, bob)
    win(bob, alice)
    win(alice, bob)

    alice_stats = PlayerStats.objects.get(user=alice, kind="scat")
    assert (alice_stats.games_finished, alice_stats.games_won) == (4, 3)
    assert (alice_stats.current_streak, alice_stats.best_streak) == (1, 2)
    assert alice_stats.win_rate == 0.75
    bob_stats = PlayerStats.objects.get(user=bob, kind="scat")
    assert (bob_stats.current_streak, bob_stats.best_streak, bob_stats.games_resigned) == (0, 1, 3)


def test_average_place_over_three_player_games(alice, bob, charlie):
    finish_in_order([alice, bob, charlie])  # alice 1st, charlie 3rd
    finish_in_order([bob, alice, charlie])  # alice 2nd, charlie 3rd
    finish_in_order([charlie, alice, bob])  # alice 2nd, charlie 1st

    figures = player_statistics(alice)["scat"]
    assert figures["average_place"] == pytest.approx(5 / 3, abs=0.01)
    assert figures["games_won"] == 1
    assert player_statistics(charlie)["scat"]["average_place"] == pytest.approx(7 / 3, abs=0.01)


def test_games_in_progress_count_as_played_but_not_finished(alice, bob):
    win(alice, bob)
    two_player_game(alice, bob)

    figures = player_statistics(alice)
    assert (figures["games_played"], figures["games_in_progress"], figures["games_finished"]) == (2, 1, 1)
    assert figures["scat"]["games_played"] == 2


def test_a_timeout_makes_a_game_unreliable(alice):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, bots=["good"], move_time_limit=60)
    services.play_bot_moves(game_id=game.public_id)
    game.refresh_from_db()
    assert game.to_act_seat == 0
    assert services.apply_timeout(game_id=game.public_id, now=game.deadline + timedelta(seconds=1))
    services.play_bot_moves(game_id=game.public_id)
    services.resign(game_id=game.public_id, user=alice)
    lose_to_bot(alice)  # a second game, without a timeout

    figures = player_statistics(alice)
    assert figures["reliability"]["games_with_timeout"] == 1
    assert figures["reliability"]["timed_out_turns"] == 1
    assert figures["reliability"]["finished_without_timeout"] == 0.5


def test_average_time_to_move_comes_from_the_turns(alice, bob):
    pace = {alice.pk: timedelta(minutes=10), bob.pk: timedelta(minutes=30)}
    with time_machine.travel("2026-03-01 12:00Z", tick=False) as clock:
        game = two_player_game(alice, bob)
        players = {seat.index: seat.user for seat in game.seats.all()}
        rules = get_rules("scat")
        for _turn in range(6):
            game.refresh_from_db()
            user = players[game.to_act_seat]
            clock.shift(pace[user.pk])
            while game.status == GameStatus.ACTIVE and players.get(game.to_act_seat) == user:
                action = drawer(rules.legal_actions(rules.from_json(game.state), game.to_act_seat))
                services.submit_move(game_id=game.public_id, user=user, action=action, version=game.version)
                game.refresh_from_db()
        resigner = players[game.to_act_seat]
        clock.shift(pace[resigner.pk])  # resigning on your turn is your move too
        services.resign(game_id=game.public_id, user=resigner)

    assert player_statistics(alice)["scat"]["reliability"]["average_move_seconds"] == 600.0
    assert player_statistics(bob)["scat"]["reliability"]["average_move_seconds"] == 1800.0


def test_recording_a_game_costs_the_same_few_queries_however_long_it_was(alice, bob, monkeypatch):
    from stats import services as stats_services

    counts = []
    record_finished_game = stats_services.record_finished_game

    def counted(**kwargs):
        with CaptureQueriesContext(connection) as captured:
            record_finished_game(**kwargs)
        counts.append(len(captured))

    monkeypatch.setattr(stats_services, "record_finished_game", counted)
    win(alice, bob)

    game = two_player_game(alice, bob)
    players = {seat.index: seat.user for seat in game.seats.all()}
    rules = get_rules("scat")
    for _ in range(40):
        game.refresh_from_db()
        seat = game.to_act_seat
        action = drawer(rules.legal_actions(rules.from_json(game.state), seat))
        services.submit_move(game_id=game.public_id, user=players[seat], action=action, version=game.version)
    services.resign(game_id=game.public_id, user=bob)

    assert counts[0] == counts[1] <= 10
    assert RatingHistory.objects.count() == 4
