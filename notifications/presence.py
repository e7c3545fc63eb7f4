"""Where a player is looking: the games they have in front of them, kept in the database so that the
web processes that see them and the workers that send notifications agree.

A page view of a card table marks the game seen; an open stream of it marks it again every
STREAM_RENEWAL while it stays open. API requests by a token do not count: a program polling for its
owner is not its owner reading the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Q
from django.utils import timezone

from .models import Presence

# A game seen this recently is "open right now".
PRESENT_FOR = timedelta(minutes=1)
# How often an open stream marks its game again (well within PRESENT_FOR).
STREAM_RENEWAL = timedelta(seconds=20)
# Rows older than this answer no question any more (the longest follow-up delay is within it).
KEPT_FOR = timedelta(days=8)


# A stream worker marks the games of all its streams at once (live.presence): for 5,000, building as
# many model instances and their SQL took 90-140 ms of its CPU every STREAM_RENEWAL; from two arrays,
# PostgreSQL does the work.
UPSERT_FROM_ARRAYS = """
INSERT INTO notifications_presence (user_id, game_id, seen_at)
SELECT pairs.user_id, pairs.game_id, %s FROM unnest(%s::bigint[], %s::bigint[]) AS pairs(user_id, game_id)
ON CONFLICT (user_id, game_id) DO UPDATE SET seen_at = EXCLUDED.seen_at
"""


def mark_seen(pairs: Iterable[tuple[int, int]], now: datetime | None = None) -> None:
    """Mark each (user id, game id) seen now: one upsert for all of them, in one order (two processes
    marking the same pairs lock their rows in the same order, and cannot deadlock)."""
    pairs = sorted(set(pairs))
    if not pairs:
        return
    seen_at = now or timezone.now()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(UPSERT_FROM_ARRAYS, [seen_at, [u for u, _ in pairs], [g for _, g in pairs]])
        return
    rows = [Presence(user_id=user_id, game_id=game_id, seen_at=seen_at) for user_id, game_id in pairs]
    Presence.objects.bulk_create(rows, update_conflicts=True, unique_fields=["user", "game"], update_fields=["seen_at"])


def seen_since(user_id: int, game_id: int, since: datetime, now: datetime | None = None) -> bool:
    """Whether the player has looked at the game since `since`, or has it open right now."""
    now = now or timezone.now()
    return Presence.objects.filter(
        Q(seen_at__gte=since) | Q(seen_at__gte=now - PRESENT_FOR), user_id=user_id, game_id=game_id
    ).exists()


def prune(now: datetime | None = None) -> int:
    return Presence.objects.filter(seen_at__lt=(now or timezone.now()) - KEPT_FOR).delete()[0]
