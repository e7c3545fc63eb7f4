"""Template helpers for the site's frame."""

from __future__ import annotations

from django import template

from live import feeds

register = template.Library()


@register.simple_tag(takes_context=True)
def player_news(context: template.Context) -> dict[str, int]:
    """The games the signed-in player has unread notices about, for the navigation's badge, and the
    number of their log's last event, after which the page's stream of their news takes up."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread": 0, "last_event_id": 0}
    unread, last_event_id = feeds.unread_and_last_seq(user)
    return {"unread": unread, "last_event_id": last_event_id}
