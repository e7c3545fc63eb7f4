"""What rooms above the game core add to a table, without the core or the streams importing them:
each registers its part in its AppConfig.ready().

A room that keeps things of its own at a table (table talk) moves the game's revision on for each of
them, so that the game stream numbers them with the moves, and registers `stream_parts`: for one
audience (a seat, or None for the spectators) and a range of revisions, the events that audience is
sent and how many revisions the room's things used, seen or not. It announces each such change with an
event the streams and notifications hear (games.events.TableMessagePosted for table talk).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import Game, Seat


@dataclass
class StreamPart:
    """Events for one audience: (revision, event name, data), and the revisions the part used."""

    events: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    revisions_used: int = 0


# (game, seats, seat or None, after revision, up to revision) -> StreamPart
StreamPartReader = Callable[[Game, list[Seat], int | None, int, int], StreamPart]
stream_parts: list[StreamPartReader] = []


def read_stream_parts(game: Game, seats: list[Seat], seat: int | None, after: int, upto: int) -> StreamPart:
    """Every room's events for one audience between two revisions, as one part."""
    whole = StreamPart()
    for reader in stream_parts:
        part = reader(game, seats, seat, after, upto)
        whole.events.extend(part.events)
        whole.revisions_used += part.revisions_used
    return whole


def register(registry: list, hook: Callable) -> None:
    """Once, however many times the app is made ready (the test runner may do it again)."""
    if hook not in registry:
        registry.append(hook)
