from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "stats"
    verbose_name = "Statistics and ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from config.events import subscribe
        from games.events import GameFinished

        from . import subscribers

        subscribe(GameFinished, subscribers.game_finished)
