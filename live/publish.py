"""Telling the stream processes, once a transaction has committed, which games and which players'
logs have news: one message per game (live.changes) and per player, whatever the number of open
streams. A rolled-back change says nothing. The messages go over Redis pub/sub; without Redis (make run) the
stream processes poll the database instead, and with Redis they also look now and then, so a
message lost in an outage delays an event but never loses it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from config.cache import OUTAGE

logger = logging.getLogger(__name__)

PREFIX = f"{settings.REDIS_KEY_PREFIX}live:"


def game_channel(public_id: str) -> str:
    return f"{PREFIX}game:{public_id}"


def user_channel(user_id: int) -> str:
    return f"{PREFIX}user:{user_id}"


def keys_channel(user_id: int) -> str:
    """Rung when a player's token is revoked or password changed: every stream of theirs looks."""
    return f"{PREFIX}keys:{user_id}"


def announce(users: Iterable[int], keys: Iterable[int] = ()) -> None:
    """Publish now: a nudge to each player's own stream, and to all the streams of each player whose
    credentials changed. (A game's own message is live.changes'.)"""
    if not hasattr(cache, "pipeline"):
        return  # no Redis: the streams poll the database
    pipe = cache.pipeline()
    for user_id in set(users):
        pipe.publish(user_channel(user_id), "1")
    for user_id in set(keys):
        pipe.publish(keys_channel(user_id), "1")
    try:
        pipe.execute()
    except OUTAGE as exc:
        logger.warning("Could not announce live events (%s); the streams' own checks will find them.", exc)


def announce_after_commit(users: Iterable[int], keys: Iterable[int] = ()) -> None:
    users, keys = set(users), set(keys)
    if users or keys:
        transaction.on_commit(lambda: announce(users, keys))
