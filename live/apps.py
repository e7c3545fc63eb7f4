from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live events"

    def ready(self) -> None:
        # Rooms above the game core (table talk) move a game's revision on; its streams hear of it here.
        from games import table_hooks

        from .changes import announce_table_change

        table_hooks.register(table_hooks.change_announcers, announce_table_change)
