from __future__ import annotations

import hashlib
import secrets
import zoneinfo
from typing import Any

from django.contrib.auth.models import AbstractUser, UserManager
from django.db import connection, models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import GameKind

from . import names
from .stats import SeatResult

TIME_ZONES = sorted(zoneinfo.available_timezones())


def new_token_id() -> str:
    return secrets.token_urlsafe(9)


class CaseInsensitiveUserManager(UserManager):
    def get_by_natural_key(self, username: str) -> User:
        return self.get(username__iexact=username)

    def _create_user_object(self, username, email, password, **extra_fields) -> User:
        # create_user and create_superuser (and their async twins) all build the user here.
        user = super()._create_user_object(username, email, password, **extra_fields)
        user.refresh_name_keys()
        return user


class ChatSetting(models.TextChoices):
    """What a player reads and writes at their tables: everything, or only the quick phrases."""

    ON = "on", _("table talk on")
    PHRASES = "phrases", _("quick phrases only")


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=60, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=8, default="en")
    chat = models.CharField(_("table talk"), max_length=8, choices=ChatSetting.choices, default=ChatSetting.ON)
    # Digests of the username's look-alike keys (accounts.names): a new username, or another
    # player's display name, that shares any of them is refused.
    name_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    look_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    caps_key = models.CharField(max_length=64, blank=True, db_index=True, editable=False)
    NAME_KEY_FIELDS = ("name_key", "look_key", "caps_key")

    objects = CaseInsensitiveUserManager()

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("username"), name="username_unique_ignoring_case"),
        ]

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def refresh_name_keys(self) -> None:
        """Set the look-alike keys from the username (save() does, whoever sets the username)."""
        self.name_key, self.look_key, self.caps_key = names.key_digests(self.username)

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Every save, not only the signup form's: the admin's add and change forms, a shell or a
        # script set usernames too, and a stale key lets a look-alike of the name through.
        self.refresh_name_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, *self.NAME_KEY_FIELDS}
        super().save(*args, **kwargs)


def lock_account_names() -> None:
    """Serialize what creates account names, for the rest of the transaction. PostgreSQL: an advisory
    lock; SQLite: its IMMEDIATE transactions already hold the one write lock."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ACCOUNT_NAMES_LOCK])


# An advisory lock's number: any constant no other lock of ours uses.
ACCOUNT_NAMES_LOCK = 0x5_1047_4E41


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored; the key is shown once, at creation."""

    PREFIX_LENGTH = 8

    # The token's address in the API and on the settings page: public, unguessable, not a secret.
    public_id = models.CharField(max_length=16, unique=True, default=new_token_id, editable=False)
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    key_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def hash_key(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    @classmethod
    def issue(cls, *, user: User, name: str) -> tuple[ApiToken, str]:
        """A new token and its key, which is never stored and cannot be shown again."""
        key = secrets.token_hex(20)
        token = cls.objects.create(user=user, name=name, prefix=key[: cls.PREFIX_LENGTH], key_hash=cls.hash_key(key))
        return token, key


# --- statistics and ratings ------------------------------------------------------------------
# Written when a game finishes (accounts.services.record_finished_game, in the game's own
# transaction) and rebuilt from the move history by `manage.py recompute_stats`; page views
# only read them.


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


class PlayerStats(models.Model):
    """One player's record in one game kind, folded in game by game in finishing order."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="stats")
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    games_finished = models.PositiveIntegerField(default=0)
    games_won = models.PositiveIntegerField(default=0, help_text="Finished first, alone or sharing first place.")
    games_resigned = models.PositiveIntegerField(default=0)
    place_sum = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0, help_text="Wins in a row, up to the latest game.")
    best_streak = models.PositiveIntegerField(default=0)
    # Reliability, from the turns' records.
    games_with_timeout = models.PositiveIntegerField(default=0)
    timed_out_turns = models.PositiveIntegerField(default=0)
    turns_moved = models.PositiveIntegerField(default=0, help_text="Turns the player ended by moving in time.")
    move_time_ms = models.BigIntegerField(default=0, help_text="Total time those turns took.")
    # Scat.
    knocks = models.PositiveIntegerField(default=0)
    knocks_survived = models.PositiveIntegerField(default=0)
    thirty_ones = models.PositiveIntegerField(default=0)
    lives_lost = models.PositiveIntegerField(default=0)
    # Scattle.
    melds = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0, help_text="Final scores summed (negative with deadwood penalties).")
    scattles = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="stats_user_kind_unique")]

    def __str__(self) -> str:
        return f"{self.kind} stats of {self.user_id}"

    def add_game(self, result: SeatResult, finished_at) -> None:
        """Fold one finished game into the record (games must come in finishing order, for the streaks)."""
        self.games_finished += 1
        self.games_won += result.won
        self.games_resigned += result.resigned
        self.place_sum += result.place
        self.current_streak = self.current_streak + 1 if result.won else 0
        self.best_streak = max(self.best_streak, self.current_streak)
        self.games_with_timeout += result.timed_out_turns > 0
        self.timed_out_turns += result.timed_out_turns
        self.turns_moved += result.turns_moved
        self.move_time_ms += result.move_time_ms
        self.knocks += result.knocks
        self.knocks_survived += result.knocks_survived
        self.thirty_ones += result.thirty_ones
        self.lives_lost += result.lives_lost
        self.melds += result.melds
        self.points += result.points
        self.scattles += result.scattles
        self.last_finished_at = finished_at

    @property
    def win_rate(self) -> float | None:
        return _share(self.games_won, self.games_finished)

    @property
    def average_place(self) -> float | None:
        return _share(self.place_sum, self.games_finished)

    @property
    def finished_without_timeout(self) -> float | None:
        return _share(self.games_finished - self.games_with_timeout, self.games_finished)

    @property
    def average_move_seconds(self) -> float | None:
        return _share(self.move_time_ms / 1000, self.turns_moved)

    @property
    def knock_survival_rate(self) -> float | None:
        return _share(self.knocks_survived, self.knocks)

    @property
    def points_per_game(self) -> float | None:
        return _share(self.points, self.games_finished)


class Rating(models.Model):
    """A rating (OpenSkill, Plackett-Luce) in one game kind: skill `mu` and its uncertainty `sigma`.

    Bots are rated too, one shared rating per bot level, so games against them move people's ratings
    by how strong that level has proven to be. Such rows have no user and name the level.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings")
    bot_level = models.CharField(max_length=16, blank=True)
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: a rating the player is very likely above; the leaderboard sorts by it.
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind"], condition=models.Q(user__isnull=False), name="rating_user_kind_unique"
            ),
            models.UniqueConstraint(
                fields=["bot_level", "kind"], condition=models.Q(user__isnull=True), name="rating_bot_kind_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot_level="")
                | (models.Q(user__isnull=True) & ~models.Q(bot_level="")),
                name="rating_user_or_bot",
            ),
        ]
        indexes = [models.Index(fields=["kind", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        who = self.user_id if self.user_id else f"bot {self.bot_level}"
        return f"{self.kind} rating of {who}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingHistory(models.Model):
    """A player's rating after each finished game: the points of the profile's chart."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="rating_history")
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["recorded_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_history_once_per_game")]
        indexes = [models.Index(fields=["user", "kind", "-recorded_at"], name="rating_history_recent")]

    def __str__(self) -> str:
        return f"{self.kind} rating of {self.user_id} after {self.game_id}"


class Block(models.Model):
    """One player refusing another: the blocked player cannot invite them or share a table with them."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
