from django.apps import AppConfig


class OrdersConfig(AppConfig):
    """Standing orders: rules a player leaves for a game, played by the server from their own view."""

    name = "orders"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # games never imports orders: it asks games.turn_hooks, where the orders take their part.
        from games import turn_hooks

        from .hooks import STANDING_ORDERS

        turn_hooks.register(STANDING_ORDERS)
