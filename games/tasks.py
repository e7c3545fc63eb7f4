"""Celery tasks: thin wrappers around services and sweeps. Every task is safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.contrib.auth import get_user_model
from django.core import mail

from . import advice, notifications, services, sweeps, vacations
from .dispatch import batches

logger = logging.getLogger(__name__)

# Games per timeout task, deliveries per delivery task. Deliveries go in smaller batches: each may
# wait seconds for a slow webhook, and the ones behind it in the batch wait too.
TIMEOUT_BATCH = 50
DELIVERY_BATCH = 10


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


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_ids: list[int]) -> list[str]:
    """Send a batch of deliveries, one after another, its emails over one mail server session
    (opened by the first of them). Each is claimed, so a repeated task sends nothing twice."""
    outcomes = []
    mail_connection = mail.get_connection()
    try:
        for delivery_id in delivery_ids:
            try:
                outcomes.append(notifications.deliver(delivery_id, mail_connection=mail_connection))
            except Exception:
                logger.exception("Delivery %s failed; the delivery sweep retries it.", delivery_id)
                outcomes.append("error")
    finally:
        mail_connection.close()
    return outcomes


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
def sweep_deliveries() -> int:
    """Send the new emails, the retries that are due, and what a lost message or a dead worker left."""
    due = notifications.due_deliveries()
    for batch in batches(due, DELIVERY_BATCH):
        deliver.delay(batch)
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
