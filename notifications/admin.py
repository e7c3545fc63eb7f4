from django.contrib import admin

from .models import Delivery, Notification, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "game", "created_at", "read_at")
    list_filter = ("kind",)


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ("notification", "channel", "status", "attempts", "next_attempt_at", "sent_at", "skip_reason")
    list_filter = ("channel", "status")
    raw_id_fields = ("notification",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ("public_id", "user", "name", "created_at", "last_success_at")
    raw_id_fields = ("user",)
    # The endpoint and keys address one person's browser: not shown in lists.
    exclude = ("p256dh", "auth")
