"""Account pages at the site's top level: /users/<username>/, /leaderboard/, /settings/."""

from django.urls import path

from . import views

urlpatterns = [
    path("users/<str:username>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/profile/", views.settings_profile, name="settings-profile"),
    path("settings/password/", views.settings_password, name="settings-password"),
    path("settings/tokens/", views.settings_token_create, name="settings-token-create"),
    path("settings/tokens/<str:token_id>/revoke/", views.settings_token_revoke, name="settings-token-revoke"),
]
