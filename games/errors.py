"""The game core refuses with the ground's service errors (config.service_errors)."""

from config.service_errors import Conflict, Forbidden, GameError, Invalid, NotFound

__all__ = ["Conflict", "Forbidden", "GameError", "Invalid", "NotFound"]
