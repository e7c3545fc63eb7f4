"""The settings section for vacation."""

from django.urls import path

from . import settings_pages

urlpatterns = [
    path("settings/vacation/", settings_pages.start_vacation, name="settings-vacation-start"),
    path("settings/vacation/end/", settings_pages.end_vacation, name="settings-vacation-end"),
]
