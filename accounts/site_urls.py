"""Account pages at the site's top level: /settings/."""

from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...> and <username:...>)

from . import views

urlpatterns = [
    path("settings/", views.settings_page, name="settings"),
    path("settings/profile/", views.settings_profile, name="settings-profile"),
    path("settings/password/", views.settings_password, name="settings-password"),
    path("settings/tokens/", views.settings_token_create, name="settings-token-create"),
    path("settings/blocks/", views.settings_block, name="settings-block"),
    path("settings/blocks/remove/", views.settings_unblock, name="settings-unblock"),
    path("settings/tokens/<public_id:token_id>/revoke/", views.settings_token_revoke, name="settings-token-revoke"),
]
