"""What the beat finds due: overdue turns, reminders, expired vacations.

Each sweep claims its rows in one transaction (row locks with SKIP LOCKED, then a conditional
update), so two beats, or a beat and a slow worker, never act on the same row twice. Its cost
grows with what is due, not with the number of games: every query runs on a partial index.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from config.events import publish

from .events import RemindersDue
from .models import Game, GameStatus, Seat, Vacation

TIMEOUT_CLAIM = timedelta(minutes=2)
BATCH = 5000


def claim_overdue_games(now=None, limit: int = BATCH) -> list[str]:
    """Public ids of overdue games, each claimed for one timeout task."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=GameStatus.ACTIVE, deadline__lte=now)
            .filter(Q(timeout_claimed_until__isnull=True) | Q(timeout_claimed_until__lt=now))
            .values_list("pk", "public_id")[:limit]
        )
        if due:
            Game.objects.filter(pk__in=[pk for pk, _ in due]).update(timeout_claimed_until=now + TIMEOUT_CLAIM)
    return [public_id for _, public_id in due]


def send_due_reminders(now=None, limit: int = BATCH) -> int:
    """Announce each turn past its reminder time (the outbox writes a "time running out" notice)."""
    now = now or timezone.now()
    with transaction.atomic():
        due = list(
            Game.objects.select_for_update(skip_locked=True)
            .filter(status=GameStatus.ACTIVE, reminder_at__lte=now)
            .values_list("pk", flat=True)[:limit]
        )
        if not due:
            return 0
        Game.objects.filter(pk__in=due).update(reminder_at=None, turn_reminded_at=now)
        to_act = (
            Seat.objects.filter(game_id__in=due, index=F("game__to_act_seat"), user__isnull=False)
            .select_related("game")
            .only("user_id", "game__public_id", "game__kind", "game__deadline")
        )
        publish(RemindersDue(seats=list(to_act)))
    return len(due)


def expired_vacations(now=None) -> list[int]:
    now = now or timezone.now()
    return list(Vacation.objects.filter(ended_at__isnull=True, ends_at__lte=now).values_list("user_id", flat=True))
