"""Table talk (messages, mutes, reports, silences), follows, rematches and players' notes on games."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, new_public_id

TEXT_MAX = 500
NOTE_MAX = 2000


class ChatMessage(models.Model):
    """One message at a table: free text or a quick phrase's key (shown in each reader's language).
    Its `revision` is the game's revision it took, so the game stream numbers it with the moves."""

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=TEXT_MAX, blank=True)
    phrase = models.CharField(max_length=32, blank=True)
    revision = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    # Hidden by a moderator: the other players no longer read it; its author sees that it was hidden.
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["game", "revision"], name="chat_game_revision"),
            models.Index(fields=["author", "-created_at"], name="chat_author_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=(Q(text="") & ~Q(phrase="")) | (~Q(text="") & Q(phrase="")), name="chat_text_or_phrase"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} by {self.author_id}"


class ChatMute(models.Model):
    """The muter no longer reads the muted player's messages, at any table."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatSilence(models.Model):
    """A moderator's silence: the player's free text is refused until `until` (phrases stay)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField()
    reason = models.CharField(max_length=500, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["user", "-until"], name="chat_silence_user")]

    def __str__(self) -> str:
        return f"{self.user_id} silenced until {self.until:%Y-%m-%d %H:%M}"


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    HIDDEN = "hidden", _("message hidden")
    WARNED = "warned", _("author warned")
    SILENCED = "silenced", _("author silenced")
    DISMISSED = "dismissed", _("dismissed")


class ChatReport(models.Model):
    """A player's report of a message, for the moderators; never shown to the message's author."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=500)
    status = models.CharField(max_length=16, choices=ReportStatus.choices, default=ReportStatus.OPEN)
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        indexes = [models.Index(fields=["status", "created_at"], name="chat_report_queue")]

    def __str__(self) -> str:
        return f"report of {self.message_id}"


class ChatWarning(models.Model):
    """A moderator's warning to a message's author, shown to them beside the table talk."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    message = models.ForeignKey(ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"warning to {self.user_id}"


class Follow(models.Model):
    """One way, as on Lichess: the follower sees the followed player's public games in progress."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique")]
        indexes = [models.Index(fields=["followed"], name="follow_followed")]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Rematch(models.Model):
    """A finished game's one rematch: every player who asks for it is sent to the same new game."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    rematch = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"rematch of {self.game_id}"


class GameNote(models.Model):
    """A player's private note on a game, kept after the game; nobody else ever reads it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=NOTE_MAX, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="game_note_unique")]

    def __str__(self) -> str:
        return f"note of {self.user_id} on {self.game_id}"
