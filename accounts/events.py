"""What accounts announce (config.events), heard by the rooms above, which accounts never imports."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True)
class CredentialsChanged:
    """A token was revoked, a session logged out or the password changed: the player's open streams
    must look again at what lets them in."""

    user_id: int


@dataclass(frozen=True, kw_only=True)
class PasswordChanged:
    """The password changed or was reset: whatever the old one gave away (a secret calendar address,
    push devices) is replaced or removed by each subscriber."""

    user: Any
