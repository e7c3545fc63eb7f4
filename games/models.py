from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .engine.base import EDITION


def new_public_id() -> str:
    """Twelve URL-safe characters, never starting with a dash: a command line would take such an id
    (as in `follow_game.py URL ID`) for an option."""
    public_id = secrets.token_urlsafe(9)
    while public_id.startswith("-"):
        public_id = secrets.token_urlsafe(9)
    return public_id


class GameStatus(models.TextChoices):
    OPEN = "open", _("open")
    ACTIVE = "active", _("active")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


class BotLevel(models.TextChoices):
    """The computer players (games.engine.bots.BOT_LEVELS), as the pages name them."""

    RANDOM = "random", _("Computer (random)")
    GOOD = "good", _("Computer (good)")
    EXPERT = "expert", _("Computer (expert)")


class GameKind(models.TextChoices):
    SCAT = "scat", _("Scat")
    SCATTLE = "scattle", _("Scattle")


class TimeoutPolicy(models.TextChoices):
    AUTOPLAY = "autoplay", _("the server plays a move for the absent player")
    FORFEIT = "forfeit", _("the absent player resigns")


class TimeControl(models.TextChoices):
    PER_MOVE = "per_move", _("a time limit per move")
    BANK = "bank", _("a time bank")


def time_control_columns(bank: dict[str, int] | None) -> dict[str, Any]:
    """The columns a game or a tournament keeps its time control in: a time bank, or (None) a limit
    per move."""
    return {
        "time_control": TimeControl.BANK if bank else TimeControl.PER_MOVE,
        "bank_initial": bank and bank["initial"],
        "bank_increment": bank and bank["increment"],
        "bank_cap": bank and bank["cap"],
    }


def time_bank_of(row: Any) -> dict[str, int] | None:
    """The time bank of a game or a tournament, as the API shows it; None for a limit per move."""
    if row.time_control != TimeControl.BANK:
        return None
    return {"initial": row.bank_initial, "increment": row.bank_increment, "cap": row.bank_cap}


class GameQuerySet(models.QuerySet):
    def visible_to(self, user) -> GameQuerySet:
        """Public games, and private ones where the user holds or is invited to a seat."""
        if not user.is_authenticated:
            return self.filter(is_private=False)
        mine = Q(seats__user=user) | Q(seats__invited_user=user)
        return self.filter(Q(is_private=False) | Q(pk__in=Game.objects.filter(mine).values("pk")))


class Game(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, editable=False)
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    options = models.JSONField(default=dict)
    num_seats = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=16, choices=GameStatus.choices, default=GameStatus.OPEN)
    is_private = models.BooleanField(default=False)
    # Unrated games change no rating; only they may offer the advisor's advice to their players.
    rated = models.BooleanField(default=True)
    advice = models.BooleanField(default=False)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")

    # The engine's snapshot and the number of moves applied to reach it. The snapshot holds
    # secrets (hands, stock, seed): it only ever leaves through the engine's view().
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    # Moves on with every change a viewer can see (a move, a seat taken or left, the start, a deadline
    # moved by a vacation, the end): the game streams' event ids, and the detail's ETag.
    revision = models.PositiveIntegerField(default=0)
    to_act_seat = models.SmallIntegerField(null=True, blank=True)
    outcome = models.JSONField(null=True, blank=True)

    # The edition of the rules the game plays by (games.engine.base.EDITION); games stored before
    # the second edition keep playing by the first, those stored before the third by the second.
    rules_edition = models.PositiveSmallIntegerField(default=EDITION)

    # Provably fair shuffles: the hash is public from the start, the seed once the game is over.
    seed = models.CharField(max_length=64, blank=True)
    seed_sha256 = models.CharField(max_length=64, blank=True)

    # The clock.
    move_time_limit = models.PositiveIntegerField(default=86400, help_text="seconds per move")
    timeout_policy = models.CharField(max_length=16, choices=TimeoutPolicy.choices, default=TimeoutPolicy.AUTOPLAY)
    time_control = models.CharField(max_length=16, choices=TimeControl.choices, default=TimeControl.PER_MOVE)
    bank_initial = models.PositiveIntegerField(null=True, blank=True, help_text="time bank: seconds at the start")
    bank_increment = models.PositiveIntegerField(null=True, blank=True, help_text="time bank: seconds added per move")
    bank_cap = models.PositiveIntegerField(null=True, blank=True, help_text="time bank: most seconds a bank holds")
    deadline = models.DateTimeField(null=True, blank=True)
    reminder_at = models.DateTimeField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    turn_reminded_at = models.DateTimeField(
        null=True, blank=True, help_text="When the running turn's reminder went out."
    )
    # Seconds left on the current turn while the player to act is on vacation (deadline is then null).
    paused_remaining = models.PositiveIntegerField(null=True, blank=True)
    # The timeout sweep claims an overdue game until this time; a lost task's claim runs out.
    timeout_claimed_until = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["deadline"], name="game_deadline_active", condition=Q(status="active")),
            models.Index(fields=["reminder_at"], name="game_reminder_active", condition=Q(status="active")),
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.public_id} ({self.status})"

    @property
    def is_over(self) -> bool:
        return self.status in (GameStatus.FINISHED, GameStatus.ABORTED)

    def hold_engine_state(self, state) -> None:
        """Keep the engine's `state`, of which `self.state` is the stored form just made: the move's
        answer reads it instead of reading (and checking) the stored form again."""
        self._engine_state = (self.state, state)

    def engine_state(self, rules):
        """The state as `rules` read it: the one held since `self.state` was set, else read from it."""
        held = getattr(self, "_engine_state", None)
        if held is not None and held[0] is self.state:
            return held[1]
        return rules.from_json(self.state)


