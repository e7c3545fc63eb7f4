from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Table talk and friends"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The game streams carry table talk to the seated players; games and live never import this room.
        from django.db.models.signals import post_save

        from accounts import views as account_views
        from accounts.models import Block
        from games import table_hooks

        from . import chat_stream, friends, settings_pages

        table_hooks.register(table_hooks.stream_parts, chat_stream.chat_part)
        # A block (accounts) ends the follows between the two players, both ways.
        post_save.connect(friends.end_follows_on_block, sender=Block, dispatch_uid="social.end_follows_on_block")
        # The settings page belongs to accounts; its table talk section lives here.
        if settings_pages.settings_context not in account_views.SETTINGS_CONTEXT:
            account_views.SETTINGS_CONTEXT.append(settings_pages.settings_context)
        account_views.SAVED_MESSAGES.update(settings_pages.SAVED_MESSAGES)
