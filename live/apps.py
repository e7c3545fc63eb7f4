from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live events"

    def ready(self) -> None:
        from accounts.events import CredentialsChanged
        from config.events import subscribe
        from games import table_hooks
        from games.events import GameChanged
        from notifications.events import NoticesRead, NoticesWritten

        from . import subscribers
        from .changes import announce_table_change

        # Registered after the outbox's (INSTALLED_APPS order): a player's log has a game's notice
        # before the game's own change, as when games wrote both itself.
        subscribe(GameChanged, subscribers.game_changed)
        subscribe(NoticesWritten, subscribers.notices_written)
        subscribe(NoticesRead, subscribers.notices_read)
        subscribe(CredentialsChanged, subscribers.credentials_changed)
        # Rooms above the game core (table talk) move a game's revision on; its streams hear of it here.
        table_hooks.register(table_hooks.change_announcers, announce_table_change)
