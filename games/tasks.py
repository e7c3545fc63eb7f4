"""Celery tasks: thin wrappers around services and sweeps. Every task is safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.contrib.auth import get_user_model

from . import notifications, services, sweeps, vacations

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def play_bots(game_id: str) -> int:
    """Play the computer players' moves in a game until a person is to act."""
    return services.play_bot_moves(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def apply_timeout(game_id: str) -> bool:
    return services.apply_timeout(game_id=game_id)


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_id: int) -> str:
    return notifications.deliver(delivery_id)


@shared_task(ignore_result=True)
def sweep_timeouts() -> int:
    """Every 30 seconds: hand each overdue game to a timeout task."""
    game_ids = sweeps.claim_overdue_games()
    for game_id in game_ids:
        apply_timeout.delay(game_id)
    return len(game_ids)


@shared_task(ignore_result=True)
def sweep_reminders() -> int:
    return sweeps.send_due_reminders()


@shared_task(ignore_result=True)
def sweep_deliveries() -> int:
    """Re-send what a lost message or a dead worker left pending."""
    due = notifications.due_deliveries()
    for delivery_id in due:
        deliver.delay(delivery_id)
    return len(due)


@shared_task(ignore_result=True)
def sweep_vacations() -> int:
    user_ids = sweeps.expired_vacations()
    for user in get_user_model().objects.filter(pk__in=user_ids):
        vacations.end_vacation(user=user)
    return len(user_ids)


@shared_task(ignore_result=True)
def send_digests() -> int:
    return notifications.create_digests()
