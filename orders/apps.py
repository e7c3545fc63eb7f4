from django.apps import AppConfig


class OrdersConfig(AppConfig):
    """Standing orders: rules a player leaves for a game, played by the server from their own view."""

    name = "orders"
    default_auto_field = "django.db.models.BigAutoField"
