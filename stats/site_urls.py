"""Players' pages at the site's top level: /users/<username>/ and /leaderboard/."""

from django.urls import path

import config.converters  # noqa: F401  (registers <username:...>)

from . import views

urlpatterns = [
    path("users/<username:username>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
]
