"""GET /api/v1/games/{id}/stream/ and GET /api/v1/stream/: async views, served under ASGI past the
middleware (config.direct_asgi), so that an open stream holds no thread.

Authentication is the API's (a token, or the session), with its rate limits, in one short hop to the
shared thread pool (live.threads); the lease is taken on Redis from the event loop; a game's first
event comes from a reading shared by the streams that open together (live.openings). The stream
then runs on its own, in the event loop (live.streams). Errors before the stream starts answer in
the API's error shape.
"""

from __future__ import annotations

from collections.abc import Awaitable
from importlib import import_module
from typing import TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.functional import SimpleLazyObject
from rest_framework import exceptions
from rest_framework.request import Request

from accounts.authentication import REFUSED, HashedTokenAuthentication, token_key, tokens_of_keys
from accounts.throttles import ApiRateThrottle
from config.api_errors import error_body
from config.client_address import client_address
from config.direct_asgi import DirectStream, served_directly

from . import feeds, leases, openings, presence
from .batches import Batched, of_this_loop
from .streams import NDJSON, SSE, Encoder, game_stream, user_stream
from .threads import in_thread

T = TypeVar("T")


class StreamAuthentication:
    """DRF's authentication of the API, outside a DRF view and outside the middleware (the streams are
    served past it, config.direct_asgi): the session and its user read as SessionMiddleware and
    AuthenticationMiddleware read them, lazily (a token needs neither)."""

    @staticmethod
    def authenticate(request: HttpRequest) -> Request:
        from django.contrib.auth import get_user
        from rest_framework.authentication import SessionAuthentication

        store = import_module(settings.SESSION_ENGINE).SessionStore
        request.session = store(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        request.user = SimpleLazyObject(lambda: get_user(request))
        drf = Request(request, authenticators=[HashedTokenAuthentication(), SessionAuthentication()])
        drf.user  # noqa: B018 - authenticates, or raises AuthenticationFailed
        return drf


def error(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JsonResponse:
    response = JsonResponse(error_body(code, message), status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def last_event_id(request: HttpRequest) -> int | JsonResponse | None:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("last_event_id")
    if raw in (None, ""):
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 18):
        return error("bad_last_event_id", "Last-Event-ID is the id of an event this stream sent: a whole number.", 400)
    return int(raw)


def authenticated_alone(request: HttpRequest) -> Request | JsonResponse:
    """DRF's authentication of one request (a session, none, or a token header it refuses)."""
    try:
        return StreamAuthentication.authenticate(request)
    except exceptions.AuthenticationFailed as exc:
        return error("authentication_failed", str(exc.detail), 401)
    except exceptions.PermissionDenied as exc:  # the session's CSRF check (DRF's, as for the API)
        return error("permission_denied", str(exc.detail), 403)


def opened_together(requests: list[HttpRequest]) -> list[tuple[Request, feeds.Credentials] | JsonResponse]:
    """Authenticate these requests and count them against the API's rate limits: the streams that open
    together (live.batches), in one thread hop, with one query for all their API tokens, one for their
    players' logs and one round trip to Redis for their limits."""
    keys = [token_key(request) for request in requests]
    wanted = list({key for key in keys if key is not None})
    tokens = tokens_of_keys(wanted) if wanted else {}
    results: list[Request | JsonResponse] = []
    for request, key in zip(requests, keys, strict=True):
        if key is None:
            results.append(authenticated_alone(request))
        elif key not in tokens:
            results.append(error("authentication_failed", REFUSED, 401))
        else:
            drf = Request(request)
            drf.user, drf.auth = tokens[key].user, tokens[key]
            results.append(drf)
    allowed = [drf for drf in results if isinstance(drf, Request)]
    waits = dict(zip(map(id, allowed), ApiRateThrottle.waits(allowed), strict=True))
    seqs = feeds.last_seqs([drf.user.pk for drf in allowed if drf.user.is_authenticated])
    answers: list[tuple[Request, feeds.Credentials] | JsonResponse] = []
    for drf in results:
        if not isinstance(drf, Request):
            answers.append(drf)
        elif (wait := waits[id(drf)]) is not None:
            message = f"Too many requests; try again in {wait} seconds."
            answers.append(error("throttled", message, 429, {"Retry-After": str(wait)}))
        else:
            answers.append((drf, feeds.credentials_of(drf, seqs.get(drf.user.pk, 0))))
    return answers


async def opened(request: HttpRequest) -> tuple[Request, feeds.Credentials] | JsonResponse:
    """opened_together's answer for this request, with the others that open at the same moment."""
    together = of_this_loop("opened", lambda: Batched(lambda requests: in_thread(opened_together, requests)))
    return await together(request)


def stream_response(body, media_type: str) -> DirectStream:
    response = DirectStream(body, content_type=media_type)
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def media_type_of(request: HttpRequest) -> str:
    return NDJSON if NDJSON in request.headers.get("Accept", "") else SSE


async def starting(request: HttpRequest, *, needs_account: bool) -> tuple | JsonResponse:
    """What both streams check before they start, in order: the resume id, the credentials and the
    rate limits, an account where one is needed, and a free lease (of the player, or without an
    account of the client's address)."""
    since = last_event_id(request)
    if isinstance(since, JsonResponse):
        return since
    result = await opened(request)
    if isinstance(result, JsonResponse):
        return result
    drf, credentials = result
    if needs_account and not drf.user.is_authenticated:
        return error("not_authenticated", "Log in, or send 'Authorization: Token <key>'.", 401)
    if credentials.user_id is not None:
        lease = await leases.take(leases.player(credentials.user_id))
        refusal = f"You have {leases.MAX_STREAMS} streams open, the most one player may."
    else:
        lease = await leases.take(leases.address(client_address(request)))
        refusal = (
            f"Your address has {leases.MAX_STREAMS} streams open without an account, the most one address may;"
            " close one, or log in to open more."
        )
    if lease is None:
        return error("too_many_streams", refusal, 429)
    return since, drf, credentials, lease


async def first_read(lease: leases.Lease, reading: Awaitable[T]) -> T:
    """The stream's first events; its lease given back when they cannot be read (the database away:
    config.direct_asgi answers 503)."""
    try:
        return await reading
    except BaseException:
        await lease.release()
        raise


@served_directly
async def game_events(request: HttpRequest, game_id: str) -> HttpResponseBase:
    """One game as this viewer may see it: a "game" event, then a "move" event per move."""
    started = await starting(request, needs_account=False)
    if isinstance(started, JsonResponse):
        return started
    since, drf, credentials, lease = started
    user = drf.user if drf.user.is_authenticated else None
    start = await first_read(lease, openings.open_game(game_id, user, since))
    if start is None:
        await lease.release()
        return error("not_found", "There is no such game, or you may not see it.", 404)
    view, first = start
    media_type = media_type_of(request)
    body = game_stream(view, first, credentials, Encoder(media_type))
    if user is not None:
        body = presence.watching(body, user.pk, view.game_pk)
    return stream_response(lease.holding(body), media_type)


@served_directly
async def user_events(request: HttpRequest) -> HttpResponseBase:
    """The signed-in player's events across all their games: notifications and game summaries."""
    started = await starting(request, needs_account=True)
    if isinstance(started, JsonResponse):
        return started
    since, drf, credentials, lease = started
    view, first = await first_read(lease, in_thread(feeds.open_user, drf.user, since))
    media_type = media_type_of(request)
    return stream_response(lease.holding(user_stream(view, first, credentials, Encoder(media_type))), media_type)
