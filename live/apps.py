from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live events"

    def ready(self) -> None:
        from accounts.events import CredentialsChanged
        from config.events import subscribe
        from games.events import GameChanged, TableMessagePosted
        from notifications.events import NoticesRead, NoticesWritten

        from . import subscribers

        # Registered after the outbox's (INSTALLED_APPS order): a player's log has a game's notice
        # before the game's own change, as when games wrote both itself.
        subscribe(GameChanged, subscribers.game_changed)
        subscribe(NoticesWritten, subscribers.notices_written)
        subscribe(NoticesRead, subscribers.notices_read)
        subscribe(CredentialsChanged, subscribers.credentials_changed)
        subscribe(TableMessagePosted, subscribers.table_message_posted)
