"""What the game core announces (config.events): one small event per change, published by
games.services inside the change's transaction, and heard by the rooms above (live's streams,
notifications' outbox, statistics and ratings, tournaments), which games never imports.

Every event names the game (with its seats, as the service holds them) and its revision after the
change. `writes` is the change's WriteBatch: rows a subscriber must commit with the change go there,
and leave with the game's own rows in one statement on PostgreSQL, so that a subscriber adds no round
trip to a move.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from accounts.preferences import PlayerPreference
from config.write_batch import WriteBatch

from .models import Game, Move, Seat


@dataclass(frozen=True, kw_only=True)
class GameEvent:
    game: Game
    seats: list[Seat]
    revision: int
    writes: WriteBatch


@dataclass(frozen=True, kw_only=True)
class GameChanged(GameEvent):
    """Something a viewer of the game sees has changed and its revision moved on (the game streams'
    event id). The players at the table or invited to it (`viewers`) hear of it on their own streams.
    Published for every such change: a subclass says which, when it is one of those below."""

    viewers: list[int]
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True, kw_only=True)
class MoveMade(GameChanged):
    """A player's move, or one the server played for them (`move.by_server`: bot, standing order)."""

    move: Move


@dataclass(frozen=True, kw_only=True)
class TurnTimedOut(MoveMade):
    """A move the server played for a player whose time ran out."""


@dataclass(frozen=True, kw_only=True)
class PlayerResigned(MoveMade):
    """A resignation: the player's own, or the server's after too many timeouts or under a forfeit rule."""


@dataclass(frozen=True, kw_only=True)
class PlayerJoined(GameChanged):
    """A player took a seat in a game that has not started, and seats are still free (the join that
    fills the table starts the game: GameStarted, `started_by` the joining player)."""

    user_id: int


@dataclass(frozen=True, kw_only=True)
class GameStarted(GameChanged):
    """The cards are dealt; `started_by` is the player whose action started it (they need no notice)."""

    started_by: int


@dataclass(frozen=True, kw_only=True)
class GameFinished(GameEvent):
    """The game is over (its status, outcome and seats' final places set; the move that ended it has
    its own event, at the same revision). The game's row is saved just after."""

    outcome: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class TurnBegan(GameEvent):
    """A person's turn began (no event for a bot's); `preference` is theirs, as loaded with the seat."""

    seat: Seat
    preference: PlayerPreference


@dataclass(frozen=True, kw_only=True)
class InvitationsSent(GameEvent):
    """Players were invited to a new game."""

    user_ids: list[int]


@dataclass(frozen=True, kw_only=True)
class InvitationsAnswered(GameEvent):
    """The invitations of `user_ids` to the game were answered or withdrawn."""

    user_ids: list[int]


@dataclass(frozen=True, kw_only=True)
class TableMessagePosted:
    """A room above the core (table talk) wrote a message at the table and moved the game's revision on
    to it, so that the game's streams number it with the moves (they read it through
    games.table_hooks.stream_parts). `recipients`: the other players it is written to."""

    game: Game
    seats: list[Seat]
    revision: int
    author_id: int
    recipients: list[int]


@dataclass(frozen=True, kw_only=True)
class RemindersDue:
    """The players to act in these seats (each with its game loaded) are past their reminder time."""

    seats: list[Seat]
