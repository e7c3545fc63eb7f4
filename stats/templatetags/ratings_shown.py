"""A rating as people read it: one number on the familiar scale where a newcomer starts at 1500, never
negative, and "?" while the rating is provisional. The model's mu and sigma stay in the API."""

from __future__ import annotations

from typing import Any

from django import template

from config.l10n import number
from stats.ratings import shown_value

register = template.Library()


def _field(rating: Any, name: str) -> Any:
    return rating.get(name) if isinstance(rating, dict) else getattr(rating, name, None)


@register.filter
def rating_scale(mu: float | None) -> object:
    """The model's mu on the shown scale, in the reader's digits."""
    if mu is None:
        return "?"
    return number(shown_value(mu))


@register.filter
def shown_rating(rating: Any) -> object:
    """The one number shown for a rating: "?" while provisional (the rating's facts say so)."""
    if rating is None or _field(rating, "provisional"):
        return "?"
    return rating_scale(_field(rating, "mu"))
