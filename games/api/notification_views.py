"""Notifications, notification settings and vacation: the player's side of the clock."""

from __future__ import annotations

import secrets

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import notifications, vacations
from games.models import Channel, NotificationKind, PlayerPreference
from games.webhooks import webhook_url_problem

from .views import PAGE_PARAMETER, service_errors

MAX_NOTIFICATION_ID = 2**63 - 1


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=NotificationKind.choices)
    game = serializers.CharField(allow_null=True)
    payload = serializers.DictField()
    text = serializers.CharField()
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class NotificationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    unread_count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationSerializer(many=True)


class MarkReadSerializer(serializers.Serializer):
    # Bounded by the id column (a bigint): a larger number is no id, not a database error.
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_NOTIFICATION_ID),
        required=False,
        default=list,
        max_length=500,
    )
    all = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs):
        if not attrs["ids"] and not attrs["all"]:
            raise serializers.ValidationError('Send "ids": [...] or "all": true.')
        return attrs


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread_count = serializers.IntegerField()


class NotificationListView(APIView):
    @extend_schema(parameters=[PAGE_PARAMETER], responses={200: NotificationPageSerializer})
    def get(self, request: Request) -> Response:
        """Your notifications, newest first, with the number still unread."""
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(notifications.listed_for(request.user), request, view=self)
        response = paginator.get_paginated_response([notifications.as_json(n) for n in page])
        response.data["unread_count"] = notifications.unread_count(request.user)
        return response


class NotificationReadView(APIView):
    @extend_schema(request=MarkReadSerializer, responses={200: MarkedSerializer})
    def post(self, request: Request) -> Response:
        """Mark some notifications (or all) as read."""
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        marked = notifications.mark_read(
            request.user, ids=data.validated_data["ids"], everything=data.validated_data["all"]
        )
        return Response({"marked": marked, "unread_count": notifications.unread_count(request.user)})


class PreferenceSerializer(serializers.ModelSerializer):
    channels = serializers.DictField(
        child=serializers.ListField(child=serializers.ChoiceField(choices=Channel.choices)),
        required=False,
        help_text="Per event (your_turn, time_running_out, game_over, invitation, game_started, digest), "
        "the channels to use: in_app, email, webhook.",
    )
    reminder_share = serializers.FloatField(min_value=0.1, max_value=0.95, required=False)
    digest_hour = serializers.IntegerField(min_value=0, max_value=23, required=False)
    webhook_secret = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The key that signs your webhooks (shown only to you). Blank: one is generated.",
    )

    class Meta:
        model = PlayerPreference
        fields = (
            "channels", "reminder_share", "digest_enabled", "digest_hour", "webhook_url", "webhook_secret",
            "webhook_last_error", "webhook_last_error_at", "vacation_days_per_year",
        )  # fmt: skip
        read_only_fields = ("webhook_last_error", "webhook_last_error_at", "vacation_days_per_year")

    def validate_channels(self, value: dict) -> dict:
        unknown = sorted(set(value) - set(NotificationKind.values))
        if unknown:
            raise serializers.ValidationError(
                f"Unknown event {', '.join(unknown)}; events are {', '.join(NotificationKind.values)}."
            )
        repeated = sorted(kind for kind, channels in value.items() if len(set(channels)) != len(channels))
        if repeated:
            raise serializers.ValidationError(f"Name each channel once for {', '.join(repeated)}.")
        return value

    def validate_webhook_url(self, value: str) -> str:
        problem = value and webhook_url_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value

    def update(self, instance: PlayerPreference, validated_data: dict) -> PlayerPreference:
        if "channels" in validated_data:
            validated_data["channels"] = {**instance.channels, **validated_data["channels"]}
        for field, value in validated_data.items():
            setattr(instance, field, value)
        if instance.webhook_url and not instance.webhook_secret:
            instance.webhook_secret = secrets.token_hex(24)
            validated_data["webhook_secret"] = instance.webhook_secret
        # Only the fields sent: a full save could put back a vacation that ended meanwhile.
        instance.save(update_fields=list(validated_data))
        return instance


class PreferenceView(APIView):
    def preference(self, request: Request) -> PlayerPreference:
        return PlayerPreference.objects.get_or_create(user=request.user)[0]

    @extend_schema(responses={200: PreferenceSerializer})
    def get(self, request: Request) -> Response:
        """How you are notified, and when."""
        return Response(PreferenceSerializer(self.preference(request)).data)

    @extend_schema(request=PreferenceSerializer, responses={200: PreferenceSerializer})
    def patch(self, request: Request) -> Response:
        serializer = PreferenceSerializer(self.preference(request), data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        serializer.save()
        return Response(serializer.data)


class VacationStartSerializer(serializers.Serializer):
    until = serializers.DateTimeField(help_text="When the vacation ends.")


class VacationSerializer(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    until = serializers.DateTimeField(allow_null=True)
    days_left = serializers.FloatField(help_text="Vacation days left this year.")
    days_per_year = serializers.IntegerField()


def vacation_state(user) -> dict:
    current = vacations.current_vacation(user)
    return {
        "on_vacation": current is not None,
        "until": current.ends_at if current else None,
        "days_left": round(max(0.0, vacations.allowance_left(user)), 2),
        "days_per_year": notifications.preference_for(user.pk).vacation_days_per_year,
    }


class VacationView(APIView):
    @extend_schema(responses={200: VacationSerializer})
    def get(self, request: Request) -> Response:
        """Whether you are on vacation, and how many days you have left this year."""
        return Response(vacation_state(request.user))

    @extend_schema(request=VacationStartSerializer, responses={201: VacationSerializer})
    def post(self, request: Request) -> Response:
        """Start a vacation: your clocks stop in every game until it ends."""
        data = VacationStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with service_errors():
            vacations.start_vacation(user=request.user, until=data.validated_data["until"])
        return Response(vacation_state(request.user), status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: VacationSerializer})
    def delete(self, request: Request) -> Response:
        """End your vacation now; unused days return to your allowance."""
        vacations.end_vacation(user=request.user)
        return Response(vacation_state(request.user))
