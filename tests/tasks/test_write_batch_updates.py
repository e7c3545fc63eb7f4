"""A write batch stores what the ORM would, whichever rows it is given: on PostgreSQL its statements run
as one, where two updates of the same row would not both take effect."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.write_batch import WriteBatch
from games.models import Game

from .test_write_paths import started_game


def test_two_updates_of_one_row_in_a_batch_both_take_effect(postgres, alice, bob):
    game = started_game(alice, bob)
    batch = WriteBatch()
    game.version += 1
    batch.update(game, ["version"])
    game.move_time_limit = 3600
    batch.update(game, ["move_time_limit", "updated_at"])

    with CaptureQueriesContext(connection) as captured:
        batch.flush()

    saved = Game.objects.get(pk=game.pk)
    assert (saved.version, saved.move_time_limit) == (game.version, 3600)
    assert len(captured) == 1, "still one statement"


def test_a_row_updated_through_two_copies_keeps_both_changes_in_order(postgres, alice, bob):
    game = started_game(alice, bob)
    other_copy = Game.objects.get(pk=game.pk)
    batch = WriteBatch()
    game.move_time_limit = 3600
    batch.update(game, ["move_time_limit"])
    other_copy.version = 7
    batch.update(other_copy, ["version"])

    batch.flush()

    saved = Game.objects.get(pk=game.pk)
    assert (saved.version, saved.move_time_limit) == (7, 3600)
