from django.urls import path

import config.converters  # noqa: F401  (registers <username:...>)

from . import site_views

urlpatterns = [
    path("users/<username:username>/follow/", site_views.follow_player, name="follow-player"),
]
