"""Table talk on the game stream (registered in games.table_hooks): each message is an event
`chat` under the revision it took, sent to the seated players who read it and to nobody else."""

from __future__ import annotations

from django.utils import translation

from games import table_hooks
from games.models import Game, Seat

from .chat import message_json, reader_for, shown_to
from .models import ChatMessage


def chat_part(game: Game, seats: list[Seat], seat: int | None, after: int, upto: int) -> table_hooks.StreamPart:
    messages = list(
        ChatMessage.objects.filter(game=game, revision__gt=after, revision__lte=upto)
        .select_related("author")
        .order_by("revision")
    )
    part = table_hooks.StreamPart(revisions_used=len(messages))
    player = seats[seat].user if seat is not None and seat < len(seats) and seats[seat].user_id else None
    if player is None or not messages:
        return part  # spectators, and a bot's seat, read no table talk
    reader = reader_for(player, seats)
    with translation.override(player.language or None):
        for message in messages:
            if shown_to(reader, message):
                body = {
                    "type": "chat",
                    "game": game.public_id,
                    "message": message_json(message, message.author.username),
                }
                part.events.append((message.revision, "chat", body))
    return part
