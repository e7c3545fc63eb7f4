"""What the outbox writes when the game core and accounts announce a change (config.events). Each
runs inside the change's transaction, its rows with the change's WriteBatch."""

from __future__ import annotations

from operator import attrgetter

from accounts.events import PasswordChanged
from games.events import GameFinished, GameStarted, InvitationsAnswered, InvitationsSent, RemindersDue, TurnBegan
from games.models import Seat

from . import devices
from .models import NotificationKind
from .outbox import invitations_over, notify
from .payloads import game_payload as _game_payload
from .payloads import turn_payload


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
        [(event.seat.user_id, event.game, turn_payload(event.game, event.seats, event.seat.user_id))],
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
    # The company at each table, for the notice to name: one query for every game due.
    tables: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in={s.game_id for s in event.seats}).select_related("user"):
        tables.setdefault(seat.game_id, []).append(seat)
    recipients = []
    for seat in event.seats:
        game = seat.game
        payload = turn_payload(game, sorted(tables.get(game.pk, []), key=attrgetter("index")), seat.user_id)
        payload["deadline"] = game.deadline.isoformat() if game.deadline else None
        recipients.append((seat.user_id, game, payload))
    notify(NotificationKind.TIME_RUNNING_OUT, recipients)


def password_changed(event: PasswordChanged) -> None:
    devices.remove_all(event.user.pk)
