"""The settings sections for notifications, push devices and webhooks."""

from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import settings_pages

urlpatterns = [
    path("settings/notifications/", settings_pages.save_notifications, name="settings-notifications"),
    path("settings/webhook/", settings_pages.save_webhook, name="settings-webhook"),
    path("settings/devices/<public_id:device_id>/remove/", settings_pages.remove_device, name="settings-device-remove"),
]
