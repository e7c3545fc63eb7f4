"""How and when each player wants to hear from us: the kinds of notice, the channels, the player's
choices (PlayerPreference, a model of accounts kept on its old table), and the vacation allowance and
away mark the game clock reads. The rooms that tell players things (notifications, the game clock,
tournaments) all read it, so it lives with the player, below them."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
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

    class Meta:
        db_table = "notifications_playerpreference"

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


def preference_for(user_id: int) -> PlayerPreference:
    return PlayerPreference.objects.filter(user_id=user_id).first() or PlayerPreference(user_id=user_id)
