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


def seconds_left(deadline: datetime | None, paused_remaining: int | None, now: datetime) -> int:
    """What remains of the running turn's time. Read from the deadline, not from the turn's start:
    a vacation moves the deadline (or stops the clock, keeping what was left), and time away
    must never count against a clock."""
    if deadline is None:
        return paused_remaining or 0
    return max(0, int((deadline - now).total_seconds()))


def bank_after_move(left: int, increment: int | None, cap: int | None) -> int:
    """What a bank holds after a move that left `left` seconds of it unused."""
    left = max(0, left) + (increment or 0)
    return min(left, cap) if cap else left
