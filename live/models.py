"""The per-user event log behind GET /api/v1/stream/: what a player's own stream says, in order.

Each player's events are numbered by a counter of their own, taken under its row lock in the
transaction that causes them, so the ids a stream shows are gap-free and in commit order: a client
that resumes from id n misses nothing. The rows name what happened (a game changed, a notification
arrived); the stream renders them as the reader may see them when it sends them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class StreamCursor(models.Model):
    """The last event number a player's log has used."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="stream_cursor"
    )
    last_seq = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"stream of {self.user_id} at {self.last_seq}"


class EventKind(models.TextChoices):
    GAME = "game", "a game of theirs changed"
    NOTIFICATION = "notification", "a notification"
    NOTIFICATIONS_READ = "notifications_read", "the unread counts changed: notices were read or written"
    CREDENTIALS = "credentials", "a token was revoked or the password changed"


class StreamEvent(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stream_events")
    seq = models.PositiveBigIntegerField()
    kind = models.CharField(max_length=24, choices=EventKind.choices)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    notification = models.ForeignKey(
        "notifications.Notification", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "seq"], name="stream_event_once")]
        indexes = [models.Index(fields=["created_at"], name="stream_event_age")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.seq} of {self.user_id}"
