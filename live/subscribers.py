"""What the players' streams hear from the rooms below (config.events): each change goes into the
players' logs inside its transaction (with the change's WriteBatch), and is announced to the stream
processes once it commits."""

from __future__ import annotations

from accounts.events import CredentialsChanged
from games.events import GameChanged, TableMessagePosted
from notifications.events import NoticesRead, NoticesWritten

from . import changes, userlog
from .models import EventKind
from .userlog import UserEvent


def game_changed(event: GameChanged) -> None:
    """Every viewer's own stream hears of the game's new revision; the game's stream, of the change."""
    events = [UserEvent(user_id, EventKind.GAME, game_id=event.game.pk) for user_id in event.viewers]
    userlog.append(events, event.writes, announce=False)
    changes.announce_after_commit(event.game, event.seats, event.moves, event.viewers)


def table_message_posted(event: TableMessagePosted) -> None:
    """A message at the table is no move and concerns only the game's streams (its players' streams
    are told by its notice): its revision, announced after the commit."""
    changes.announce_after_commit(event.game, event.seats, [], [])


def notices_written(event: NoticesWritten) -> None:
    events = [
        UserEvent(
            n.user_id,
            EventKind.NOTIFICATION,
            notification_id=n.pk,
            outbox_ordinal=getattr(n, "batch_ordinal", None) if n.pk is None else None,
        )
        for n in event.notifications
    ]
    # Then the unread counts: a notice may add a game to the badge, or replace one it counts already.
    readers = sorted({n.user_id for n in event.notifications})
    events += [UserEvent(user_id, EventKind.NOTIFICATIONS_READ) for user_id in readers]
    userlog.append(events, event.writes, announce=event.announce)


def notices_read(event: NoticesRead) -> None:
    userlog.append([UserEvent(user_id, EventKind.NOTIFICATIONS_READ) for user_id in event.user_ids], event.writes)


def credentials_changed(event: CredentialsChanged) -> None:
    userlog.append([UserEvent(event.user_id, EventKind.CREDENTIALS)])  # the player's open streams look again
