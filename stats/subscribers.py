"""What statistics and ratings do when the game core announces a change (config.events)."""

from __future__ import annotations

from games.events import GameFinished

from . import services


def game_finished(event: GameFinished) -> None:
    """Inside the game's transaction: the numbers change with the game's end or not at all."""
    services.record_finished_game(game=event.game, seats=event.seats)
