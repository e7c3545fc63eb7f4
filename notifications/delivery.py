"""Sending the outbox: a worker claims a delivery with a conditional update, asks notifications.timing
whether now is the time, and hands it to its channel. A crashed worker's claim runs out; a failure
is retried with backoff; every attempt of a delivery carries the same id, so a receiver that sees it
twice keeps one (at least once, exactly once where the receiver de-duplicates)."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.db.models import Q
from django.utils import timezone

from . import channels, timing
from .models import Channel, Delivery, DeliveryStatus, PlayerPreference
from .outbox import SENT_AT_ONCE, preference_for

logger = logging.getLogger(__name__)

# How long a worker holds a delivery it took: longer than any send can take (5 s a device), short
# enough that a dead worker's deliveries soon go out again.
CLAIM_FOR = timedelta(seconds=settings.DELIVERY_CLAIM_SECONDS)
# A new webhook or push delivery has a message of its own on the way; the sweep steps in after this,
# so that a lost message costs a phone at most this and one sweep interval. Should the message only
# be late, the claim keeps the two from sending twice.
OWN_MESSAGE_GRACE = timedelta(seconds=15)
# Waits between attempts; after the last one the delivery is marked failed.
RETRY_DELAYS = [
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
]


def claim(delivery_id: int, now=None) -> bool:
    """Take a pending delivery for this worker. False when another worker has it or it is done."""
    now = now or timezone.now()
    claimed = Delivery.objects.filter(
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
        pk=delivery_id,
        status=DeliveryStatus.PENDING,
        next_attempt_at__lte=now,
    ).update(claimed_until=now + CLAIM_FOR)
    return claimed == 1


def deliver(delivery_id: int, *, mail_connection: BaseEmailBackend | None = None) -> str:
    """Send one delivery if this worker can claim it and its time has come; returns what happened:
    "busy" (another worker has it, or it is done), "waiting", "skipped", "sent", "retry" or "failed"."""
    if not claim(delivery_id):
        return "busy"
    delivery = Delivery.objects.select_related("notification__user", "notification__game").get(pk=delivery_id)
    now = timezone.now()
    preference = preference_for(delivery.notification.user_id)
    preference.user = delivery.notification.user  # its time zone, already loaded
    decision = timing.decide(delivery, preference, now)
    if decision.skip:
        return skip(delivery, decision.skip)
    if decision.wait_until is not None:
        Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=decision.wait_until, claimed_until=None)
        return "waiting"
    try:
        channels.send(delivery, preference, mail_connection=mail_connection)
    except channels.NoRecipient as exc:
        return skip(delivery, exc.reason)
    except channels.DeliveryError as exc:
        return record_failure(delivery, str(exc), permanent=exc.permanent)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.SENT, sent_at=timezone.now(), attempts=delivery.attempts + 1, last_error=""
    )
    return "sent"


def skip(delivery: Delivery, reason: str) -> str:
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.SKIPPED, skip_reason=reason, claimed_until=None
    )
    return "skipped"


def record_failure(delivery: Delivery, error: str, *, permanent: bool = False) -> str:
    now = timezone.now()
    attempts = delivery.attempts + 1
    done = permanent or attempts > len(RETRY_DELAYS)
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=attempts,
        last_error=error[:500],
        claimed_until=None,
        status=DeliveryStatus.FAILED if done else DeliveryStatus.PENDING,
        next_attempt_at=now if done else now + RETRY_DELAYS[attempts - 1],
    )
    if delivery.channel == Channel.WEBHOOK:
        PlayerPreference.objects.filter(user_id=delivery.notification.user_id).update(
            webhook_last_error=error[:500], webhook_last_error_at=now
        )
    logger.info("Delivery %s failed (attempt %s): %s", delivery.pk, attempts, error)
    return "failed" if done else "retry"


def due_deliveries(now=None, limit: int = 5000) -> list[int]:
    """Pending deliveries whose time has come and that no worker holds (new webhooks and pushes only
    once their own message has had its chance)."""
    now = now or timezone.now()
    fresh = Q(channel__in=SENT_AT_ONCE, attempts=0, notification__created_at__gt=now - OWN_MESSAGE_GRACE)
    return list(
        Delivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .exclude(fresh)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
