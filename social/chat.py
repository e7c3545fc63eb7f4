"""Table talk: who may write and read a game's chat, and what each reader is shown.

A message takes the game's next revision (under the game's row lock, like a move), so that the
game stream numbers it among the moves and a resume finds it; only seated players are sent it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.blocks import blocks_between
from accounts.models import ChatSetting, User
from config.events import publish
from games import selectors as game_selectors
from games.events import TableMessagePosted
from games.models import Game, GameStatus, Seat

from .errors import Conflict, Forbidden, Invalid, NotFound, RateLimited
from .models import TEXT_MAX, ChatMessage, ChatMute, ChatSilence, ChatWarning
from .phrases import PHRASES, phrase_text
from .text_input import TextRefused, clean_text

MESSAGES_PER_MINUTE = 10
PAGE_SIZE = 100


@dataclass
class Table:
    game: Game
    seats: list[Seat]
    seat: int


def seated_table(game_id: str, user: User) -> Table:
    """The game and the reader's seat: 404 for a game they may not see, 403 when they have no seat."""
    game = game_selectors.visible_games(user).filter(public_id=game_id).first()
    if game is None:
        raise NotFound("There is no such game, or you may not see it.", "not_found")
    seats = list(game.seats.all())
    seat = game_selectors.viewer_seat(game, seats, user)
    if seat is None:
        raise Forbidden("Only the players seated at this table read and write its table talk.", "not_seated")
    return Table(game, seats, seat)


def silenced_until(user: User, now=None) -> Any:
    now = now or timezone.now()
    return (
        ChatSilence.objects.filter(user=user, until__gt=now).order_by("-until").values_list("until", flat=True).first()
    )


def post_message(*, game_id: str, author: User, text: Any = None, phrase: Any = None) -> ChatMessage:
    """Store a message (free text or a phrase's key) and tell the table: its seated players' streams,
    and a "new message" notice to each player who will read it."""
    if (text is None) == (phrase is None):
        raise Invalid("Send either “text” or “phrase”.", "text_or_phrase")
    if phrase is not None and (not isinstance(phrase, str) or phrase not in PHRASES):
        raise Invalid(
            "That is not a quick phrase; GET /api/v1/chat/phrases/ lists them.", "unknown_phrase", {"phrase": [phrase]}
        )
    if text is not None:
        try:
            text = clean_text(text, max_length=TEXT_MAX)
        except TextRefused as exc:
            raise Invalid(exc.message, exc.code, {"text": [exc.message]}) from exc
    table = seated_table(game_id, author)
    now = timezone.now()
    if text is not None:
        if author.chat != ChatSetting.ON:
            raise Forbidden("You have switched table talk to quick phrases only.", "chat_off")
        until = silenced_until(author, now)
        if until is not None:
            message = "A moderator has silenced your table talk for a while; quick phrases still work."
            raise Forbidden(message, "chat_off", {"silenced_until": until.isoformat()})
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=table.game.pk)
        if game.status == GameStatus.ABORTED:
            raise Conflict("This game was cancelled: its table talk is closed.", "game_aborted")
        recent = list(
            ChatMessage.objects.filter(game=game, author=author, created_at__gt=now - timedelta(minutes=1))
            .order_by("-created_at")
            .values_list("created_at", flat=True)[:MESSAGES_PER_MINUTE]
        )
        if len(recent) >= MESSAGES_PER_MINUTE:
            wait = max(1, math.ceil((recent[-1] + timedelta(minutes=1) - now).total_seconds()))
            raise RateLimited(
                f"At most {MESSAGES_PER_MINUTE} messages a minute at one table; try again in {wait} seconds.", wait
            )
        game.revision += 1
        Game.objects.filter(pk=game.pk).update(revision=game.revision)
        message = ChatMessage.objects.create(
            game=game, author=author, text=text or "", phrase=phrase or "", revision=game.revision, created_at=now
        )
        recipients = readers_of(message, table.seats)
        posted = TableMessagePosted(
            game=game, seats=table.seats, revision=game.revision, author_id=author.pk, recipients=recipients
        )
        publish(posted)
    return message


