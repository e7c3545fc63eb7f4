"""Rematches and private notes: what a player does with a game of theirs."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers as drf_serializers
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors as game_selectors
from games.api.serializers import GameDetailSerializer

from .. import notes, rematches
from . import serializers as s
from .errors import BAD_REQUEST, NOT_FOUND, error, refusals

NOT_A_PLAYER = error("Not a player of this game (code not_seated), or a tournament game (code tournament_game)")
NOT_FINISHED = error("The game is not finished (code game_not_finished), or the rematch cannot take you")


class RematchView(APIView):
    @extend_schema(
        operation_id="game_rematch",
        request=None,
        responses={201: GameDetailSerializer, 400: BAD_REQUEST, 403: NOT_A_PLAYER, 404: NOT_FOUND, 409: NOT_FINISHED},
        description="The finished game's rematch: the first player to ask creates it (the same kind, options, "
        "time control and rating status, the other players invited, bots seated again); any other player who "
        "asks is seated in that same game. It starts when everyone has accepted.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        with refusals():
            game = rematches.rematch(game_id=game_id, user=request.user)
        game = game_selectors.visible_games(request.user).get(pk=game.pk)
        return Response(game_selectors.game_detail(game, request.user), status=status.HTTP_201_CREATED)


class NoteResponseSerializer(drf_serializers.Serializer):
    text = drf_serializers.CharField(allow_blank=True)
    updated_at = drf_serializers.DateTimeField(allow_null=True)


class NoteView(APIView):
    @extend_schema(
        operation_id="game_note_read",
        responses={200: NoteResponseSerializer, 403: NOT_A_PLAYER, 404: NOT_FOUND},
        description="Your private note on this game (empty if you have none). Nobody else ever reads it.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        with refusals():
            return Response(notes.note_of(game_id=game_id, user=request.user))

    @extend_schema(
        operation_id="game_note_write",
        request=s.NoteSerializer,
        responses={200: NoteResponseSerializer, 400: BAD_REQUEST, 403: NOT_A_PLAYER, 404: NOT_FOUND},
    )
    def put(self, request: Request, game_id: str) -> Response:
        data = s.NoteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with refusals():
            return Response(notes.save_note(game_id=game_id, user=request.user, text=data.validated_data["text"]))
