"""What rooms above the game core add to a table, without the core, the streams or the notifications
importing them: each registers its part in its AppConfig.ready().

- A room that keeps things of its own at a table (table talk) moves the game's revision on for each
  of them, so that the game stream numbers them with the moves, and registers `stream_parts`: for
  one audience (a seat, or None for the spectators) and a range of revisions, the events that
  audience is sent and how many revisions the room's things used, seen or not.
- The streams register `change_announcers`, called (inside the transaction) with a game whose
  revision a room moved on; they announce it after the commit.
- The notifications register `message_notifiers`, called (inside the transaction) when a message
  is written at a table to some of its players.
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

# (game, seats) -> None
change_announcers: list[Callable[[Game, list[Seat]], None]] = []

# (game, author id, recipient user ids) -> None
message_notifiers: list[Callable[[Game, int, list[int]], None]] = []


def read_stream_parts(game: Game, seats: list[Seat], seat: int | None, after: int, upto: int) -> StreamPart:
    """Every room's events for one audience between two revisions, as one part."""
    whole = StreamPart()
    for reader in stream_parts:
        part = reader(game, seats, seat, after, upto)
        whole.events.extend(part.events)
        whole.revisions_used += part.revisions_used
    return whole


def announce_change(game: Game, seats: list[Seat]) -> None:
    for announcer in change_announcers:
        announcer(game, seats)


def notify_message(game: Game, author_id: int, recipients: list[int]) -> None:
    for notifier in message_notifiers:
        notifier(game, author_id, recipients)


def register(registry: list, hook: Callable) -> None:
    """Once, however many times the app is made ready (the test runner may do it again)."""
    if hook not in registry:
        registry.append(hook)
