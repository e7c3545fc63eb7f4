"""A game's change, rendered where it happened. The process that made a move holds the game and its
seats already, so when some stream process follows the game it renders the change once for each
audience (each seat, and the spectators) and publishes them in the game's one message; the stream
processes then send those bytes without reading the game. When no stream process follows the game,
when several changes share a transaction, or when rendering fails, the message holds only the new
revision, and the streams that follow read the game themselves (live.audiences), as they do after
a message lost while Redis was away.

The stream processes mark the games they follow (live.hub) in keys that lapse after
FOLLOWED_SECONDS unless renewed; a move looks at the mark before it renders, in the same round trip
that nudges its players' own streams and, for a game nobody follows, publishes its revision.
The messages carry the hands each seat may see: they go only to the stream processes, over the
Redis that also holds the broker's tasks and the cache.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.core.cache import cache
from django.db import transaction

from config.cache import OUTAGE

from . import feeds
from .publish import PREFIX, game_channel, user_channel

logger = logging.getLogger(__name__)

FOLLOWED_SECONDS = 60


def followed_key(public_id: str) -> str:
    return f"{PREFIX}followed:{public_id}"


# One round trip for a game nobody streams: the players' own streams are nudged, and the game's
# message is its revision alone; 1 is returned instead when the game is followed, and its message
# is then left to the caller, who renders it.
ANNOUNCE = """
for i = 3, #ARGV do redis.call('PUBLISH', ARGV[i], '1') end
if redis.call('EXISTS', KEYS[1]) == 1 then return 1 end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 0
"""


def announce_after_commit(game, seats: list, moves: list, users: Iterable[int]) -> None:
    """Once the transaction commits: the game's change to its new revision (of which `moves` are the
    moves), and a nudge to the own streams of `users`, whose logs it added to."""
    revision = game.revision
    users = sorted(set(users))
    transaction.on_commit(lambda: announce(game, seats, revision, moves, users))


def announce(game, seats: list, revision: int, moves: list, users: list[int]) -> None:
    if not hasattr(cache, "pipeline"):
        return  # no Redis: the streams poll the database
    channel = game_channel(game.public_id)
    try:
        nudges = [user_channel(user_id) for user_id in users]
        followed = cache.pipeline().eval(ANNOUNCE, 1, followed_key(game.public_id), channel, revision, *nudges)
        if followed.execute()[0]:
            # The game as it is now is the change's only while nothing later in the transaction moved it on.
            message = rendered_message(game, seats, revision, moves) if game.revision == revision else None
            cache.pipeline().publish(channel, message or str(revision)).execute()
    except OUTAGE as exc:
        logger.warning("Could not announce live events (%s); the streams' own checks will find them.", exc)


def rendered_message(game, seats: list, revision: int, moves: list) -> str | None:
    try:
        return feeds.as_message(feeds.rendered(game, seats, revision - 1, moves), revision - 1)
    except Exception:
        # The move has committed; its streams can still read it themselves.
        logger.exception("Live events: could not render game %s at revision %s.", game.public_id, revision)
        return None
