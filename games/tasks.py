"""Celery tasks: thin wrappers around services and sweeps. Every task is safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.contrib.auth import get_user_model

from config.dispatch import batches

from . import advice, services, sweeps, vacations

logger = logging.getLogger(__name__)

# Games per timeout task.
TIMEOUT_BATCH = 50


@shared_task(acks_late=True, ignore_result=True)
def play_bots(game_id: str) -> int:
    """Play the computer players' moves in a game until a person is to act."""
    return services.play_bot_moves(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def apply_timeouts(game_ids: list[str]) -> int:
    """Handle a batch of overdue games, one transaction each. A game that fails is logged and left
    to a later sweep (its claim runs out), so it never holds up the rest of the batch."""
    handled = 0
    for game_id in game_ids:
        try:
            handled += services.apply_timeout(game_id=game_id)
        except Exception:
            logger.exception("The timeout of game %s failed; a later sweep retries it.", game_id)
    return handled


@shared_task(ignore_result=True)
def sweep_timeouts() -> int:
    """Every 2 seconds: hand the overdue games to timeout tasks."""
    game_ids = sweeps.claim_overdue_games()
    queue_timeouts(game_ids)
    return len(game_ids)


def queue_timeouts(game_ids: list[str]) -> None:
    for batch in batches(game_ids, TIMEOUT_BATCH):
        apply_timeouts.delay(batch)


@shared_task(ignore_result=True)
def sweep_reminders() -> int:
    return sweeps.send_due_reminders()


@shared_task(ignore_result=True)
def sweep_vacations() -> int:
    user_ids = sweeps.expired_vacations()
    for user in get_user_model().objects.filter(pk__in=user_ids):
        vacations.end_vacation(user=user)
    return len(user_ids)


@shared_task(acks_late=True, ignore_result=True)
def review_game(review_id: int) -> None:
    """A few decisions of a post-game review, then the next few in a task of their own (the reviews
    queue), so that no worker is held for long."""
    if advice.review_step(review_id):
        review_game.delay(review_id)


@shared_task(ignore_result=True)
def sweep_reviews() -> int:
    """Reviews whose task was lost (a broker outage at the end of the game, a worker killed)."""
    pending = advice.stalled_reviews()
    for review_id in pending:
        review_game.delay(review_id)
    return len(pending)
