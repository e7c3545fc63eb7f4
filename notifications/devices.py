"""A player's push devices: subscribing one, removing one, forgetting one the push service says is
gone. Subscribing adds `push` to the events about a turn, and removing the last device takes it out
again, so that the outbox writes push deliveries only for players who have somewhere to send them."""

from __future__ import annotations

import base64
import binascii
import hmac

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction

from accounts.models import User
from config.service_errors import Conflict, Invalid, NotFound

from .addresses import push_endpoint_problem
from .models import Channel, NotificationKind, PlayerPreference, PushSubscription

MAX_DEVICES = 20
MAX_NAME_LENGTH = 80
PUSHED_EVENTS = (NotificationKind.YOUR_TURN, NotificationKind.TIME_RUNNING_OUT)


def decode_key(value: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return None


def keys_problem(p256dh: str, auth: str) -> str | None:
    """Why these are not a browser's push keys (RFC 8291: a P-256 point and a 16-byte secret)."""
    point = decode_key(p256dh)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point or b"")
    except ValueError:
        return "keys.p256dh must be the browser's P-256 public key (65 bytes, base64url)."
    secret = decode_key(auth)
    if secret is None or len(secret) != 16:
        return "keys.auth must be the browser's 16-byte authentication secret, base64url."
    return None


def clean_name(name: str) -> str:
    """A device name shown back to its owner: printable, one line, bounded."""
    name = "".join(c for c in name if c.isprintable()).strip()
    if len(name) > MAX_NAME_LENGTH:
        raise Invalid(f"A device name is at most {MAX_NAME_LENGTH} characters long.", "bad_name", {"name": [name]})
    return name


def same_keys(device: PushSubscription, p256dh: str, auth: str) -> bool:
    """Whether these are the keys the device was registered with (compared as bytes, in constant time)."""
    matches = [
        hmac.compare_digest(decode_key(given) or b"", decode_key(stored) or b"")
        for given, stored in ((p256dh, device.p256dh), (auth, device.auth))
    ]
    return all(matches)


@transaction.atomic
def subscribe(*, user: User, endpoint: str, p256dh: str, auth: str, name: str = "") -> tuple[PushSubscription, bool]:
    """Register a device for the player (or renew it: a browser keeps its endpoint); True when new.
    An endpoint belongs to one browser: a device of another account moves to this one only with that
    browser's own keys (one browser, two accounts). Knowing the address is not enough, or anyone who
    learnt it could take the device from its owner."""
    problem = push_endpoint_problem(endpoint)
    if problem:
        raise Invalid(problem, "bad_endpoint", {"endpoint": [problem]})
    problem = keys_problem(p256dh, auth)
    if problem:
        raise Invalid(problem, "bad_keys", {"keys": [problem]})
    name = clean_name(name)
    PlayerPreference.objects.get_or_create(user=user)
    preference = PlayerPreference.objects.select_for_update().get(user=user)  # counts devices one at a time
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    mine = existing is not None and existing.user_id == user.pk
    if existing is not None and not mine and not same_keys(existing, p256dh, auth):
        # One answer whichever key differs, naming nobody: it says no more than the refusal must.
        message = "This push address cannot be registered: unsubscribe this browser from push, then subscribe again."
        raise Conflict(message, "endpoint_in_use", {"endpoint": [message]})
    if not mine and PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
        raise Conflict(
            f"You have {MAX_DEVICES} devices already: remove one first.", "too_many_devices", {"devices": [MAX_DEVICES]}
        )
    if existing is None:
        device = PushSubscription.objects.create(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, name=name)
    else:
        previous_owner = existing.user_id
        existing.user, existing.p256dh, existing.auth = user, p256dh, auth
        existing.name = name or existing.name
        existing.save(update_fields=["user", "p256dh", "auth", "name"])
        device = existing
        if previous_owner != user.pk:
            _stop_pushing_if_no_device(previous_owner)
    _start_pushing(preference)
    return device, existing is None


@transaction.atomic
def remove(*, user: User, device_id: str) -> None:
    deleted = PushSubscription.objects.filter(user=user, public_id=device_id).delete()[0]
    if not deleted:
        raise NotFound("You have no such device.", "no_such_device")
    _stop_pushing_if_no_device(user.pk)


@transaction.atomic
def forget(subscription: PushSubscription) -> None:
    """The push service says the subscription is gone (404 or 410)."""
    PushSubscription.objects.filter(pk=subscription.pk).delete()
    _stop_pushing_if_no_device(subscription.user_id)


@transaction.atomic
def remove_all(user_id: int) -> None:
    """Every device of the player (their password changed: a stolen session's devices go too)."""
    PushSubscription.objects.filter(user_id=user_id).delete()
    _stop_pushing_if_no_device(user_id)


def _start_pushing(preference: PlayerPreference) -> None:
    channels = dict(preference.channels) if isinstance(preference.channels, dict) else {}
    for kind in PUSHED_EVENTS:
        chosen = preference.channels_for(kind)
        if Channel.PUSH not in chosen:
            channels[kind] = [*chosen, Channel.PUSH]
    if channels != preference.channels:
        preference.channels = channels
        preference.save(update_fields=["channels"])


def _stop_pushing_if_no_device(user_id: int) -> None:
    if PushSubscription.objects.filter(user_id=user_id).exists():
        return
    preference = PlayerPreference.objects.select_for_update().filter(user_id=user_id).first()
    if preference is None or not isinstance(preference.channels, dict):
        return
    channels = {
        kind: [c for c in chosen if c != Channel.PUSH] if isinstance(chosen, list) else chosen
        for kind, chosen in preference.channels.items()
    }
    if channels != preference.channels:
        preference.channels = channels
        preference.save(update_fields=["channels"])
