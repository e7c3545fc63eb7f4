"""Vacation: a player's clocks stop in every game, within a yearly allowance."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from accounts.preferences import PlayerPreference, preference_for
from config.write_batch import WriteBatch

from . import clock
from .errors import Conflict, Invalid
from .models import Game, GameStatus, Vacation
from .services import tell_viewers

DAY = timedelta(days=1)


def days_used(user: User, year: int, now: datetime) -> float:
    """Days of a year's allowance spent or booked: each vacation counts in the year it starts, an open
    one up to its planned end."""
    used = timedelta()
    for vacation in Vacation.objects.filter(user=user, started_at__year=year):
        used += (vacation.ended_at or vacation.ends_at) - vacation.started_at
    return used / DAY


def allowance_left(user: User, now: datetime | None = None) -> float:
    now = now or timezone.now()
    return preference_for(user.pk).vacation_days_per_year - days_used(user, now.year, now)


def current_vacation(user: User) -> Vacation | None:
    return Vacation.objects.filter(user=user, ended_at__isnull=True).first()


@transaction.atomic
def start_vacation(*, user: User, until: datetime, now: datetime | None = None) -> Vacation:
    now = now or timezone.now()
    if current_vacation(user):
        raise Conflict("You are already on vacation; end it first.", "already_on_vacation")
    if until <= now:
        raise Invalid("A vacation ends in the future.", "bad_vacation_end", {"until": ["Pick a later date."]})
    left = allowance_left(user, now)
    wanted = (until - now) / DAY
    if wanted > left + 1e-9:
        raise Invalid(
            f"That is {wanted:.1f} days; you have {max(left, 0):.1f} vacation days left this year.",
            "vacation_allowance",
            {"until": [f"At most {max(left, 0):.1f} days."]},
        )
    vacation = Vacation.objects.create(user=user, started_at=now, ends_at=until)
    PlayerPreference.objects.update_or_create(user=user, defaults={"away_until": until})
    # Stop the clocks of the games waiting for this player.
    for game in _games_awaiting(user).filter(deadline__isnull=False):
        game.paused_remaining = max(0, int((game.deadline - now).total_seconds()))
        game.deadline = None
        game.reminder_at = None
        _deadline_moved(game, ["paused_remaining", "deadline", "reminder_at"])
    return vacation


@transaction.atomic
def end_vacation(*, user: User, now: datetime | None = None) -> Vacation | None:
    now = now or timezone.now()
    vacation = Vacation.objects.select_for_update().filter(user=user, ended_at__isnull=True).first()
    if vacation is None:
        return None
    vacation.ended_at = min(now, vacation.ends_at)
    vacation.save(update_fields=["ended_at"])
    PlayerPreference.objects.filter(user=user).update(away_until=None)
    share = preference_for(user.pk).reminder_share
    for game in _games_awaiting(user).filter(deadline__isnull=True, paused_remaining__isnull=False):
        game.deadline = now + timedelta(seconds=game.paused_remaining)
        game.reminder_at = clock.reminder_time(now, game.deadline, share)
        game.paused_remaining = None
        _deadline_moved(game, ["paused_remaining", "deadline", "reminder_at"])
    return vacation


def _deadline_moved(game: Game, fields: list[str]) -> None:
    """Save a game whose clock a vacation stopped or restarted: its viewers see the deadline move."""
    writes = WriteBatch()
    tell_viewers(game, list(game.seats.all()), writes)
    writes.update(game, [*fields, "revision", "updated_at"])
    writes.flush()


def _games_awaiting(user: User):
    return Game.objects.select_for_update().filter(
        status=GameStatus.ACTIVE, seats__user=user, seats__index=F("to_act_seat")
    )
