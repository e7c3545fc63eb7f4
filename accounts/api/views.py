"""Account API: tokens and your own account. One view per resource (players' profiles and the
leaderboards are in stats.api)."""

from __future__ import annotations

import re

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import services
from accounts.models import ApiToken
from config.api_errors import ApiError
from config.api_views import PAGE_PARAMETER

from . import serializers as s

TOKEN_ID_SHAPE = re.compile(r"^[A-Za-z0-9_-]{1,16}\Z")

NO_SUCH_PAGE = OpenApiResponse(s.ErrorSerializer, description="No such page")


class TokenCreateView(APIView):
    """Trade a username and password for a new API token."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        request=s.TokenRequestSerializer, responses={201: s.TokenResponseSerializer}, operation_id="auth_token"
    )
    def post(self, request: Request) -> Response:
        serializer = s.TokenRequestSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            _token, key = services.create_token(user=data["user"], name=data.get("name") or "API")
        except services.AccountError as exc:
            raise ApiError(exc.code, exc.message, status.HTTP_400_BAD_REQUEST, {exc.field: [exc.message]}) from exc
        return Response({"token": key}, status=status.HTTP_201_CREATED)


class MeView(APIView):
    """The account behind the request."""

    @extend_schema(responses=s.MeSerializer)
    def get(self, request: Request) -> Response:
        return Response(s.MeSerializer(request.user).data)

    @extend_schema(
        request=s.ProfileUpdateSerializer,
        responses={200: s.MeSerializer},
        operation_id="me_update",
        description="Change your display name, email, time zone or language; fields left out stay as they are. "
        "A new email address also needs `current_password`.",
        examples=[
            OpenApiExample(
                "Move to Istanbul time, in Turkish",
                value={"time_zone": "Europe/Istanbul", "language": "tr"},
                request_only=True,
            ),
            OpenApiExample("A display name", value={"display_name": "Alice the Bold"}, request_only=True),
        ],
    )
    def patch(self, request: Request) -> Response:
        serializer = s.ProfileUpdateSerializer(
            request.user, data=request.data, partial=True, context={"request": request}
        )
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(s.MeSerializer(request.user).data)


class ApiTokenListView(APIView):
    """Your personal API tokens: list the active ones, or create one."""

    @extend_schema(
        parameters=[PAGE_PARAMETER],
        responses={200: s.ApiTokenPageSerializer, 404: NO_SUCH_PAGE},
        operation_id="me_tokens_list",
        description="Your active tokens, newest first, with when each was last used (to the minute). "
        "Keys are never shown again after creation.",
    )
    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.active().filter(user=request.user).order_by("-created_at", "-pk")
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(tokens, request, view=self)
        data = s.ApiTokenSerializer(page, many=True, context={"request": request}).data
        return paginator.get_paginated_response(data)

    @extend_schema(
        request=s.ApiTokenCreateSerializer,
        responses={201: s.ApiTokenCreatedSerializer},
        operation_id="me_tokens_create",
        description="Create a named token. The response holds its key, shown only this once; only a hash is kept.",
        examples=[
            OpenApiExample("A token for a bot script", value={"name": "my scat bot"}, request_only=True),
            OpenApiExample(
                "Created",
                value={
                    "id": "Xq3f9Lk2bA0c",
                    "name": "my scat bot",
                    "prefix": "4f1c2a9e",
                    "created_at": "2026-01-05T10:00:00Z",
                    "last_used_at": None,
                    "is_current": False,
                    "token": "4f1c2a9e0b7d5c3e1f2a4b6c8d0e2f4a6b8c0d2e",
                },
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = s.ApiTokenCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            token, key = services.create_token(user=request.user, name=serializer.validated_data["name"])
        except services.AccountError as exc:
            raise ApiError(exc.code, exc.message, status.HTTP_400_BAD_REQUEST, {exc.field: [exc.message]}) from exc
        data = {**s.ApiTokenSerializer(token, context={"request": request}).data, "token": key}
        return Response(data, status=status.HTTP_201_CREATED)


class ApiTokenDetailView(APIView):
    @extend_schema(
        request=None,
        responses={204: None},
        operation_id="me_tokens_revoke",
        parameters=[
            OpenApiParameter("token_id", OpenApiTypes.STR, OpenApiParameter.PATH, description="The token's id.")
        ],
    )
    def delete(self, request: Request, token_id: str) -> Response:
        """Revoke one of your tokens: requests made with it are refused (401) from now on."""
        if not TOKEN_ID_SHAPE.match(token_id):
            raise ApiError("not_found", "You have no active token with that id.", status.HTTP_404_NOT_FOUND)
        try:
            services.revoke_token(user=request.user, token_id=token_id)
        except services.AccountError as exc:
            raise ApiError("not_found", exc.message, status.HTTP_404_NOT_FOUND) from exc
        return Response(status=status.HTTP_204_NO_CONTENT)
