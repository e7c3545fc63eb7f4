"""The bare floor of a move, for bench/move_floor.py: what no move can do without.

`POST /bench/bare-floor/<game id>/` with `Authorization: Token <key>` and a JSON body
`{"version": N}`: DRF's token authentication (the API's hashed tokens) and IsAuthenticated, no
throttles, then one transaction: SELECT the game FOR UPDATE, UPDATE its version, INSERT a Move row.
The games it touches are the benchmark's own placeholders without a state, which verify_games
skips. Only the bare floor server (DJANGO_SETTINGS_MODULE=bench.bare_floor_settings) loads this.
"""

from django.db import transaction
from django.db.models import F
from django.urls import path
from django.utils import timezone
from rest_framework.exceptions import NotFound
from rest_framework.parsers import JSONParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import HashedTokenAuthentication
from games.models import Game, Move


class BareFloorView(APIView):
    authentication_classes = [HashedTokenAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes: list = []
    parser_classes = [JSONParser]

    def post(self, request: Request, game_id: str) -> Response:
        with transaction.atomic():
            game = Game.objects.select_for_update().filter(public_id=game_id).only("pk", "version").first()
            if game is None:
                raise NotFound("no such game")
            Game.objects.filter(pk=game.pk).update(version=F("version") + 1)
            Move.objects.create(
                game_id=game.pk, seq=game.version + 1, seat=0, action=request.data.get("action") or {},
                user=request.user, created_at=timezone.now(),
            )  # fmt: skip
        return Response({"game": game_id, "version": game.version + 1}, status=201)


urlpatterns = [path("bench/bare-floor/<str:game_id>/", BareFloorView.as_view(), name="bench-bare-floor")]
