"""Notifications, and how a player hears of them."""

from __future__ import annotations

import secrets

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_views import PAGE_PARAMETER
from config.strict_input import KnownFieldsOnly

from .. import outbox, texts
from ..addresses import webhook_url_problem
from ..models import Channel, NotificationKind, PlayerPreference

MAX_NOTIFICATION_ID = 2**63 - 1
MIN_FOLLOW_UP, MAX_FOLLOW_UP = 60, 7 * 86400


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=NotificationKind.choices)
    game = serializers.CharField(allow_null=True)
    payload = serializers.DictField()
    text = serializers.CharField()
    created_at = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


UNREAD_GAMES_HELP = (
    "How many games you have unread notices about (a notice about no game, such as a tournament's, counts "
    'as one): the number on the site\'s badge. A new "your turn" or "time running out" notice replaces '
    "your unread one of the same game and kind."
)


class NotificationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    unread_count = serializers.IntegerField(help_text="Unread notices.")
    unread_games = serializers.IntegerField(help_text=UNREAD_GAMES_HELP)
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationSerializer(many=True)


class MarkReadSerializer(KnownFieldsOnly, serializers.Serializer):
    # Bounded by the id column (a bigint): a larger number is no id, not a database error.
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_NOTIFICATION_ID),
        required=False,
        default=list,
        max_length=500,
    )
    all = serializers.BooleanField(required=False, default=False)
    game = serializers.CharField(
        required=False, max_length=32, help_text="A game's id: mark every notification about that game read."
    )

    def validate(self, attrs):
        if not attrs["ids"] and not attrs["all"] and not attrs.get("game"):
            raise serializers.ValidationError('Send "ids": [...], "all": true or "game": "<game id>".')
        return attrs


class MarkedSerializer(serializers.Serializer):
    marked = serializers.IntegerField()
    unread_count = serializers.IntegerField()
    unread_games = serializers.IntegerField(help_text=UNREAD_GAMES_HELP)


class NotificationListView(APIView):
    @extend_schema(parameters=[PAGE_PARAMETER], responses={200: NotificationPageSerializer})
    def get(self, request: Request) -> Response:
        """Your notifications, newest first, with the number still unread."""
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(outbox.listed_for(request.user), request, view=self)
        response = paginator.get_paginated_response([texts.as_json(n) for n in page])
        response.data["unread_count"] = outbox.unread_count(request.user)
        response.data["unread_games"] = outbox.unread_games(request.user)
        return response


class NotificationReadView(APIView):
    @extend_schema(request=MarkReadSerializer, responses={200: MarkedSerializer})
    def post(self, request: Request) -> Response:
        """Mark some notifications (or all, or those about one game) as read."""
        data = MarkReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        chosen = data.validated_data
        marked = outbox.mark_read(request.user, ids=chosen["ids"], everything=chosen["all"], game=chosen.get("game"))
        unread = {"unread_count": outbox.unread_count(request.user), "unread_games": outbox.unread_games(request.user)}
        return Response({"marked": marked, **unread})


@extend_schema_field({"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$", "example": "22:00"})
class TimeOfDayField(serializers.TimeField):
    """A local time of day, to the second and without a zone ("22:00" or "22:00:00"): quiet hours
    follow the player's own time zone, so an offset or a fraction of a second has no meaning here."""

    def __init__(self, **kwargs) -> None:
        super().__init__(format="%H:%M:%S", input_formats=["%H:%M", "%H:%M:%S"], **kwargs)


class PreferenceSerializer(KnownFieldsOnly, serializers.ModelSerializer):
    channels = serializers.DictField(
        child=serializers.ListField(child=serializers.ChoiceField(choices=Channel.choices)),
        required=False,
        help_text="Per event (your_turn, time_running_out, game_over, invitation, game_started, digest, ...), "
        "the channels to use: in_app, email, webhook, push. Read: every event with its channels, the defaults "
        "included; write: only the events to change. Subscribing a device adds push to your_turn and "
        "time_running_out; for an event with push, email is a follow-up (see follow_up_after).",
    )
    quiet_hours_start = TimeOfDayField(
        required=False,
        allow_null=True,
        help_text="Your local time (see your profile's time zone) when quiet hours begin, such as 22:00. "
        "Pushes and emails that are not urgent wait until they end; null: no quiet hours.",
    )
    quiet_hours_end = TimeOfDayField(required=False, allow_null=True, help_text="When quiet hours end.")
    follow_up_after = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=MIN_FOLLOW_UP,
        max_value=MAX_FOLLOW_UP,
        help_text="Seconds after a push about your turn until an email follows, if you have not opened the "
        "game by then (default 12 hours); null: never.",
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
            "channels", "reminder_share", "digest_enabled", "digest_hour", "quiet_hours_start", "quiet_hours_end",
            "follow_up_after", "webhook_url", "webhook_secret", "webhook_last_error", "webhook_last_error_at",
            "vacation_days_per_year",
        )  # fmt: skip
        read_only_fields = ("webhook_last_error", "webhook_last_error_at", "vacation_days_per_year")

    def to_representation(self, instance: PlayerPreference) -> dict:
        # Every event with the channels it uses now, the defaults included (the row stores changes only).
        data = super().to_representation(instance)
        data["channels"] = {kind: instance.channels_for(kind) for kind in NotificationKind.values}
        return data

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

    def validate(self, attrs: dict) -> dict:
        start = attrs.get("quiet_hours_start", getattr(self.instance, "quiet_hours_start", None))
        end = attrs.get("quiet_hours_end", getattr(self.instance, "quiet_hours_end", None))
        if (start is None) != (end is None):
            raise serializers.ValidationError(
                {"quiet_hours_end": ["Give both ends of the quiet hours, or null for both."]}
            )
        if start is not None and start == end:
            raise serializers.ValidationError({"quiet_hours_end": ["Quiet hours end at another time than they begin."]})
        return attrs

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
