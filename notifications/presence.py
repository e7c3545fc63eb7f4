"""Where a player is looking: the games they have in front of them, kept in the database so that the
web processes that see them and the workers that send notifications agree.

A page view of a card table marks the game seen; an open stream of it marks it again every
STREAM_RENEWAL while it stays open. API requests by a token do not count: a program polling for its
owner is not its owner reading the game.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from .models import Presence

# A game seen this recently is "open right now".
PRESENT_FOR = timedelta(minutes=1)
# How often an open stream marks its game again (well within PRESENT_FOR).
STREAM_RENEWAL = timedelta(seconds=20)
# Rows older than this answer no question any more (the longest follow-up delay is within it).
KEPT_FOR = timedelta(days=8)


def mark_seen(pairs: Iterable[tuple[int, int]], now: datetime | None = None) -> None:
    """Mark each (user id, game id) seen now: one upsert for all of them."""
    rows = [Presence(user_id=user_id, game_id=game_id, seen_at=now or timezone.now()) for user_id, game_id in pairs]
    if rows:
        Presence.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["user", "game"], update_fields=["seen_at"]
        )


def seen_since(user_id: int, game_id: int, since: datetime, now: datetime | None = None) -> bool:
    """Whether the player has looked at the game since `since`, or has it open right now."""
    now = now or timezone.now()
    return Presence.objects.filter(
        Q(seen_at__gte=since) | Q(seen_at__gte=now - PRESENT_FOR), user_id=user_id, game_id=game_id
    ).exists()


def prune(now: datetime | None = None) -> int:
    return Presence.objects.filter(seen_at__lt=(now or timezone.now()) - KEPT_FOR).delete()[0]
