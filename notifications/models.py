"""The notification system's rows: the outbox (notifications and their deliveries), how each player
wants to hear from us, their push devices, and where they are looking right now (presence)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", _("your turn")
    TIME_RUNNING_OUT = "time_running_out", _("time running out")
    GAME_OVER = "game_over", _("game over")
    INVITATION = "invitation", _("invitation")
    GAME_STARTED = "game_started", _("game started")
    DIGEST = "digest", _("daily digest")
    ROUND_STARTED = "round_started", _("tournament round started")
    TOURNAMENT_OVER = "tournament_over", _("tournament over")
    CHAT_MESSAGE = "chat_message", _("new message at a table")


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
        indexes = [models.Index(fields=["user", "-created_at"], name="notification_user_recent")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class Channel(models.TextChoices):
    IN_APP = "in_app", _("on the site")
    EMAIL = "email", _("email")
    WEBHOOK = "webhook", _("webhook")
    PUSH = "push", _("push to my devices")


# Channels per event for a player who has changed nothing.
DEFAULT_CHANNELS = {
    NotificationKind.YOUR_TURN: [Channel.IN_APP, Channel.EMAIL, Channel.WEBHOOK],
    NotificationKind.TIME_RUNNING_OUT: [Channel.IN_APP, Channel.EMAIL, Channel.WEBHOOK],
    NotificationKind.GAME_OVER: [Channel.IN_APP, Channel.WEBHOOK],
    NotificationKind.INVITATION: [Channel.IN_APP, Channel.EMAIL, Channel.WEBHOOK],
    NotificationKind.GAME_STARTED: [Channel.IN_APP, Channel.WEBHOOK],
    NotificationKind.DIGEST: [Channel.EMAIL],
    NotificationKind.ROUND_STARTED: [Channel.IN_APP, Channel.EMAIL, Channel.WEBHOOK],
    NotificationKind.TOURNAMENT_OVER: [Channel.IN_APP, Channel.WEBHOOK],
    NotificationKind.CHAT_MESSAGE: [Channel.IN_APP],  # never by email unless the player asks for it
}


DEFAULT_FOLLOW_UP_AFTER = int(timedelta(hours=12).total_seconds())


class PlayerPreference(models.Model):
    """How and when a player wants to hear from us, and their vacation allowance. No row = defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference")
    channels = models.JSONField(default=dict, blank=True, help_text="event -> list of channels; missing = default")
    reminder_share = models.FloatField(default=0.8, help_text="Remind when this share of the move's time is used.")
    digest_enabled = models.BooleanField(default=False)
    digest_hour = models.PositiveSmallIntegerField(default=8, help_text="Local hour (0-23) of the daily digest.")
    last_digest_on = models.DateField(null=True, blank=True)
    webhook_url = models.URLField(max_length=500, blank=True)
    webhook_secret = models.CharField(max_length=64, blank=True)
    webhook_last_error = models.CharField(max_length=500, blank=True)
    webhook_last_error_at = models.DateTimeField(null=True, blank=True)
    # Pushes and emails that are not urgent wait while the player's local clock is inside these hours
    # (start after end: the quiet hours run over midnight). Both null: no quiet hours.
    quiet_hours_start = models.TimeField(null=True, blank=True)
    quiet_hours_end = models.TimeField(null=True, blank=True)
    # For an event that went to the player's devices, the email follows only if the game is still
    # unopened this many seconds later; null: never.
    follow_up_after = models.PositiveIntegerField(
        null=True, blank=True, default=DEFAULT_FOLLOW_UP_AFTER, help_text="seconds; null: never"
    )
    vacation_days_per_year = models.PositiveSmallIntegerField(default=14)
    # The open Vacation's planned end, kept here by games.vacations so that a move learns whether
    # the next player is away from the row it loads anyway.
    away_until = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return f"preferences of {self.user_id}"

    def channels_for(self, kind: str) -> list[str]:
        """The channels for one event, each known channel once, whatever the stored choice holds: the
        outbox writes one delivery per channel inside someone's move, so a malformed choice must
        never reach it."""
        chosen = self.channels.get(kind) if isinstance(self.channels, dict) else None
        if not isinstance(chosen, list):
            return [str(c) for c in DEFAULT_CHANNELS.get(kind, [Channel.IN_APP])]
        return list(dict.fromkeys(c for c in chosen if isinstance(c, str) and c in Channel.values))


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
