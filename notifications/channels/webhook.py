"""Webhooks: a signed JSON message to the address the player chose, through the pinned sender."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder

from .. import outbound
from ..addresses import url_shape_problem
from ..models import Delivery, PlayerPreference
from ..texts import as_json
from .errors import DeliveryError, wire_failures

logger = logging.getLogger(__name__)

WEBHOOK_TIMEOUT = 5
WEBHOOK_NOT_ACCEPTED = "The receiver did not accept the delivery (no 2xx answer)."


def webhook_body(delivery: Delivery) -> bytes:
    body = {
        "delivery": delivery.pk,
        "event": delivery.notification.kind,
        "notification": as_json(delivery.notification),
    }
    return json.dumps(body, cls=DjangoJSONEncoder, sort_keys=True).encode()


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def send_webhook(delivery: Delivery, preference: PlayerPreference) -> None:
    if not preference.webhook_url:
        raise DeliveryError("no webhook address is set", permanent=True)
    # An address saved before today's rules: it can never work, so the delivery fails at once.
    problem = url_shape_problem(preference.webhook_url)
    if problem:
        raise DeliveryError(problem, permanent=True)
    body = webhook_body(delivery)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Slowhand-Webhook/1",
        "X-Slowhand-Event": delivery.notification.kind,
        # Receivers de-duplicate on this id: a retry after a lost answer repeats it.
        "X-Slowhand-Delivery": str(delivery.pk),
        "X-Slowhand-Signature": signature(preference.webhook_secret, body),
    }
    with wire_failures(WEBHOOK_NOT_ACCEPTED, f"Webhook delivery {delivery.pk}"):
        answer = outbound.post(
            preference.webhook_url,
            body,
            headers,
            allow_private=settings.WEBHOOK_ALLOW_PRIVATE,
            timeout=WEBHOOK_TIMEOUT,
        )
    if not answer.ok:
        logger.info("Webhook delivery %s answered HTTP %s", delivery.pk, answer.status)
        raise DeliveryError(WEBHOOK_NOT_ACCEPTED)
