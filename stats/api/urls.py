from django.urls import path

import config.converters  # noqa: F401  (registers <username:...>)

from . import views

urlpatterns = [
    path("users/<username:username>/", views.UserProfileView.as_view(), name="api-user"),
    path("games/<public_id:game_id>/ratings/", views.GameRatingsView.as_view(), name="api-game-ratings"),
    path("leaderboard/<str:kind>/", views.LeaderboardView.as_view(), name="api-leaderboard"),
]
