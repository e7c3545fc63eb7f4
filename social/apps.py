from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Table talk and friends"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The game streams carry table talk to the seated players; games and live never import this room.
        from games import table_hooks

        from . import chat_stream

        table_hooks.register(table_hooks.stream_parts, chat_stream.chat_part)
