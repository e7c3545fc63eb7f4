"""Re-running a game from its seed and its move list."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .engine import get_rules
from .models import Game, Move


def replay_state(game: Game, moves: Iterable[Move]) -> dict[str, Any]:
    """The snapshot the stored moves lead to from the seed, as to_json() gives it."""
    rules = get_rules(game.kind)
    state = rules.new_game(game.num_seats, game.options, game.seed, edition=game.rules_edition)
    for move in moves:
        if move.action.get("type") == "resign":
            state, _events = rules.resign(state, move.seat)
        else:
            state, _events = rules.apply(state, move.seat, move.action)
    return rules.to_json(state)


def replay_matches(game: Game) -> bool:
    return replay_state(game, game.moves.order_by("seq")) == game.state
