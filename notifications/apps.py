from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The settings page belongs to accounts; its notification, device and webhook sections live here.
        from accounts import views as account_views

        from . import checks, settings_pages  # noqa: F401  (checks registers the deployment checks)

        account_views.SETTINGS_CONTEXT.append(settings_pages.settings_context)
        account_views.SAVED_MESSAGES.update(settings_pages.SAVED_MESSAGES)