def readers_of(message: ChatMessage, seats: list[Seat]) -> list[int]:
    """The other seated players who will read the message (for its notice)."""
    others = [s.user for s in seats if s.user_id and s.user_id != message.author_id]
    if not others:
        return []
    ids = [u.pk for u in others]
    blocked = blocks_between(message.author_id, ids)
    muting = set(ChatMute.objects.filter(user_id__in=ids, muted_id=message.author_id).values_list("user_id", flat=True))
    return [
        u.pk
        for u in others
        if u.pk not in blocked and u.pk not in muting and (message.phrase or u.chat == ChatSetting.ON)
    ]


# --- reading ---------------------------------------------------------------------------------


@dataclass
class Reader:
    """What a reader leaves out: the players they mute, those who block them or whom they block,
    and others' free text if they read phrases only."""

    user_id: int
    phrases_only: bool
    left_out: set[int]


def reader_for(user: User, seats: list[Seat]) -> Reader:
    others = [s.user_id for s in seats if s.user_id and s.user_id != user.pk]
    muted = set(ChatMute.objects.filter(user=user, muted_id__in=others).values_list("muted_id", flat=True))
    return Reader(user.pk, user.chat != ChatSetting.ON, muted | blocks_between(user.pk, others))


def shown_to(reader: Reader, message: ChatMessage) -> bool:
    if message.author_id == reader.user_id:
        return True
    if message.author_id in reader.left_out or message.hidden_at is not None:
        return False
    return not (reader.phrases_only and message.text)


def visible_messages(messages: QuerySet[ChatMessage], reader: Reader) -> QuerySet[ChatMessage]:
    """`messages` as shown_to says, in SQL."""
    mine = messages.filter(author_id=reader.user_id)
    others = messages.exclude(author_id=reader.user_id).exclude(author_id__in=reader.left_out)
    others = others.filter(hidden_at__isnull=True)
    if reader.phrases_only:
        others = others.filter(text="")
    return mine | others


def message_json(message: ChatMessage, author_name: str) -> dict[str, Any]:
    """A message as its reader sees it: a phrase's text in the active language beside its key; a
    hidden message (only its author still reads it) with its text."""
    body: dict[str, Any] = {"id": message.public_id, "author": author_name}
    if message.phrase:
        body["phrase"] = message.phrase
        body["phrase_text"] = phrase_text(message.phrase)
    else:
        body["text"] = message.text
    body["created_at"] = message.created_at
    body["hidden"] = message.hidden_at is not None
    return body


def messages_for(*, game_id: str, user: User, after: str | None = None) -> tuple[list[dict[str, Any]], bool]:
    """The messages of the table the reader may read, oldest first, after the message `after`; and
    whether more follow this page."""
    table = seated_table(game_id, user)
    messages = ChatMessage.objects.filter(game=table.game)
    if after is not None:
        start = messages.filter(public_id=after).values_list("pk", flat=True).first()
        if start is None:
            raise Invalid("There is no such message at this table.", "unknown_message", {"after": [after]})
        messages = messages.filter(pk__gt=start)
    reader = reader_for(user, table.seats)
    page = list(visible_messages(messages, reader).select_related("author").order_by("pk")[: PAGE_SIZE + 1])
    return [message_json(m, m.author.username) for m in page[:PAGE_SIZE]], len(page) > PAGE_SIZE


def moderation_of(user: User) -> dict[str, Any]:
    """What the moderators decided about the player's own table talk, for them alone: the latest
    warning and a silence in force (never who reported them)."""
    warned_at = ChatWarning.objects.filter(user=user).order_by("-created_at").values_list("created_at", flat=True)
    return {"warned_at": warned_at.first(), "silenced_until": silenced_until(user)}
