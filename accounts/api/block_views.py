"""The players you have blocked: they cannot invite you or sit at a table with you."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import blocks
from accounts.api.serializers import ErrorSerializer
from accounts.models import Block
from config.api_errors import ApiError
from config.strict_input import KnownFieldsOnly


class BlockRequestSerializer(KnownFieldsOnly, serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The player to block.")


class BlockSerializer(serializers.Serializer):
    username = serializers.CharField()
    created_at = serializers.DateTimeField()


class BlockListSerializer(serializers.Serializer):
    results = BlockSerializer(many=True)


def block_facts(block: Block) -> dict:
    return {"username": block.blocked.username, "created_at": block.created_at}


ERROR_STATUS = {"unknown_user": status.HTTP_404_NOT_FOUND, "not_blocked": status.HTTP_404_NOT_FOUND}


def refusal(exc: blocks.BlockError) -> ApiError:
    return ApiError(exc.code, exc.message, ERROR_STATUS.get(exc.code, status.HTTP_400_BAD_REQUEST))


class BlockListView(APIView):
    @extend_schema(responses={200: BlockListSerializer}, operation_id="me_blocks_list")
    def get(self, request: Request) -> Response:
        """The players you have blocked, the latest first."""
        return Response({"results": [block_facts(b) for b in blocks.blocked_players(request.user)]})

    @extend_schema(
        request=BlockRequestSerializer,
        responses={201: BlockSerializer, 404: OpenApiResponse(ErrorSerializer, description="No player by that name")},
        operation_id="me_blocks_create",
    )
    def post(self, request: Request) -> Response:
        """Block a player: they can no longer invite you, and neither of you joins a game where the other sits."""
        data = BlockRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            block = blocks.block_player(blocker=request.user, username=data.validated_data["username"])
        except blocks.BlockError as exc:
            raise refusal(exc) from exc
        return Response(block_facts(block), status=status.HTTP_201_CREATED)


class BlockDetailView(APIView):
    @extend_schema(request=None, responses={204: None}, operation_id="me_blocks_delete")
    def delete(self, request: Request, username: str) -> Response:
        """Unblock a player."""
        try:
            blocks.unblock_player(blocker=request.user, username=username)
        except blocks.BlockError as exc:
            raise refusal(exc) from exc
        return Response(status=status.HTTP_204_NO_CONTENT)
