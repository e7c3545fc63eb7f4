from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from config.error_reports import register_secret_types

        from .models import Game, Move

        # An error report never shows a game or a move: each holds hands, the stock and the seed.
        register_secret_types(Game, Move)

        # The settings page belongs to accounts; its vacation section lives here.
        from accounts import views as account_views

        from . import settings_pages

        account_views.SETTINGS_CONTEXT.append(settings_pages.settings_context)
        account_views.SAVED_MESSAGES.update(settings_pages.SAVED_MESSAGES)
