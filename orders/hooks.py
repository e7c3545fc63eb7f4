"""What the games app asks of standing orders where a turn begins and where a timeout falls. Light on
purpose: games.services imports it, and it imports the rest only when it is called."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ObjectDoesNotExist

if TYPE_CHECKING:
    from games.models import Game, Seat

TASK = "orders.tasks.play_standing_orders"


def will_play(seat: Seat) -> bool:
    """Whether the seat has standing orders in force (read with the seat by with_players: no query)."""
    try:
        return seat.standing_orders.is_active
    except ObjectDoesNotExist:
        return False


def play_before_timeout(game: Game, seats: list[Seat], seat: Seat) -> bool:
    """Inside the timeout's transaction: let the orders play the overdue turn first. True when they
    passed the turn (no timeout then)."""
    from .services import play_in_locked_game

    return play_in_locked_game(game, seats, seat)
