"""Players' profiles and the leaderboards, in the API."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ApiError
from config.api_views import PAGE_PARAMETER
from games import selectors as game_selectors
from games.engine import KINDS
from games.models import GameStatus
from stats import selectors

from . import serializers as s


class UserProfileView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: s.UserProfileSerializer},
        operation_id="users_retrieve",
        parameters=[
            OpenApiParameter(
                "username", OpenApiTypes.STR, OpenApiParameter.PATH, description="Compared without regard to case."
            )
        ],
    )
    def get(self, request: Request, username: str) -> Response:
        """A player's profile: statistics in total and per game kind, ratings, and recent games."""
        player = selectors.find_player(username)
        if player is None:
            raise ApiError("not_found", f"There is no player named {username}.", status.HTTP_404_NOT_FOUND)
        viewer = request.user if request.user.is_authenticated else None
        return Response(selectors.player_profile(player, viewer))


class LeaderboardView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(KINDS)),
            PAGE_PARAMETER,
        ],
        responses={200: s.LeaderboardPageSerializer},
        operation_id="leaderboard_list",
    )
    def get(self, request: Request, kind: str) -> Response:
        """The rated players of one game kind, ranked by conservative rating (mu - 3 sigma), 50 a page."""
        if kind not in KINDS:
            raise ApiError(
                "not_found", f"There is no game kind “{kind}”; choose {' or '.join(KINDS)}.", status.HTTP_404_NOT_FOUND
            )
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(selectors.leaderboard(kind), request, view=self)
        first = (paginator.page.number - 1) * paginator.page.paginator.per_page + 1
        entries = [selectors.leaderboard_entry(rating, first + i) for i, rating in enumerate(page)]
        return paginator.get_paginated_response(entries)


class GameRatingsView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.GameRatingsSerializer}, operation_id="game_ratings")
    def get(self, request: Request, game_id: str) -> Response:
        """The players' ratings before and after a finished game (empty until it is finished, and for an
        unrated game): what the table's end panel shows."""
        viewer = request.user if request.user.is_authenticated else None
        game = game_selectors.visible_games(viewer).filter(public_id=game_id).first()
        if game is None:
            raise ApiError("not_found", "There is no such game, or you may not see it.", status.HTTP_404_NOT_FOUND)
        finished = game.status == GameStatus.FINISHED
        changes = selectors.game_rating_changes(game) if finished and game.rated else []
        return Response({"rated": game.rated, "changes": changes})
