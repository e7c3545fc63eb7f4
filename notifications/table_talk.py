"""The "new message" notice of table talk: one unread notice per player and game, however many
messages follow it, written in the transaction that stores the message (games.table_hooks)."""

from __future__ import annotations

from accounts.models import User
from games.models import Game

from .models import Notification, NotificationKind
from .outbox import notify


def notify_message(game: Game, author_id: int, recipients: list[int]) -> None:
    waiting = set(
        Notification.objects.filter(
            kind=NotificationKind.CHAT_MESSAGE, game=game, user_id__in=recipients, read_at__isnull=True
        ).values_list("user_id", flat=True)
    )
    fresh = [user_id for user_id in recipients if user_id not in waiting]
    if not fresh:
        return
    author = User.objects.only("username", "display_name").get(pk=author_id)
    payload = {"game": game.public_id, "kind": game.kind, "from": author.public_name}
    notify(NotificationKind.CHAT_MESSAGE, [(user_id, game, payload) for user_id in fresh])
