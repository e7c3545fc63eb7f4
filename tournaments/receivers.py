"""What tournaments do when other apps signal: a game ended, a password changed; and the settings
page's calendar section."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from games.models import Game

from . import services
from .models import CalendarFeed


def game_finished(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """Inside the game's transaction: the round may be over."""
    services.game_ended(game=game)


def password_changed(sender: Any, *, user: Any, **kwargs: Any) -> None:
    """Whoever held the old password may have read the calendar address: a new one replaces it."""
    if CalendarFeed.objects.filter(user=user).exists():
        services.rotate_calendar(user=user)


def settings_context(request: HttpRequest) -> dict[str, Any]:
    if not request.user.is_authenticated:
        return {}
    return {"calendar_api_url": "/api/v1/me/calendar/"}
