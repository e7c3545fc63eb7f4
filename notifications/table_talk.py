"""The "new message" notice of table talk: one unread notice per player and game, however many
messages follow it, written in the transaction that stores the message (it hears the game core's
TableMessagePosted, which table talk publishes)."""

from __future__ import annotations

from accounts.models import User
from games.events import TableMessagePosted

from .models import Notification, NotificationKind
from .outbox import notify


def message_posted(event: TableMessagePosted) -> None:
    game, author_id, recipients = event.game, event.author_id, event.recipients
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
