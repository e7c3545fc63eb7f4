from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Game, GameKind, TimeControl, TimeoutPolicy, new_public_id


class TournamentFormat(models.TextChoices):
    SWISS = "swiss", _("Swiss")
    ROUND_ROBIN = "round_robin", _("round robin")


class TournamentStatus(models.TextChoices):
    OPEN = "open", _("open")
    RUNNING = "running", _("running")
    FINISHED = "finished", _("finished")


class CancelReason(models.TextChoices):
    TOO_FEW_PLAYERS = "too_few_players", _("too few players had entered when it was due to start")
    CREATOR = "creator", _("its creator called it off")


class VacationPolicy(models.TextChoices):
    # The games' clocks stop for a player on vacation, so the round waits for them.
    PAUSES = "pauses", _("a player's vacation stops their clocks, and the round waits")
    # The round goes on: a player on vacation keeps their deadlines, and the timeout policy plays.
    IGNORED = "ignored", _("the round does not wait for a player on vacation")


class Tournament(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    format = models.CharField(max_length=16, choices=TournamentFormat.choices)
    table_size = models.PositiveSmallIntegerField()
    # Swiss: chosen by the creator; round robin: set when the tournament starts (every pair once).
    rounds = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    move_time_limit = models.PositiveIntegerField(default=86400, help_text="seconds per move")
    time_control = models.CharField(max_length=16, choices=TimeControl.choices, default=TimeControl.PER_MOVE)
    bank_initial = models.PositiveIntegerField(null=True, blank=True)
    bank_increment = models.PositiveIntegerField(null=True, blank=True)
    bank_cap = models.PositiveIntegerField(null=True, blank=True)
    timeout_policy = models.CharField(max_length=16, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AUTOPLAY)
    vacation = models.CharField(max_length=16, choices=VacationPolicy.choices, default=VacationPolicy.IGNORED)
    max_players = models.PositiveIntegerField()
    bots_fill = models.BooleanField(default=False)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="Started by the beat then; empty: by the creator."
    )
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_tournaments")
    status = models.CharField(max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.OPEN)
    # Set when it finished without being played: why.
    cancel_reason = models.CharField(max_length=16, choices=CancelReason.choices, blank=True)
    current_round = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="tournament_status_created"),
            models.Index(fields=["starts_at"], name="tournament_due_start", condition=Q(status="open")),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.public_id}, {self.status})"

    @property
    def cancelled(self) -> bool:
        return bool(self.cancel_reason)


class Entry(models.Model):
    """A player in a tournament, from joining; a withdrawn player keeps their standings row."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    joined_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    # An estimate for the players' calendars (tournaments.services.expected_round_length).
    expected_end = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        # A round is created once, whatever races to create it.
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_table")

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round_id}"


class Bye(models.Model):
    """A player sitting a round out, with the bye's points (scoring.bye_points)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_byes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "user"], name="one_bye_per_round")]

    def __str__(self) -> str:
        return f"bye of {self.user_id} in {self.round_id}"


def new_feed_token() -> str:
    return secrets.token_urlsafe(24)


class CalendarFeed(models.Model):
    """A player's secret calendar address. The token is the whole secret (a calendar program cannot
    send credentials), so rotating it is the only way to cut off whoever learned it."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="calendar_feed")
    token = models.CharField(max_length=64, unique=True, default=new_feed_token)
    rotated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"calendar of {self.user_id}"
