from django.urls import path

import config.converters  # noqa: F401  (registers <public_id:...>)

from . import views

urlpatterns = [
    path("games/<public_id:game_id>/orders/", views.OrdersView.as_view(), name="api-game-orders"),
]
