"""Deadlines and reminder times. Pure functions of the game's time control and the moment."""

from __future__ import annotations

from datetime import datetime, timedelta

MIN_MOVE_TIME = 60
MAX_MOVE_TIME = 30 * 24 * 3600
MOVE_TIME_PRESETS = {
    "1 hour": 3600,
    "12 hours": 12 * 3600,
    "1 day": 86400,
    "2 days": 2 * 86400,
    "3 days": 3 * 86400,
    "7 days": 7 * 86400,
}
DEFAULT_REMINDER_SHARE = 0.8
# A computer player moves at once; if its task is lost, the timeout sweep plays it this late.
BOT_GRACE = timedelta(seconds=5)


def turn_deadline(move_time_limit: int, started_at: datetime) -> datetime:
    return started_at + timedelta(seconds=move_time_limit)


def reminder_time(started_at: datetime, deadline: datetime, share: float = DEFAULT_REMINDER_SHARE) -> datetime:
    """When `share` of the move's time is used up."""
    return started_at + (deadline - started_at) * share


def validate_time_bank(bank: dict[str, int]) -> dict[str, int] | None:
    """A time bank's three numbers in seconds, or None when one is missing or out of range."""
    try:
        initial, increment, cap = (int(bank[key]) for key in ("initial", "increment", "cap"))
    except (KeyError, TypeError, ValueError):
        return None
    if not (MIN_MOVE_TIME <= initial <= cap <= MAX_MOVE_TIME and 0 <= increment <= MAX_MOVE_TIME):
        return None
    return {"initial": initial, "increment": increment, "cap": cap}


def bank_after_move(remaining: int, used: int, increment: int | None, cap: int | None) -> int:
    """What is left in a bank after a move that took `used` seconds."""
    left = max(0, remaining - used) + (increment or 0)
    return min(left, cap) if cap else left
