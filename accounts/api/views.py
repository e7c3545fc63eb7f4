from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import ApiToken

from .serializers import MeSerializer, TokenRequestSerializer, TokenResponseSerializer


class TokenCreateView(APIView):
    """Trade a username and password for a new API token."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(request=TokenRequestSerializer, responses={201: TokenResponseSerializer}, operation_id="auth_token")
    def post(self, request: Request) -> Response:
        serializer = TokenRequestSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        _token, key = ApiToken.issue(user=data["user"], name=data.get("name") or "API")
        return Response({"token": key}, status=status.HTTP_201_CREATED)


class MeView(APIView):
    """The account behind the request."""

    @extend_schema(responses=MeSerializer)
    def get(self, request: Request) -> Response:
        return Response(MeSerializer(request.user).data)
