"""A player's push devices, and the site's key to subscribe one with."""

from __future__ import annotations

from urllib.parse import urlsplit

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ApiError
from config.api_views import service_errors
from config.strict_input import KnownFieldsOnly

from .. import devices, vapid
from ..models import PushSubscription


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(help_text="The VAPID application server key, base64url (applicationServerKey).")


class PushKeyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: PushKeySerializer, 404: OpenApiResponse(description="This site sends no pushes.")},
    )
    def get(self, request: Request) -> Response:
        """The key a browser subscribes with (PushManager.subscribe's applicationServerKey)."""
        try:
            return Response({"public_key": vapid.public_key()})
        except vapid.PushNotConfigured as exc:
            raise ApiError("push_not_configured", "This site does not send pushes.", 404) from exc


class PushKeysSerializer(KnownFieldsOnly, serializers.Serializer):
    p256dh = serializers.CharField(max_length=100, help_text="The browser's P-256 public key, base64url.")
    auth = serializers.CharField(max_length=40, help_text="The browser's 16-byte authentication secret, base64url.")


class PushSubscriptionInputSerializer(KnownFieldsOnly, serializers.Serializer):
    endpoint = serializers.CharField(max_length=1000, help_text="The push service's address for this browser.")
    keys = PushKeysSerializer()
    name = serializers.CharField(max_length=80, required=False, allow_blank=True, default="")


class PushSubscriptionSerializer(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    name = serializers.CharField()
    endpoint_host = serializers.SerializerMethodField(help_text="The push service (the endpoint's host).")
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True)

    def get_endpoint_host(self, device: PushSubscription) -> str:
        return urlsplit(device.endpoint).hostname or ""


class PushSubscriptionListView(APIView):
    @extend_schema(responses={200: PushSubscriptionSerializer(many=True)})
    def get(self, request: Request) -> Response:
        """Your devices that receive pushes."""
        listed = PushSubscription.objects.filter(user=request.user)
        return Response(PushSubscriptionSerializer(listed, many=True).data)

    @extend_schema(request=PushSubscriptionInputSerializer, responses={201: PushSubscriptionSerializer})
    def post(self, request: Request) -> Response:
        """Subscribe this browser (the JSON of its PushSubscription, and a name). Answers 200 when the
        browser was subscribed already."""
        data = PushSubscriptionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        with service_errors():
            device, created = devices.subscribe(
                user=request.user,
                endpoint=given["endpoint"],
                p256dh=given["keys"]["p256dh"],
                auth=given["keys"]["auth"],
                name=given["name"],
            )
        return Response(
            PushSubscriptionSerializer(device).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class PushSubscriptionDetailView(APIView):
    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, device_id: str) -> Response:
        """Stop pushing to this device."""
        with service_errors():
            devices.remove(user=request.user, device_id=device_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
