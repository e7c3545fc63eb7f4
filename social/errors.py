"""What this room's services refuse; the API maps each class to one status."""

from __future__ import annotations

from typing import Any

from games.errors import Conflict, Forbidden, GameError, Invalid, NotFound

__all__ = ["Conflict", "Forbidden", "GameError", "Invalid", "NotFound", "RateLimited"]


class RateLimited(GameError):
    """Too many at once (429); `retry_after` seconds until one more fits."""

    code = "throttled"

    def __init__(self, message: str, retry_after: int, details: dict[str, Any] | None = None) -> None:
        super().__init__(message, details=details)
        self.retry_after = retry_after
