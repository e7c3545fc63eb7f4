"""Web Push (RFC 8030): one message to each of the player's devices, its body encrypted for that
device (RFC 8291, aes128gcm) and the request signed with the site's VAPID key (RFC 8292). Sent
through the same pinned, no-redirect path as webhooks, with the same address rules."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone, translation
from pywebpush import WebPusher

from .. import devices, outbound, vapid
from ..models import Delivery, NotificationKind, PushSubscription
from ..texts import push_payload
from .errors import DeliveryError, NoRecipient, wire_failures

logger = logging.getLogger(__name__)

PUSH_TIMEOUT = 5
# A message the push service cannot hand over within this long is dropped (RFC 8030 caps nothing;
# the services keep about four weeks). Messages without a deadline keep for a day.
MAX_TTL = int(timedelta(days=28).total_seconds())
DEFAULT_TTL = int(timedelta(days=1).total_seconds())
MIN_TTL = 60
HIGH_URGENCY = (NotificationKind.YOUR_TURN, NotificationKind.TIME_RUNNING_OUT)
GONE = (404, 410)  # the subscription has expired or was withdrawn: forget the device
PUSH_NOT_ACCEPTED = "The push service did not accept the message."


def ttl_for(delivery: Delivery) -> int:
    """Seconds the push service keeps the message for an offline device: until the game's deadline,
    when there is one (never 0: a message for a sleeping phone must wait for it)."""
    game = delivery.notification.game
    if game is None or game.deadline is None:
        return DEFAULT_TTL
    left = (game.deadline - timezone.now()).total_seconds()
    return int(min(MAX_TTL, max(MIN_TTL, left)))


def message_body(delivery: Delivery) -> bytes:
    notification = delivery.notification
    with translation.override(notification.user.language or settings.LANGUAGE_CODE):
        return json.dumps(push_payload(notification), ensure_ascii=False).encode()


def send_push(delivery: Delivery) -> None:
    """One message to each of the player's devices that has not had it yet (a retry after a partial
    failure goes only to the devices that failed)."""
    had_it = set(delivery.reached_devices)
    subscriptions = [
        s for s in PushSubscription.objects.filter(user_id=delivery.notification.user_id) if s.public_id not in had_it
    ]
    if not subscriptions:
        if had_it:
            return  # every device still there has it
        raise NoRecipient("no_device")
    body = message_body(delivery)
    headers = {
        "TTL": str(ttl_for(delivery)),
        "Urgency": "high" if delivery.notification.kind in HIGH_URGENCY else "normal",
        # The delivery's id, the same on every attempt: a push service replaces a message it still
        # holds under the same topic, and the service worker shows one notification per game.
        "Topic": f"delivery-{delivery.pk}",
    }
    reached, failures = [], []
    for subscription in subscriptions:
        try:
            status = post_message(subscription, body, headers)
        except DeliveryError as exc:
            failures.append(exc)
            continue
        if status in GONE:
            devices.forget(subscription)
        elif 200 <= status < 300:
            reached.append(subscription)
        else:
            logger.info("Push delivery %s to device %s: HTTP %s", delivery.pk, subscription.public_id, status)
            failures.append(DeliveryError(PUSH_NOT_ACCEPTED, permanent=status == 413))
    if reached:
        PushSubscription.objects.filter(pk__in=[s.pk for s in reached]).update(last_success_at=timezone.now())
        had_it.update(s.public_id for s in reached)
        delivery.reached_devices = sorted(had_it)
        Delivery.objects.filter(pk=delivery.pk).update(reached_devices=delivery.reached_devices)
    if failures:
        raise DeliveryError(PUSH_NOT_ACCEPTED, permanent=all(f.permanent for f in failures))
    if not had_it:
        raise NoRecipient("no_device")


def post_message(subscription: PushSubscription, body: bytes, headers: dict[str, str]) -> int:
    """Encrypt `body` for one device and POST it to its push service; the HTTP status."""
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    encrypted = WebPusher(info).encode(body, content_encoding="aes128gcm")["body"]
    with wire_failures(PUSH_NOT_ACCEPTED, f"Push to device {subscription.public_id}"):
        try:
            authorization = vapid.authorization(subscription.endpoint)
        except vapid.PushNotConfigured as exc:
            raise DeliveryError(str(exc)) from exc
        answer = outbound.post(
            subscription.endpoint,
            encrypted,
            {
                **headers,
                "Content-Type": "application/octet-stream",
                "Content-Encoding": "aes128gcm",
                "Authorization": authorization,
            },
            allow_private=settings.PUSH_ALLOW_PRIVATE,
            timeout=PUSH_TIMEOUT,
        )
    return answer.status
