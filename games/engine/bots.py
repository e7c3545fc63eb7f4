"""Computer players. A bot sees only what its seat may see: the view and the legal actions."""

from __future__ import annotations

import random

from .base import Action, State
from .errors import IllegalAction

BOT_LEVELS = ("random", "good")


def choose_action(kind: str, state: State, seat: int, level: str, rng: random.Random) -> Action:
    """The action a bot of `level` plays for `seat` now."""
    if level not in BOT_LEVELS:
        raise IllegalAction("bad_bot_level", f"Unknown bot level {level!r}; choose one of {', '.join(BOT_LEVELS)}.")
    if kind == "scat":
        from .scat_bots import choose
    elif kind == "scattle":
        from .scattle_bots import choose
    else:
        raise IllegalAction("bad_kind", f"Unknown game kind {kind!r}.")
    return choose(state, seat, level, rng)
