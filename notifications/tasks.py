"""Celery tasks of the notification system: thin wrappers around the outbox's delivery and sweeps.
Every task is safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core import mail

from config.dispatch import batches

from . import delivery, digests, presence
from .outbox import DELIVERY_BATCH

logger = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def deliver(delivery_ids: list[int]) -> list[str]:
    """Send a batch of deliveries, one after another, its emails over one mail server session
    (opened by the first of them). Each is claimed, so a repeated task sends nothing twice."""
    outcomes = []
    mail_connection = mail.get_connection()
    try:
        for delivery_id in delivery_ids:
            try:
                outcomes.append(delivery.deliver(delivery_id, mail_connection=mail_connection))
            except Exception:
                logger.exception("Delivery %s failed; the delivery sweep retries it.", delivery_id)
                outcomes.append("error")
    finally:
        mail_connection.close()
    return outcomes


@shared_task(ignore_result=True)
def sweep_deliveries() -> int:
    """Send the new emails, the retries that are due, what waited for quiet hours or a follow-up,
    and what a lost message or a dead worker left."""
    due = delivery.due_deliveries()
    for batch in batches(due, DELIVERY_BATCH):
        deliver.delay(batch)
    return len(due)


@shared_task(ignore_result=True)
def send_digests() -> int:
    return digests.create_digests()


@shared_task(ignore_result=True)
def prune_presence() -> int:
    return presence.prune()
