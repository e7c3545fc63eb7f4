"""Vacation: the player's side of the clock."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.preferences import preference_for
from config.api_views import service_errors
from config.strict_input import KnownFieldsOnly
from games import vacations


class VacationStartSerializer(KnownFieldsOnly, serializers.Serializer):
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
        "days_per_year": preference_for(user.pk).vacation_days_per_year,
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
