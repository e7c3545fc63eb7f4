"""Celery tasks of standing orders (thin: they call services)."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(acks_late=True, ignore_result=True)
def play_standing_orders(game_id: str) -> int:
    """Play the orders of the player to act until the turn passes or no rule matches."""
    return services.play_orders(game_id=game_id)
