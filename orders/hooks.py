"""Standing orders' part in a turn, registered with games.turn_hooks when the app is ready."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist

from games.models import Seat
from games.turn_hooks import TurnPlayer

from .services import TASK, play_in_locked_game


def will_play(seat: Seat) -> bool:
    """Whether the seat has standing orders in force (read with the seat by with_players: no query)."""
    try:
        return seat.standing_orders.is_active
    except ObjectDoesNotExist:
        return False


STANDING_ORDERS = TurnPlayer(will_play=will_play, task=TASK, play_before_timeout=play_in_locked_game)
