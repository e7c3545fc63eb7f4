"""Template helpers for the site's frame."""

from __future__ import annotations

from django import template

from notifications import outbox as notifications

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: template.Context) -> int:
    """The signed-in player's unread notifications, for the navigation's badge."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return notifications.unread_count(user)
