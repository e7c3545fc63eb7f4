"""Sending a delivery over email or a webhook: the only I/O of the notification system."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.core.serializers.json import DjangoJSONEncoder
from django.utils import translation

from . import outbound
from .models import Channel, Delivery
from .webhooks import url_shape_problem

logger = logging.getLogger(__name__)

WEBHOOK_TIMEOUT = 5
WEBHOOK_NOT_ACCEPTED = "The receiver did not accept the delivery (no 2xx answer)."


class DeliveryError(Exception):
    """The channel refused or failed; the delivery will be retried, unless `permanent` (it can
    never succeed, so it is marked failed at once)."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


def send(delivery: Delivery, *, mail_connection: BaseEmailBackend | None = None) -> None:
    """Send one delivery; `mail_connection` lets a batch of emails share one mail server session."""
    if delivery.channel == Channel.EMAIL:
        send_email(delivery, mail_connection)
    elif delivery.channel == Channel.WEBHOOK:
        send_webhook(delivery)
    else:
        raise DeliveryError(f"unknown channel {delivery.channel}")


def site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def send_email(delivery: Delivery, mail_connection: BaseEmailBackend | None = None) -> None:
    from .notifications import text_of

    notification = delivery.notification
    user = notification.user
    if not user.email:
        raise DeliveryError("the player has no email address")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        text = text_of(notification)
        link = site_url(f"/games/{notification.game.public_id}/") if notification.game else site_url("/games/")
        message = EmailMessage(
            f"Slowhand: {text}",
            f"{text}\n\n{link}\n",
            to=[user.email],
            # The same id on every attempt: mail systems that see it twice keep one copy, as
            # webhook receivers do with X-Slowhand-Delivery.
            headers={"Message-ID": f"<delivery-{delivery.pk}@{urlsplit(settings.SITE_URL).hostname or 'slowhand'}>"},
            connection=mail_connection,
        )
        try:
            if mail_connection is not None:
                mail_connection.open()  # once per batch: later emails find the session open
            message.send()
        except OSError as exc:
            if mail_connection is not None:
                mail_connection.close()  # the batch's next email starts a fresh session
            raise DeliveryError(f"mail server: {exc}") from exc


def webhook_body(delivery: Delivery) -> bytes:
    from .notifications import as_json

    body = {
        "delivery": delivery.pk,
        "event": delivery.notification.kind,
        "notification": as_json(delivery.notification),
    }
    return json.dumps(body, cls=DjangoJSONEncoder, sort_keys=True).encode()


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def send_webhook(delivery: Delivery) -> None:
    from .notifications import preference_for

    preference = preference_for(delivery.notification.user_id)
    if not preference.webhook_url:
        raise DeliveryError("no webhook address is set")
    # An address saved before today's rules: it can never work, so the delivery fails at once.
    problem = url_shape_problem(preference.webhook_url)
    if problem:
        raise DeliveryError(problem, permanent=True)
    body = webhook_body(delivery)
    headers = {
        "User-Agent": "Slowhand-Webhook/1",
        "X-Slowhand-Event": delivery.notification.kind,
        # Receivers de-duplicate on this id: a retry after a lost answer repeats it.
        "X-Slowhand-Delivery": str(delivery.pk),
        "X-Slowhand-Signature": signature(preference.webhook_secret, body),
    }
    # The player sees one sentence whatever went wrong on the wire: telling a refused connection
    # from an HTTP error would make the webhook a port scanner. Operators get the cause in the log.
    try:
        answer = outbound.post_json(
            preference.webhook_url,
            body,
            headers,
            allow_private=settings.WEBHOOK_ALLOW_PRIVATE,
            timeout=WEBHOOK_TIMEOUT,
        )
    except outbound.AddressRefused as exc:
        logger.info("Webhook delivery %s refused by the address policy: %s", delivery.pk, exc)
        # The same sentence as for a name that does not resolve: telling them apart would say which
        # names resolve inside our network. It can never succeed, so it is not retried.
        raise DeliveryError(WEBHOOK_NOT_ACCEPTED, permanent=True) from exc
    except outbound.SendFailed as exc:
        logger.info("Webhook delivery %s got no answer: %s", delivery.pk, exc)
        raise DeliveryError(WEBHOOK_NOT_ACCEPTED) from exc
    if not answer.ok:
        logger.info("Webhook delivery %s answered HTTP %s", delivery.pk, answer.status)
        raise DeliveryError(WEBHOOK_NOT_ACCEPTED)
