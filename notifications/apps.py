from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The settings page belongs to accounts; its notification, device and webhook sections live here.
        from accounts import views as account_views
        from games import table_hooks

        from . import checks, settings_pages, table_talk  # noqa: F401  (checks registers the deployment checks)

        # Table talk's "new message" notice (the room that keeps the messages is above this one).
        table_hooks.register(table_hooks.message_notifiers, table_talk.notify_message)

        account_views.SETTINGS_CONTEXT.append(settings_pages.settings_context)
        account_views.SAVED_MESSAGES.update(settings_pages.SAVED_MESSAGES)
