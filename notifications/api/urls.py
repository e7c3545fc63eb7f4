from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import push_views, views

urlpatterns = [
    path("notifications/", views.NotificationListView.as_view(), name="api-notifications"),
    path("notifications/read/", views.NotificationReadView.as_view(), name="api-notifications-read"),
    path("me/notification-settings/", views.PreferenceView.as_view(), name="api-preferences"),
    path("push/key/", push_views.PushKeyView.as_view(), name="api-push-key"),
    path("me/push-subscriptions/", push_views.PushSubscriptionListView.as_view(), name="api-push-subscriptions"),
    path(
        "me/push-subscriptions/<public_id:device_id>/",
        push_views.PushSubscriptionDetailView.as_view(),
        name="api-push-subscription",
    ),
]