class SeatQuerySet(models.QuerySet):
    def with_players(self) -> SeatQuerySet:
        """Seats with what a move needs of their players, in one query: the user and their
        preferences (which also say until when they are away on vacation), and the seat's standing
        orders (a turn that begins reads whether there are any)."""
        return self.select_related("user__preference", "standing_orders")

    # The next two are Seat.is_reserved in SQL.
    def free(self, now: datetime) -> SeatQuerySet:
        """Seats anyone may take: not taken, and not held for an invitee (or held no longer)."""
        unheld = Q(invited_user__isnull=True, invite_token_hash="") | Q(invite_expires_at__lte=now)
        return self.filter(unheld, user__isnull=True, bot_level="")

    def held_for(self, user_id: int, now: datetime) -> SeatQuerySet:
        """Seats not taken and held for this invitee, their invitation not expired."""
        unexpired = Q(invite_expires_at__isnull=True) | Q(invite_expires_at__gt=now)
        return self.filter(unexpired, invited_user_id=user_id, user__isnull=True, bot_level="")


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    bot_level = models.CharField(max_length=16, blank=True)
    # An invitation reserves the seat for a named player, or for whoever holds the link's token.
    invited_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="invitations"
    )
    invite_token_hash = models.CharField(max_length=64, blank=True, db_index=True)
    invite_expires_at = models.DateTimeField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    final_place = models.PositiveSmallIntegerField(null=True, blank=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    bank_remaining = models.PositiveIntegerField(null=True, blank=True, help_text="time bank: seconds left")
    resigned = models.BooleanField(default=False)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_user_unique", condition=Q(user__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of {self.game_id}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_taken(self) -> bool:
        return self.user_id is not None or self.is_bot

    @property
    def away_until(self) -> datetime | None:
        """When the seated player's current vacation ends, or None when they are not away."""
        if not self.user_id:
            return None
        try:
            return self.user.preference.away_until
        except ObjectDoesNotExist:  # no preferences row: not away
            return None

    def is_reserved(self, now=None) -> bool:
        """Held for an invitee (by name or by link) whose invitation has not expired."""
        if self.is_taken or not (self.invited_user_id or self.invite_token_hash):
            return False
        return self.invite_expires_at is None or self.invite_expires_at > (now or timezone.now())


class Move(models.Model):
    """One applied action. Append-only: rows are never updated or deleted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    # The engine's events with every secret in them; shown only through view_events().
    events = models.JSONField(default=list)
    by_server = models.CharField(max_length=16, blank=True, help_text="'bot' or 'timeout' when the server played it")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    idempotency_key = models.CharField(max_length=128, blank=True)
    # The game's revision after this move (null for moves made before revisions existed).
    revision = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique"),
            models.UniqueConstraint(
                fields=["game", "user", "idempotency_key"],
                name="move_idempotency_unique",
                condition=~Q(idempotency_key=""),
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.seq} of {self.game_id}"


class Turn(models.Model):
    """One finished turn: whose, from when to when, its deadline, when its reminder went out, and
    whether the server played it for an absent player.

    Written once, when the turn ends. The turn in progress is the game's own (to_act_seat,
    turn_started_at, deadline, turn_reminded_at), which the sweeps read through the game's
    partial indexes, so passing the turn writes one row instead of closing one and opening
    another. Turns give the profile its times to move and the game its turns list.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    seat = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField()
    reminded_at = models.DateTimeField(null=True, blank=True)
    timed_out = models.BooleanField(default=False)

    class Meta:
        ordering = ["started_at", "pk"]
        indexes = [models.Index(fields=["game", "started_at"], name="turn_game_started")]

    def __str__(self) -> str:
        return f"turn of seat {self.seat} in {self.game_id}"


class Vacation(models.Model):
    """A player's time away: their clocks stop in every game until it ends."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="Planned end.")
    ended_at = models.DateTimeField(null=True, blank=True, help_text="Actual end, once over.")

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(ended_at__isnull=True), name="one_open_vacation"),
        ]
        indexes = [models.Index(fields=["ends_at"], name="vacation_open_ends", condition=Q(ended_at__isnull=True))]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} until {self.ends_at:%Y-%m-%d}"


class Review(models.Model):
    """A player's turns of a finished game, each with the advisor's best action and what the action
    taken cost, computed from what the player knew then (games.advice.review_turns), in a task."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews")
    # Filled a few decisions per task (so that a long review never holds up the bots' moves).
    turns = models.JSONField(default=list)
    reviewed_to = models.PositiveIntegerField(default=0, help_text="The moves up to this one are reviewed.")
    created_at = models.DateTimeField(default=timezone.now)
    ready_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_review_per_player")]
        indexes = [models.Index(fields=["created_at"], name="review_pending", condition=Q(ready_at__isnull=True))]

    def __str__(self) -> str:
        return f"review of {self.user_id} in {self.game_id}"
