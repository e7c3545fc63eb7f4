"""The channels a delivery goes out on: the only I/O of the notification system."""

from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend

from ..models import Channel, Delivery, PlayerPreference
from . import email, push, webhook
from .errors import DeliveryError, NoRecipient

__all__ = ["DeliveryError", "NoRecipient", "send"]


def send(delivery: Delivery, preference: PlayerPreference, *, mail_connection: BaseEmailBackend | None = None) -> None:
    """Send one delivery; `mail_connection` lets a batch of emails share one mail server session."""
    if delivery.channel == Channel.EMAIL:
        email.send_email(delivery, mail_connection)
    elif delivery.channel == Channel.WEBHOOK:
        webhook.send_webhook(delivery, preference)
    elif delivery.channel == Channel.PUSH:
        push.send_push(delivery)
    else:
        raise DeliveryError(f"unknown channel {delivery.channel}", permanent=True)
