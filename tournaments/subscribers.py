"""What tournaments do when the rooms below announce a change (config.events): a game ended, a
password changed; and the settings page's calendar section."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.events import PasswordChanged
from games.events import GameFinished

from . import services
from .models import CalendarFeed


def game_finished(event: GameFinished) -> None:
    """Inside the game's transaction: the round may be over."""
    services.game_ended(game=event.game)


def password_changed(event: PasswordChanged) -> None:
    """Whoever held the old password may have read the calendar address: a new one replaces it."""
    if CalendarFeed.objects.filter(user=event.user).exists():
        services.rotate_calendar(user=event.user)


def settings_context(request: HttpRequest) -> dict[str, Any]:
    if not request.user.is_authenticated:
        return {}
    return {"calendar_api_url": "/api/v1/me/calendar/"}
