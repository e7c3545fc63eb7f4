"""The floor of a move, for bench/api_load.py: the least work any move request must do.

`POST /bench/floor/<game id>/` with `Authorization: Token <key>` and a JSON body: the request goes
through the same middleware, the same DRF authentication (hashed API token), permission and
throttle classes as the API, parses its JSON body, then in one transaction locks the game's row
(`select_for_update`) and updates it (its `updated_at` only: the game's state, version and moves
are untouched, so `verify_games` still finds it consistent), and answers a small JSON body.

Everything else is the site's own URLconf, so the floor server also serves the same
`GET /api/v1/games/<id>/` that the load clients call before each request. Only the benchmark's
floor server (DJANGO_SETTINGS_MODULE=bench.floor_settings) loads this module.
"""

from django.db import transaction
from django.urls import include, path
from django.utils import timezone
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game


class FloorView(APIView):
    """DRF's defaults from settings: the API's authentication, permission and throttle classes."""

    def post(self, request: Request, game_id: str) -> Response:
        version = request.data.get("version")
        with transaction.atomic():
            pk = Game.objects.select_for_update().filter(public_id=game_id).values_list("pk", flat=True).first()
            if pk is None:
                raise NotFound("no such game")
            Game.objects.filter(pk=pk).update(updated_at=timezone.now())
        return Response({"game": game_id, "version": version}, status=201)


urlpatterns = [
    path("bench/floor/<str:game_id>/", FloorView.as_view(), name="bench-floor"),
    path("", include("config.urls")),
]

handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
