"""Celery tasks: thin wrappers that call the services."""

from __future__ import annotations

import logging

from celery import shared_task

from . import services

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def play_bots(game_id: str) -> int:
    """Play the computer players' moves in a game until a person is to act."""
    return services.play_bot_moves(game_id=game_id)
