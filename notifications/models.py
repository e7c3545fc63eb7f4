"""The notification system's rows: the outbox (notifications and their deliveries), the players' push
devices, and where they are looking right now (presence). How each player wants to hear from us is
the player's own (accounts.preferences); its names are imported here for the rooms that tell players."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# How each player wants to hear from us belongs to the player (accounts), below every room that tells them.
from accounts.preferences import DEFAULT_CHANNELS, Channel, NotificationKind, PlayerPreference

__all__ = ["DEFAULT_CHANNELS", "Channel", "Delivery", "DeliveryStatus", "Notification", "NotificationKind",
           "PlayerPreference", "Presence", "PushSubscription"]  # fmt: skip


class Notification(models.Model):
    """The outbox: written in the same transaction as the change that causes it.

    Its payload holds only what the recipient may see (names, ids, texts), never cards.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=32, choices=NotificationKind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    payload = models.JSONField(default=dict)
    in_app = models.BooleanField(default=True, help_text="Listed on the site; false when only sent outside.")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_user_recent"),
            # The unread ones a player's badge counts, and those a new turn's notice replaces.
            models.Index(
                fields=["user", "game", "kind"],
                name="notification_unread",
                condition=Q(read_at__isnull=True, in_app=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    SENT = "sent", _("sent")
    FAILED = "failed", _("failed")
    # Not sent, on purpose: the player had already seen the game, or a push made the email needless.
    SKIPPED = "skipped", _("not needed")


class Delivery(models.Model):
    """One notification on one outside channel (email, webhook or push), sent by a worker."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    # A worker claims a delivery until this time; a crashed worker's claim simply runs out.
    claimed_until = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    skip_reason = models.CharField(max_length=32, blank=True)
    reached_devices = models.JSONField(
        default=list, blank=True, help_text="push: the devices (public ids) that took the message; a retry skips them"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["notification", "channel"], name="one_delivery_per_channel")]
        indexes = [
            models.Index(fields=["next_attempt_at"], name="delivery_pending_due", condition=Q(status="pending")),
        ]

    def __str__(self) -> str:
        return f"{self.channel} delivery of {self.notification_id}"


def new_device_id() -> str:
    return secrets.token_urlsafe(9)


class PushSubscription(models.Model):
    """One browser or phone that receives the player's pushes (the Push API's subscription)."""

    public_id = models.CharField(max_length=16, unique=True, default=new_device_id, editable=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    # The push service's address for this browser: one browser profile, one endpoint, so one owner.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100, help_text="the browser's P-256 public key, base64url")
    auth = models.CharField(max_length=40, help_text="the browser's authentication secret, base64url")
    name = models.CharField(max_length=80, blank=True, help_text="the player's name for the device")
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"push device {self.public_id} of {self.user_id}"


class Presence(models.Model):
    """When a player last had a game in front of them: a page view of its table, or an open stream of
    it (renewed while it stays open). A notification about a turn that the player has seen since it
    was written, or is looking at right now, stays off their phone and out of their mail."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_presence_per_game")]
        indexes = [models.Index(fields=["seen_at"], name="presence_seen")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.game_id} ({self.seen_at:%Y-%m-%d %H:%M})"
