from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import views

urlpatterns = [
    path("games/<public_id:game_id>/stream/", views.game_events, name="api-game-stream"),
    path("stream/", views.user_events, name="api-stream"),
]
