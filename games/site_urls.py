"""The settings sections for notifications, vacation and webhooks."""

from django.urls import path

from . import settings_pages

urlpatterns = [
    path("settings/notifications/", settings_pages.save_notifications, name="settings-notifications"),
    path("settings/vacation/", settings_pages.start_vacation, name="settings-vacation-start"),
    path("settings/vacation/end/", settings_pages.end_vacation, name="settings-vacation-end"),
    path("settings/webhook/", settings_pages.save_webhook, name="settings-webhook"),
]
