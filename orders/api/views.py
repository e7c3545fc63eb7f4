"""GET, PUT and DELETE /api/v1/games/{id}/orders/: the requester's own standing orders."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_views import service_errors
from games.api.views import visible_game

from .. import services
from . import serializers as s


class OrdersView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.OrdersSerializer})
    def get(self, request: Request, game_id: str) -> Response:
        """Your standing orders in this game, with what they played; 404 when you have none. Nobody
        else sees them: the others see only that a move was made by order."""
        game = visible_game(request, game_id)
        with service_errors():
            orders = services.orders_for(game=game, user=request.user)
        return Response(services.orders_body(orders))

    @extend_schema(
        request=s.OrdersInputSerializer,
        responses={200: s.OrdersSerializer},
        examples=[
            OpenApiExample(
                "Scattle: take a discard that completes a meld, else draw; lay melds; throw; 5 turns",
                value={
                    "rules": [
                        {"when": {"phase": "draw", "discard_completes_meld": True}, "do": {"type": "draw_discard"}},
                        {"when": {"phase": "draw"}, "do": {"type": "draw_stock"}},
                        {"when": {"phase": "play"}, "do": {"policy": "lay_all_melds"}},
                        {"when": {"phase": "play"}, "do": {"policy": "best_discard"}},
                    ],
                    "limit": {"turns": 5},
                },
            ),
            OpenApiExample(
                "A ready-made set until I move", value={"preset": "routine", "limit": {"until_i_move": True}}
            ),
        ],
    )
    def put(self, request: Request, game_id: str) -> Response:
        """Set (replace) your standing orders. Conditions read only what you can see; the "good"
        policy is for unrated games. 400 `bad_orders` names each rule and field at fault in `details`
        (`rules[2].when.discard_in`). On your turn they start at once."""
        data = s.OrdersInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        body = data.validated_data
        with service_errors():
            orders = services.set_orders(
                game_id=game_id,
                user=request.user,
                rules=body.get("rules"),
                preset=body.get("preset", ""),
                limit=dict(body["limit"]),
            )
        return Response(services.orders_body(orders))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, game_id: str) -> Response:
        """Cancel your standing orders (204 whether or not there were any)."""
        with service_errors():
            services.cancel_orders(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
