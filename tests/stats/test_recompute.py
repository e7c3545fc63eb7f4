"""`manage.py recompute_stats` rebuilds exactly what the games recorded as they ended."""

from datetime import timedelta
from io import StringIO

from django.core.management import call_command
from django.forms.models import model_to_dict

from games import services
from games.models import Game
from stats.models import PlayerStats, Rating, RatingHistory
from tests.accounts.helpers import finish_in_order, lose_to_bot, play_out, scat_knocker, scattle_melder, win


def snapshot() -> dict[str, list[dict]]:
    """Every stored figure, keyed by what it describes rather than by row id."""

    def rows(model, key):
        return sorted((model_to_dict(row, exclude=["id"]) for row in model.objects.all()), key=key)

    return {
        "stats": rows(PlayerStats, lambda r: (r["user"], r["kind"])),
        "ratings": rows(Rating, lambda r: (r["user"] or 0, r["bot_level"], r["kind"])),
        "history": rows(RatingHistory, lambda r: (r["user"], r["game"])),
    }


def play_a_varied_history(alice, bob, charlie) -> None:
    win(alice, bob)
    win(bob, alice, kind="scattle")
    finish_in_order([charlie, alice, bob])
    lose_to_bot(alice, level="random")
    play_out(
        services.create_game(creator=alice, kind="scat", num_seats=3, bots=["good", "random"]), {0: alice}, scat_knocker
    )
    play_out(services.create_game(creator=bob, kind="scattle", num_seats=2, bots=["good"]), {0: bob}, scattle_melder)
    # A timeout, then a resignation.
    game = services.create_game(creator=charlie, kind="scat", num_seats=2, bots=["good"], move_time_limit=60)
    services.play_bot_moves(game_id=game.public_id)
    game.refresh_from_db()
    services.apply_timeout(game_id=game.public_id, now=game.deadline + timedelta(seconds=1))
    services.play_bot_moves(game_id=game.public_id)
    services.resign(game_id=game.public_id, user=charlie)
    win(alice, charlie)


def test_rebuilt_statistics_and_ratings_equal_the_incremental_ones(alice, bob, charlie, fixed_seeds):
    play_a_varied_history(alice, bob, charlie)
    incremental = snapshot()
    assert len(incremental["stats"]) == 5 and len(incremental["history"]) == 13

    out = StringIO()
    call_command("recompute_stats", stdout=out)

    assert snapshot() == incremental
    assert "from 8 finished games" in out.getvalue()


def test_recompute_repairs_numbers_that_drifted(alice, bob):
    win(alice, bob)
    win(alice, bob)
    expected = snapshot()
    PlayerStats.objects.filter(user=alice).update(games_won=99, current_streak=0)
    Rating.objects.filter(user=bob).delete()

    call_command("recompute_stats", stdout=StringIO())
    assert snapshot() == expected


def test_games_after_a_rebuild_fold_in_on_top_of_it(alice, bob):
    win(alice, bob)
    call_command("recompute_stats", stdout=StringIO())
    win(alice, bob)
    incremental = snapshot()
    call_command("recompute_stats", stdout=StringIO())
    assert snapshot() == incremental
    assert PlayerStats.objects.get(user=alice).best_streak == 2
    assert Game.objects.filter(status="finished").count() == 2
