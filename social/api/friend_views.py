"""Follows through the API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import friends
from ..mutes import player_named
from .errors import BAD_REQUEST, NOT_FOUND, error, refusals

BLOCKED = error("One of you blocks the other (code blocked)")


class FollowStateSerializer(serializers.Serializer):
    following = serializers.BooleanField(help_text="Whether you follow the player.")
    followers = serializers.IntegerField(help_text="How many players follow them.")


class FollowingSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()


def follow_state(request: Request, username: str) -> dict:
    player = player_named(username)
    return {"following": friends.follows(request.user, player), "followers": friends.followers_count(player)}


class FollowView(APIView):
    @extend_schema(operation_id="user_follow_state", responses={200: FollowStateSerializer, 404: NOT_FOUND})
    def get(self, request: Request, username: str) -> Response:
        """Whether you follow the player, and how many follow them."""
        with refusals():
            return Response(follow_state(request, username))

    @extend_schema(
        operation_id="user_follow",
        request=None,
        responses={201: FollowStateSerializer, 400: BAD_REQUEST, 403: BLOCKED, 404: NOT_FOUND},
    )
    def post(self, request: Request, username: str) -> Response:
        """Follow a player (one way): their public games in progress show on your home page."""
        with refusals():
            friends.follow_player(user=request.user, username=username)
            return Response(follow_state(request, username), status=status.HTTP_201_CREATED)

    @extend_schema(operation_id="user_unfollow", request=None, responses={204: None, 404: NOT_FOUND})
    def delete(self, request: Request, username: str) -> Response:
        """Stop following a player."""
        with refusals():
            friends.unfollow_player(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FollowingView(APIView):
    @extend_schema(operation_id="me_following", responses={200: FollowingSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """The players you follow, by username."""
        return Response(
            [{"username": u.username, "display_name": u.public_name} for u in friends.following(request.user)]
        )
