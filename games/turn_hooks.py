"""Where another app takes part in a player's turn without the games app importing it: standing
orders (the orders app) play a turn before the player is told of it, and before a timeout falls.
The app registers its functions in its AppConfig.ready(); with none registered, nothing changes. A
hook, not a domain event (config.events): the orders change what the game core does next (no
"your turn" yet, no timeout), which a listener cannot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Game, Seat


@dataclass(frozen=True)
class TurnPlayer:
    # Whether the seat's turns are played for it first (read with the seat: no query).
    will_play: Callable[[Seat], bool]
    # The Celery task (by name) queued after the commit where such a turn begins, with the game's id.
    task: str
    # Inside a timeout's transaction: play the overdue turn; True when the turn passed.
    play_before_timeout: Callable[[Game, list[Seat], Seat], bool]


_registered: list[TurnPlayer] = []


def register(player: TurnPlayer) -> None:
    if player not in _registered:
        _registered.append(player)


def player_for(seat: Seat) -> TurnPlayer | None:
    """The registered player that plays this seat's turns first, if any."""
    return next((player for player in _registered if player.will_play(seat)), None)
