from django.urls import path

from . import views

urlpatterns = [
    path("auth/token/", views.TokenCreateView.as_view(), name="api-token"),
    path("me/", views.MeView.as_view(), name="api-me"),
    path("me/tokens/", views.ApiTokenListView.as_view(), name="api-me-tokens"),
    path("me/tokens/<str:token_id>/", views.ApiTokenDetailView.as_view(), name="api-me-token"),
    path("users/<str:username>/", views.UserProfileView.as_view(), name="api-user"),
    path("leaderboard/<str:kind>/", views.LeaderboardView.as_view(), name="api-leaderboard"),
]
