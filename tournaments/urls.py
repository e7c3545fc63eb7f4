from django.urls import path, register_converter

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import views


class FeedTokenConverter:
    """A calendar token: secrets.token_urlsafe(24), 32 characters."""

    regex = r"[A-Za-z0-9_-]{16,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(FeedTokenConverter, "feed_token")

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<public_id:tournament_id>/", views.tournament_page, name="tournament"),
    # The secret calendar feed: the token in the address is the only credential a calendar sends.
    path("calendar/<feed_token:token>.ics", views.calendar_feed, name="tournament-calendar-feed"),
]
