"""A player's private note on a game: theirs alone, kept after the game."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games import selectors as game_selectors

from .errors import Forbidden, Invalid, NotFound
from .models import NOTE_MAX, GameNote
from .text_input import TextRefused, clean_text


def _seated_game(game_id: str, user: User):
    game = game_selectors.visible_games(user).filter(public_id=game_id).first()
    if game is None:
        raise NotFound("There is no such game, or you may not see it.", "not_found")
    if game_selectors.viewer_seat(game, list(game.seats.all()), user) is None:
        raise Forbidden("Only the players of a game keep notes on it.", "not_seated")
    return game


def note_of(*, game_id: str, user: User) -> dict:
    game = _seated_game(game_id, user)
    note = GameNote.objects.filter(game=game, user=user).first()
    return {"text": note.text if note else "", "updated_at": note.updated_at if note else None}


def save_note(*, game_id: str, user: User, text: object) -> dict:
    try:
        text = clean_text(text, max_length=NOTE_MAX, allow_empty=True)
    except TextRefused as exc:
        raise Invalid(exc.message, exc.code, {"text": [exc.message]}) from exc
    game = _seated_game(game_id, user)
    defaults = {"text": text, "updated_at": timezone.now()}
    try:
        with transaction.atomic():
            note, _created = GameNote.objects.update_or_create(game=game, user=user, defaults=defaults)
    except IntegrityError:  # the same player's other request created it a moment ago: update that one
        note, _created = GameNote.objects.update_or_create(game=game, user=user, defaults=defaults)
    return {"text": note.text, "updated_at": note.updated_at}
