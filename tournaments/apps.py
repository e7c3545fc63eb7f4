from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games and accounts never import tournaments: they send signals, heard here.
        from accounts import signals as account_signals
        from accounts import views as account_views
        from games import signals as game_signals

        from . import receivers

        game_signals.game_finished.connect(receivers.game_finished, dispatch_uid="tournaments.game_finished")
        account_signals.password_changed.connect(
            receivers.password_changed, dispatch_uid="tournaments.password_changed"
        )
        # The calendar address's section of /settings/ (accounts renders the page).
        account_views.SETTINGS_CONTEXT.append(receivers.settings_context)
