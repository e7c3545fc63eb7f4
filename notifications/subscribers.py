"""What the outbox writes when the game core and accounts announce a change (config.events). Each
runs inside the change's transaction, its rows with the change's WriteBatch."""

from __future__ import annotations

from typing import Any

from accounts.events import PasswordChanged
from games.events import GameFinished, GameStarted, InvitationsAnswered, InvitationsSent, RemindersDue, TurnBegan
from games.models import Game

from . import devices
from .models import NotificationKind
from .outbox import invitations_over, notify


def _game_payload(game: Game) -> dict[str, Any]:
    return {"game": game.public_id, "kind": game.kind}


def invitations_sent(event: InvitationsSent) -> None:
    payload = {**_game_payload(event.game), "from": event.game.creator.username}
    notify(
        NotificationKind.INVITATION, [(user_id, event.game, payload) for user_id in event.user_ids], writes=event.writes
    )


def invitations_answered(event: InvitationsAnswered) -> None:
    invitations_over(event.game, event.user_ids, event.writes)


def game_started(event: GameStarted) -> None:
    """Every player but the one whose action started the game hears of it."""
    others = [s.user_id for s in event.seats if s.user_id and s.user_id != event.started_by]
    payload = _game_payload(event.game)
    notify(NotificationKind.GAME_STARTED, [(user_id, event.game, payload) for user_id in others], writes=event.writes)


def turn_began(event: TurnBegan) -> None:
    # The move's own event nudges every seated player's stream: no second nudge for this one.
    notify(
        NotificationKind.YOUR_TURN,
        [(event.seat.user_id, event.game, _game_payload(event.game))],
        preferences=[event.preference],
        writes=event.writes,
        announce=False,
    )


def game_finished(event: GameFinished) -> None:
    game = event.game
    notify(
        NotificationKind.GAME_OVER,
        [
            (seat.user_id, game, {**_game_payload(game), "place": seat.final_place, "reason": event.outcome["reason"]})
            for seat in event.seats
            if seat.user_id
        ],
        writes=event.writes,
        announce=False,  # seated players: the move's own event nudges their streams
    )


def reminders_due(event: RemindersDue) -> None:
    notify(
        NotificationKind.TIME_RUNNING_OUT,
        [
            (seat.user_id, seat.game, {"game": seat.game.public_id, "kind": seat.game.kind,
                                       "deadline": seat.game.deadline.isoformat() if seat.game.deadline else None})
            for seat in event.seats
        ],
    )  # fmt: skip


def password_changed(event: PasswordChanged) -> None:
    devices.remove_all(event.user.pk)
