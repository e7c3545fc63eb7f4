"""Email: one message per delivery, with a Message-ID that stays the same on every attempt."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend
from django.utils import translation

from ..models import Delivery
from ..texts import link_of, text_of
from .errors import DeliveryError


def site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def send_email(delivery: Delivery, mail_connection: BaseEmailBackend | None = None) -> None:
    notification = delivery.notification
    user = notification.user
    if not user.email:
        raise DeliveryError("the player has no email address")  # they may add one: retried
    with translation.override(user.language or settings.LANGUAGE_CODE):
        text = text_of(notification)
        message = EmailMessage(
            f"Slowhand: {text}",
            f"{text}\n\n{site_url(link_of(notification))}\n",
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
