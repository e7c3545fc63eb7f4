from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from . import services

        def close_the_sessions_streams(sender, request, user, **kwargs) -> None:
            # Every logout (the site's, the admin's) goes through django.contrib.auth.logout.
            if user is not None and request is not None:
                services.logged_out(request=request, user=user)

        user_logged_out.connect(close_the_sessions_streams, dispatch_uid="accounts.logged_out")
