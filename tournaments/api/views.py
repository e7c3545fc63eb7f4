"""The tournaments API: one view per action, each calling one service or selector."""

from __future__ import annotations

from django.db.models import Exists, OuterRef
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import ApiError
from config.api_views import PAGE_PARAMETER, service_errors
from games import selectors as game_selectors
from tournaments import ics, selectors, services
from tournaments.models import Entry, Tournament

from . import serializers as s


def detail_response(request: Request, tournament: Tournament, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(selectors.detail(tournament, request.user), status=status_code)


class TournamentListView(APIView):
    """List tournaments, or create one."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="tournaments_list",
        parameters=[s.TournamentListQuerySerializer, PAGE_PARAMETER],
        responses={200: s.TournamentPageSerializer},
        description="Tournaments, newest first (finished ones by their end); `status=open` lists those to join.",
    )
    def get(self, request: Request) -> Response:
        query = s.TournamentListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        tournaments = selectors.tournaments_list(query.validated_data.get("status"))
        if request.user.is_authenticated:
            mine = Entry.objects.filter(tournament=OuterRef("pk"), user=request.user)
            tournaments = tournaments.annotate(entered=Exists(mine))
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(tournaments, request, view=self)
        rows = []
        for tournament in page:
            row = selectors.summary(tournament, None)
            row["entered"] = bool(getattr(tournament, "entered", False))
            rows.append(row)
        return paginator.get_paginated_response(rows)

    @extend_schema(
        request=s.TournamentCreateSerializer,
        responses={201: s.TournamentDetailSerializer},
        examples=[
            OpenApiExample(
                "Swiss Scat, tables of three, three rounds",
                value={
                    "name": "Autumn Scat",
                    "kind": "scat",
                    "format": "swiss",
                    "table_size": 3,
                    "rounds": 3,
                    "move_time_limit": 86400,
                    "max_players": 30,
                },
                request_only=True,
            ),
            OpenApiExample(
                "Round robin Scattle",
                value={"name": "Scattle league", "kind": "scattle", "format": "round_robin", "table_size": 2},
                request_only=True,
            ),
        ],
        description="You are entered in the tournament you create (leave it to only organize it).",
    )
    def post(self, request: Request) -> Response:
        data = s.TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        with service_errors():
            tournament = services.create_tournament(
                creator=request.user,
                name=v["name"],
                kind=v["kind"],
                format=v["format"],
                table_size=v["table_size"],
                rounds=v["rounds"],
                options=v["options"],
                move_time_limit=v["move_time_limit"],
                time_bank=v["time_bank"],
                timeout_policy=v["timeout_policy"],
                vacation=v["vacation"],
                max_players=v["max_players"],
                bots_fill=v["bots_fill"],
                starts_at=v["starts_at"],
            )
        return detail_response(request, tournament, status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.TournamentDetailSerializer})
    def get(self, request: Request, tournament_id: str) -> Response:
        """The tournament: its settings, standings, and each round's tables (linked to their games)
        and byes."""
        return detail_response(request, get_object_or_404(Tournament, public_id=tournament_id))


class TournamentActionView(APIView):
    """Base for the POST-only actions that take a tournament and return its new detail."""

    def perform(self, request: Request, tournament_id: str) -> Tournament:
        raise NotImplementedError

    def post(self, request: Request, tournament_id: str) -> Response:
        with service_errors():
            tournament = self.perform(request, tournament_id)
        return detail_response(request, tournament)


@extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
class JoinView(TournamentActionView):
    """Enter an open tournament."""

    def perform(self, request, tournament_id):
        return services.join_tournament(tournament_id=tournament_id, user=request.user)


@extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
class LeaveView(TournamentActionView):
    """Leave a tournament that has not started."""

    def perform(self, request, tournament_id):
        return services.leave_tournament(tournament_id=tournament_id, user=request.user)


@extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
class StartView(TournamentActionView):
    """Start now with the players entered (the creator only): the first round's games begin."""

    def perform(self, request, tournament_id):
        return services.start_tournament(tournament_id=tournament_id, user=request.user)


@extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
class CancelView(TournamentActionView):
    """Call off a tournament that has not started (the creator only): it finishes unplayed, and the
    players entered are told."""

    def perform(self, request, tournament_id):
        return services.cancel_tournament(tournament_id=tournament_id, user=request.user)


@extend_schema(request=None, responses={200: s.TournamentDetailSerializer})
class WithdrawView(TournamentActionView):
    """Leave a running tournament: your running games are resigned and you are paired no more."""

    def perform(self, request, tournament_id):
        return services.withdraw(tournament_id=tournament_id, user=request.user)


def feed_url(request: Request, token: str) -> str:
    return request.build_absolute_uri(reverse("tournament-calendar-feed", args=[token]))


class CalendarView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.CalendarSerializer})
    def get(self, request: Request) -> Response:
        """Your secret calendar address (.ics): your tournaments' rounds and the deadlines of the games
        waiting for you. Keep it to yourself; POST replaces it."""
        return Response({"url": feed_url(request, services.calendar_token(user=request.user))})

    @extend_schema(request=None, responses={200: s.CalendarSerializer})
    def post(self, request: Request) -> Response:
        """A new secret calendar address; the old one stops working at once."""
        return Response({"url": feed_url(request, services.rotate_calendar(user=request.user))})


class GameDeadlineView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_deadline_ics",
        responses={(200, "text/calendar"): OpenApiResponse(OpenApiTypes.STR, description="One VEVENT.")},
    )
    def get(self, request: Request, game_id: str) -> HttpResponse:
        """The game's current deadline as a one-event calendar file, to add to your calendar. 409 when
        no clock runs (the game is over, or the clock is stopped)."""
        game = get_object_or_404(game_selectors.visible_games(request.user), public_id=game_id)
        seats = list(game.seats.all())
        seat = game_selectors.viewer_seat(game, seats, request.user)
        yours = seat is not None and seat == game.to_act_seat
        body = ics.game_deadline(game, yours=yours)
        if body is None:
            raise ApiError("no_deadline", "No clock runs in this game now.", status.HTTP_409_CONFLICT)
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="slowhand-{game.public_id}-deadline.ics"'
        return response
