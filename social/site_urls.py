from django.urls import path

import config.converters  # noqa: F401  (registers <username:...>)

from . import settings_pages, site_views

urlpatterns = [
    path("settings/table-talk/", settings_pages.save_chat_setting, name="settings-table-talk"),
    path("settings/mutes/remove/", settings_pages.unmute, name="settings-unmute"),
    path("users/<username:username>/follow/", site_views.follow_player, name="follow-player"),
]
