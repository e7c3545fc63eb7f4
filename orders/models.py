"""A player's standing orders for one game: kept in a room of their own (the games app knows them
only by the seat's reverse relation and a task name), so that they migrate on their own."""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class EndReason(models.TextChoices):
    LIMIT = "limit", "the limit was reached"
    HAND_MOVE = "hand_move", "the player moved by hand"
    GAME_OVER = "game_over", "the game ended"


class StandingOrders(models.Model):
    """One seat's orders. `rules` are validated orders' rules (games.engine.orders); the limit is
    kept as sent and as the columns the server checks. Ended orders stay, with what they did, until
    the player replaces or cancels them."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="standing_orders")
    rules = models.JSONField()
    limit = models.JSONField()
    turns_limit = models.PositiveIntegerField(null=True, blank=True)
    until = models.DateTimeField(null=True, blank=True)
    # The game's version when the orders were set: a hand move after it ends them.
    since_version = models.PositiveIntegerField()
    # What the orders played: [{"version", "action"}], oldest first.
    played = models.JSONField(default=list)
    turns_played = models.PositiveIntegerField(default=0)
    # The turn (its start) the player was last told about, so a repeated task never tells twice.
    told_turn_at = models.DateTimeField(null=True, blank=True)
    # The game's version when the player was last told: "what the orders did" is what came after.
    told_version = models.PositiveIntegerField(default=0)
    ended = models.CharField(max_length=16, blank=True, choices=EndReason.choices)
    ended_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"standing orders of {self.seat}"

    @property
    def is_active(self) -> bool:
        return not self.ended
