"""Re-running a game from its seed and its move list; the events of its opening deal."""

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


def opening_events(kind: str, num_seats: int, options: dict[str, Any], seed: str, edition: int) -> list[dict[str, Any]]:
    """The events of the opening deal, which happen before the first move and so are in no Move row.

    The state keeps them (version 0), except in a first-edition Scat game, which kept only the latest
    deal: there a 31 on the opening deal (about one game in a few hundred) is recovered from the
    state it leaves behind: who showed a 31 (the last one, should several opening hands end that
    way) and the lives it cost.
    """
    rules = get_rules(kind)
    state = rules.new_game(num_seats, options, seed, edition=edition)
    if kind != "scat" or edition >= 2:
        return list(state.get("deal_events") or [])
    shown = state.get("last_showdown")
    if not shown:
        return []
    events: list[dict[str, Any]] = [
        {"type": "thirty_one", "seat": seat, "on_deal": True, "lives_lost": list(shown["lives_lost"])}
        for seat, hand in enumerate(shown["hands"])
        if hand is not None
    ]
    opts = state["options"]
    over = state.get("outcome") or {}
    for seat in range(num_seats):
        lost = opts["initial_tokens"] - state["tokens"][seat]
        if seat in over.get("winners", ()):
            lost += over.get("kitty_won", 0)  # the winner's tokens include the kitty
        if opts["on_the_county"] and state["eliminated"][seat]:
            lost += 1  # going out from the county costs a life but no token
        if lost > 0:
            events.append({"type": "life_lost", "seat": seat, "lives": lost})
    return events
