"""Table talk's API: a table's messages, the quick phrases, reports and mutes."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ApiError
from config.converters import PublicIdConverter

from .. import chat, moderation, mutes
from ..phrases import phrase_list
from . import serializers as s
from .errors import BAD_REQUEST, NOT_FOUND, NOT_SEATED, TOO_MANY, refusals

MESSAGE_ID_SHAPE = re.compile(PublicIdConverter.regex)
AFTER_PARAMETER = OpenApiParameter("after", OpenApiTypes.STR, description="A message's id: only the messages after it.")


class ChatView(APIView):
    """A table's talk, for its seated players only."""

    @extend_schema(
        operation_id="game_chat_list",
        parameters=[AFTER_PARAMETER],
        responses={200: s.ChatPageSerializer, 400: BAD_REQUEST, 403: NOT_SEATED, 404: NOT_FOUND},
        description="The messages you may read at this table, oldest first, 100 a page. Muted players' "
        "messages, those of players you block or who block you, and (with table talk set to phrases) "
        "free text are left out. `moderation` tells you (alone) of a warning or a silence of your own table talk.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        after = request.query_params.get("after")
        if after is not None and not MESSAGE_ID_SHAPE.fullmatch(after):
            raise ApiError("unknown_message", "There is no such message at this table.", 400, {"after": [after]})
        with refusals():
            results, more = chat.messages_for(game_id=game_id, user=request.user, after=after)
        following = None
        if more and results:
            following = request.build_absolute_uri(request.path) + "?" + urlencode({"after": results[-1]["id"]})
        return Response({"results": results, "next": following, "moderation": chat.moderation_of(request.user)})

    @extend_schema(
        operation_id="game_chat_post",
        request=s.ChatPostSerializer,
        responses={
            201: s.ChatMessageSerializer,
            400: BAD_REQUEST,
            403: NOT_SEATED,
            404: NOT_FOUND,
            409: BAD_REQUEST,
            429: TOO_MANY,
        },
        examples=[
            OpenApiExample("Free text", value={"text": "Well played!"}, request_only=True),
            OpenApiExample("A quick phrase", value={"phrase": "good_game"}, request_only=True),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = s.ChatPostSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        with refusals():
            message = chat.post_message(
                game_id=game_id, author=request.user, text=v.get("text"), phrase=v.get("phrase")
            )
        return Response(chat.message_json(message, request.user.username), status=status.HTTP_201_CREATED)


class PhraseListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="chat_phrases", responses={200: s.PhraseSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """The quick phrases, in the reader's language."""
        return Response(phrase_list())


class ReportView(APIView):
    @extend_schema(
        operation_id="chat_report",
        request=s.ReportSerializer,
        responses={202: None, 400: BAD_REQUEST, 404: NOT_FOUND},
        description="Report a message to the moderators. Its author is never told who reported it.",
    )
    def post(self, request: Request, message_id: str) -> Response:
        data = s.ReportSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with refusals():
            moderation.report_message(
                message_id=message_id, reporter=request.user, reason=data.validated_data["reason"]
            )
        return Response(status=status.HTTP_202_ACCEPTED)


def mute_facts(mute) -> dict:
    return {"username": mute.muted.username, "created_at": mute.created_at}


class MuteListView(APIView):
    @extend_schema(operation_id="me_mutes_list", responses={200: s.MuteListSerializer})
    def get(self, request: Request) -> Response:
        """The players whose table talk you have muted, the latest first."""
        return Response({"results": [mute_facts(m) for m in mutes.muted_players(request.user)]})


class MuteView(APIView):
    @extend_schema(
        operation_id="me_mutes_create",
        request=None,
        responses={201: s.MuteSerializer, 400: BAD_REQUEST, 404: NOT_FOUND},
    )
    def post(self, request: Request, username: str) -> Response:
        """Mute a player: you no longer read their messages, at any table. They are not told."""
        with refusals():
            mute = mutes.mute_player(user=request.user, username=username)
        return Response(mute_facts(mute), status=status.HTTP_201_CREATED)

    @extend_schema(operation_id="me_mutes_delete", request=None, responses={204: None, 404: NOT_FOUND})
    def delete(self, request: Request, username: str) -> Response:
        """Unmute a player."""
        with refusals():
            mutes.unmute_player(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)
