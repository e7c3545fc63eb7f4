"""The games API: one view per action, each calling one service or selector."""

from __future__ import annotations

import hashlib

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User
from accounts.throttles import ApiRateThrottle
from config import dispatch
from config.api_errors import ApiError, Busy
from config.api_views import PAGE_PARAMETER, service_errors
from games import advice, advice_pool, selectors, services
from games.engine import KINDS, get_rules
from games.models import Game, Move, Turn

from . import serializers as s
from .pagination import MovePagination
from .throttles import AdviceRateThrottle

ADVICE_RUNNING_RETRY_SECONDS = 2  # longer than most advice takes

PAGE_SIZE_PARAMETER = OpenApiParameter(
    "page_size",
    OpenApiTypes.INT,
    description=f"Entries a page, up to {MovePagination.max_page_size} (default {MovePagination.page_size}).",
)


def visible_game(request: Request, game_id: str) -> Game:
    return get_object_or_404(selectors.visible_games(request.user), public_id=game_id)


def detail_response(request: Request, game_id: str, status_code: int = status.HTTP_200_OK) -> Response:
    return Response(selectors.game_detail(visible_game(request, game_id), request.user), status=status_code)


class GameListView(APIView):
    """List the games you may see, or create one."""

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        operation_id="games_list",
        parameters=[s.GameListQuerySerializer, PAGE_PARAMETER],
        responses={200: s.GamePageSerializer},
        description="The games you may see. For a signed-in viewer the games awaiting their move come first, "
        "by deadline, then the rest, newest first. `status=open` is the lobby; `player=<you>` is my games.",
    )
    def get(self, request: Request) -> Response:
        query = s.GameListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        player = None
        if name := query.validated_data.get("player"):
            player = User.objects.filter(username__iexact=name).first()
            if player is None:
                raise ApiError("unknown_user", f"No player named {name}.", 400, {"player": [name]})
        user = request.user if request.user.is_authenticated else None
        games = selectors.games_for(
            user, status=query.validated_data.get("status"), kind=query.validated_data.get("kind"), player=player
        )
        if query.validated_data["watchable"]:
            games = selectors.watchable(games)
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(
            [selectors.game_summary(g, list(g.seats.all()), request.user) for g in page]
        )

    @extend_schema(
        request=s.GameCreateSerializer,
        responses={201: s.GameDetailSerializer},
        examples=[
            OpenApiExample(
                "Scat against two bots",
                value={"kind": "scat", "seats": 3, "bots": ["good", "random"], "move_time_limit": 86400},
                request_only=True,
            ),
            OpenApiExample(
                "Scattle with a friend, 25 points, 2 days a move",
                value={
                    "kind": "scattle",
                    "seats": 2,
                    "invite": ["bob"],
                    "options": {"target_score": 25},
                    "move_time_limit": 172800,
                },
                request_only=True,
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        data = s.GameCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        with service_errors():
            game = services.create_game(
                creator=request.user,
                kind=v["kind"],
                num_seats=v["seats"],
                options=v["options"],
                move_time_limit=v["move_time_limit"],
                time_bank=v["time_bank"],
                timeout_policy=v["timeout_policy"],
                bots=v["bots"],
                invite=v["invite"],
                invite_days=v["invite_days"],
                is_private=v["is_private"],
                preset=v.get("preset", ""),
                rated=v["rated"],
                advice=v["advice"],
            )
        return detail_response(request, game.public_id, status.HTTP_201_CREATED)


def detail_etag(game: Game, user) -> str:
    """The viewer and the game's revision: the body changes with the clock (seconds_left) too,
    but what the viewer can see of the game changes only with a new revision."""
    viewer = user.pk if user is not None and user.is_authenticated else "anyone"
    return '"' + hashlib.sha256(f"{game.public_id}:{game.revision}:{viewer}".encode()).hexdigest()[:32] + '"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """RFC 9110's weak comparison: a proxy that compresses the body may have made the tag weak."""
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag in tags


class MyGamesView(APIView):
    @extend_schema(
        operation_id="me_games_list",
        parameters=[s.MyGamesQuerySerializer, PAGE_PARAMETER],
        responses={200: s.GamePageSerializer},
        description="Your active games, the ones awaiting your move first: the earliest deadline first, and "
        "games without a deadline (a clock stopped for a vacation) last, then the others in the same order. "
        "`to_act=me`: only the games awaiting your move, the most urgent first (where to play next); `count` "
        "says how many are waiting.",
    )
    def get(self, request: Request) -> Response:
        """Your active games; with to_act=me, those where it is your turn, most urgent first."""
        query = s.MyGamesQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        games = selectors.player_games(request.user, to_act_only=query.validated_data.get("to_act") == "me")
        paginator = PageNumberPagination()
        page = paginator.paginate_queryset(games, request, view=self)
        return paginator.get_paginated_response(
            [selectors.game_summary(g, list(g.seats.all()), request.user) for g in page]
        )


class GameDetailView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "If-None-Match",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="The ETag of an earlier answer: 304 while nothing you can see of the game has changed.",
            )
        ],
        responses={200: s.GameDetailSerializer, 304: OpenApiResponse(description="Not changed since that ETag.")},
    )
    def get(self, request: Request, game_id: str) -> Response:
        """The game as you may see it: your hand and legal actions, everyone's public facts."""
        game = visible_game(request, game_id)
        etag = detail_etag(game, request.user)
        headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Authorization, Cookie"}
        if etag_matches(request.headers.get("If-None-Match", ""), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        return Response(selectors.game_detail(game, request.user), headers=headers)


class GameActionView(APIView):
    """Base for the POST-only actions that take a game and return its new detail."""

    request_serializer: type | None = None

    def perform(self, request: Request, game_id: str, data: dict) -> Game:
        raise NotImplementedError

    def post(self, request: Request, game_id: str) -> Response:
        data = {}
        if self.request_serializer is not None:
            serializer = self.request_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
        with service_errors():
            game = self.perform(request, game_id, data)
        # From the game the service changed, not through visibility: a player who has just left or
        # declined a private game no longer sees it, yet their request succeeded.
        seats = list(game.seats.with_players().select_related("invited_user"))
        return Response(selectors.game_detail(game, request.user, seats=seats))


@extend_schema(request=s.JoinSerializer, responses={200: s.GameDetailSerializer})
class JoinView(GameActionView):
    """Take a free seat, your reserved seat, or the seat an invitation link holds."""

    request_serializer = s.JoinSerializer

    def perform(self, request, game_id, data):
        return services.join_game(game_id=game_id, user=request.user, invite_token=data["invite_token"])


@extend_schema(request=None, responses={200: s.GameDetailSerializer})
class LeaveView(GameActionView):
    """Give up your seat before the game starts (the creator leaving cancels the game)."""

    def perform(self, request, game_id, data):
        return services.leave_game(game_id=game_id, user=request.user)


@extend_schema(request=None, responses={200: s.GameDetailSerializer})
class StartView(GameActionView):
    """Start now with the players seated; empty and reserved seats are dropped."""

    def perform(self, request, game_id, data):
        return services.start_game(game_id=game_id, user=request.user)


@extend_schema(request=None, responses={200: s.GameDetailSerializer})
class DeclineView(GameActionView):
    """Decline an invitation: the reserved seat opens for anyone."""

    def perform(self, request, game_id, data):
        return services.decline_invitation(game_id=game_id, user=request.user)


class ResignView(APIView):
    @extend_schema(request=None, responses={200: s.GameDetailSerializer})
    def post(self, request: Request, game_id: str) -> Response:
        """Leave a running game by the rules: eliminated in Scat, ranked last in Scattle."""
        with service_errors():
            services.resign(game_id=game_id, user=request.user)
        return detail_response(request, game_id)


class InviteLinkView(APIView):
    @extend_schema(request=s.InviteLinkCreateSerializer, responses={201: s.InviteLinkSerializer})
    def post(self, request: Request, game_id: str) -> Response:
        """Reserve a seat for whoever opens the returned link (shown once)."""
        data = s.InviteLinkCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with service_errors():
            seat, token = services.create_invite_link(
                game_id=game_id, user=request.user, days=data.validated_data["days"]
            )
        url = request.build_absolute_uri(f"/games/{game_id}/?invite={token}")
        body = {"seat": seat.index, "token": token, "url": url, "expires_at": seat.invite_expires_at}
        return Response(body, status=status.HTTP_201_CREATED)


class MoveListView(APIView):
    pagination_class = MovePagination

    def get_permissions(self):
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    @extend_schema(
        parameters=[s.MoveListQuerySerializer, PAGE_PARAMETER, PAGE_SIZE_PARAMETER],
        responses={200: s.MovePageSerializer},
        description="The move history after `after`, as you may see it: another player's stock draw shows no card.",
    )
    def get(self, request: Request, game_id: str) -> Response:
        query = s.MoveListQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        game = visible_game(request, game_id)
        moves = Move.objects.filter(game=game, seq__gt=query.validated_data["after"]).order_by("seq")
        paginator = MovePagination()
        page = paginator.paginate_queryset(moves, request, view=self)
        return paginator.get_paginated_response(selectors.move_history(game, request.user, page))

    @extend_schema(
        request=s.MoveCreateSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="A retry with the same key returns the first answer and applies nothing twice.",
            )
        ],
        responses={201: s.MoveResultSerializer},
        examples=[
            OpenApiExample("Draw from the stock", value={"action": {"type": "draw_stock"}, "version": 4}),
            OpenApiExample(
                "Discard the seven of spades", value={"action": {"type": "discard", "card": "7S"}, "version": 5}
            ),
            OpenApiExample("Meld a run", value={"action": {"type": "meld", "cards": ["3H", "4H", "5H"]}, "version": 9}),
        ],
        description="Checked in this order: 400 malformed body; 404 a game you may not see; 403 not seated; "
        "409 stale version (or the game is not running); 403 not your turn; 400 illegal action.",
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = s.MoveCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        key = request.headers.get("Idempotency-Key", "").strip()
        if len(key) > 128:
            raise ApiError("bad_idempotency_key", "Idempotency-Key is at most 128 characters.", 400)
        # The key is stored and looked up: PostgreSQL refuses a NUL in text (a 500), and no
        # control character belongs in a header anyway.
        if any(ord(c) < 32 or ord(c) == 127 for c in key):
            raise ApiError("bad_idempotency_key", "Idempotency-Key cannot contain control characters.", 400)
        with service_errors():
            result = services.submit_move(
                game_id=game_id,
                user=request.user,
                action=dict(data.validated_data["action"]),
                version=data.validated_data["version"],
                idempotency_key=key,
            )
        # The service already holds the game and its seats: answer from them, without reading again.
        move = selectors.move_history(result.game, request.user, [result.move], seats=result.seats)[0]
        headers = {"Idempotent-Replayed": "true"} if result.replayed else {}
        body = {"move": move, "game": selectors.game_detail(result.game, request.user, seats=result.seats)}
        return Response(body, status=status.HTTP_201_CREATED, headers=headers)


class TurnListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(parameters=[PAGE_PARAMETER, PAGE_SIZE_PARAMETER], responses={200: s.TurnPageSerializer})
    def get(self, request: Request, game_id: str) -> Response:
        """The game's finished turns, oldest first: who, when, how long, and whether it timed out;
        and the turn in progress in `current`."""
        game = visible_game(request, game_id)
        paginator = MovePagination()
        page = paginator.paginate_queryset(
            Turn.objects.filter(game=game).order_by("started_at", "pk"), request, view=self
        )
        response = paginator.get_paginated_response(selectors.turn_times(game, page))
        response.data["current"] = selectors.current_turn(game)
        return response


class VerifyView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: s.VerificationSerializer})
    def get(self, request: Request, game_id: str) -> Response:
        """Provably fair shuffles: once the game is over, re-run it from the revealed seed."""
        return Response(selectors.verification(visible_game(request, game_id)))


class AdvisorBusy(Busy):
    default_detail = "The advisor is busy; ask again in a few seconds."
    default_code = "advisor_busy"


class AdviceView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [ApiRateThrottle, AdviceRateThrottle]

    @extend_schema(responses={200: s.AdviceSerializer})
    def get(self, request: Request, game_id: str) -> Response:
        """The advisor's figures for each of your legal actions, on your turn in a game with advice on
        (unrated games only): Scat's chance of losing a life this hand, Scattle's expected points.
        429 with Retry-After while your previous request is being computed or past 30 a minute; 503
        with Retry-After while the advisor is busy with other players'."""
        game = visible_game(request, game_id)
        try:
            with service_errors():
                return Response(advice.advice_for(game, list(game.seats.all()), request.user))
        except advice.AdviceRunning as exc:
            raise exceptions.Throttled(
                wait=ADVICE_RUNNING_RETRY_SECONDS,
                detail="Your previous request for advice is still being computed.",
                code="advice_in_progress",
            ) from exc
        except advice_pool.AdvisorBusy as exc:
            raise AdvisorBusy() from exc


class ReviewView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: s.ReviewSerializer, 202: s.ReviewSerializer})
    def get(self, request: Request, game_id: str) -> Response:
        """After the game: each of your decisions, the advisor's best action, and what yours cost
        (Scat: chance of losing a life; Scattle: points), from what you knew then. 202 while it is
        being computed."""
        game = visible_game(request, game_id)
        with service_errors():
            review, started = advice.review_for(game, list(game.seats.all()), request.user)
        if started:
            dispatch.enqueue_after_commit("games.tasks.review_game", review.pk)
        code = status.HTTP_200_OK if review.ready_at else status.HTTP_202_ACCEPTED
        return Response(advice.review_body(game, review), status=code)


class RulesView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("kind", OpenApiTypes.STR, OpenApiParameter.PATH, enum=list(KINDS))],
        responses={200: s.RulesSerializer},
        operation_id="rules_retrieve",
    )
    def get(self, request: Request, kind: str) -> Response:
        """A game's rules options, each with its type, default and range; the named presets; and what
        "auto" resolves to at each seat count."""
        if kind not in KINDS:
            raise ApiError("not_found", f"There is no game kind {kind!r}; choose {' or '.join(KINDS)}.", 404)
        rules = get_rules(kind)
        body = {
            "kind": kind,
            "seats": {"min": rules.min_seats, "max": rules.max_seats},
            "options": rules.option_specs(),
            "presets": rules.presets(),
            "auto": rules.auto_table(),
        }
        return Response(body)
