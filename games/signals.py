"""Signals other apps listen to, so that games never imports them (no import circle)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent by games.services._finish inside the transaction that finishes a game, with `game` (its
# status, outcome and finished_at set; its row saved just after) and `seats` (final places saved).
# A receiver's writes commit or roll back with the game's end.
game_finished = Signal()
