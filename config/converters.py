"""URL path converters for the ids in our addresses.

A path segment that cannot be an id resolves to a 404 before any view runs, so a NUL or a
foreign character never reaches the database (PostgreSQL refuses NUL in text and would answer
with a 500). Importing this module registers them: `<public_id:game_id>`, `<username:username>`.
"""

from __future__ import annotations

from django.urls import register_converter


class PublicIdConverter:
    """Games' and API tokens' public ids: `secrets.token_urlsafe(9)`, in a 16-character column."""

    regex = r"[A-Za-z0-9_-]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter:
    """What a username may look like (stats.selectors.USERNAME_SHAPE, Django's validator)."""

    regex = r"[\w.@+-]{1,150}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PublicIdConverter, "public_id")
register_converter(UsernameConverter, "username")
