"""What a service refuses, and why: the refusals of every room's services. The API maps each class to
one HTTP status (config.api_views.service_errors); pages show a translated sentence for its code."""

from __future__ import annotations

from typing import Any


class GameError(Exception):
    """`option` names the game option a refusal is about, where there is one (a page shows the
    refusal beside that option's field)."""

    code = "game_error"

    def __init__(
        self, message: str, code: str | None = None, details: dict[str, Any] | None = None, *, option: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.details = details or {}
        self.option = option


class Invalid(GameError):
    """The request is understood but not allowed by the rules or the settings (400)."""

    code = "invalid"


class Forbidden(GameError):
    """The requester may see the game but not do this (403)."""

    code = "forbidden"


class NotFound(GameError):
    """No such game, or one the requester may not see (404)."""

    code = "not_found"


class Conflict(GameError):
    """The game is not in a state where this can happen now (409)."""

    code = "conflict"
