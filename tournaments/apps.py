from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games and accounts never import tournaments: they announce changes, heard here.
        from accounts import views as account_views
        from accounts.events import PasswordChanged
        from config.events import subscribe
        from games.events import GameFinished

        from . import subscribers

        subscribe(GameFinished, subscribers.game_finished)
        subscribe(PasswordChanged, subscribers.password_changed)
        # The calendar address's section of /settings/ (accounts renders the page).
        account_views.SETTINGS_CONTEXT.append(subscribers.settings_context)
