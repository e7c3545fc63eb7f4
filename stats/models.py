"""Players' statistics and ratings per game kind, and the ratings' history: derived from finished
games, so that `manage.py recompute_stats` can rebuild them all. The tables kept the names they had
in accounts (stats/migrations/0001_initial.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import GameKind

from .results import SeatResult

# Written when a game finishes (stats.services.record_finished_game, in the game's own transaction,
# on the game core's GameFinished event) and rebuilt from the move history by `manage.py
# recompute_stats`; page views only read them.


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


class PlayerStats(models.Model):
    """One player's record in one game kind, folded in game by game in finishing order."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="stats")
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
        db_table = "accounts_playerstats"
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

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="ratings"
    )
    bot_level = models.CharField(max_length=16, blank=True)
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: a rating the player is very likely above; the leaderboard sorts by it.
    ordinal = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "accounts_rating"
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

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_history")
    kind = models.CharField(max_length=16, choices=GameKind.choices)
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    recorded_at = models.DateTimeField()

    class Meta:
        db_table = "accounts_ratinghistory"
        ordering = ["recorded_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_history_once_per_game")]
        indexes = [models.Index(fields=["user", "kind", "-recorded_at"], name="rating_history_recent")]

    def __str__(self) -> str:
        return f"{self.kind} rating of {self.user_id} after {self.game_id}"
