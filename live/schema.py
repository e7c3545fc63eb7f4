"""The two event streams in the OpenAPI schema.

They are plain async Django views (DRF's views are synchronous), so drf-spectacular does not see
them: this post-processing hook describes them, with one schema per event's data.
"""

from __future__ import annotations

import copy
from typing import Any

STREAM_PATHS = ("/api/v1/games/{game_id}/stream/", "/api/v1/stream/")

FORMATS = """
Server-sent events by default (`text/event-stream`: `id:`, `event:` and `data:` holding one JSON
object, and a `: keep-alive` comment at least every 15 s). With `Accept: application/x-ndjson`,
one JSON line per event, `{"id", "event", "data"}`, and an empty line as the keep-alive. Resume
with the `Last-Event-ID` header (or `?last_event_id=`): every event after that id, in order, then
live ones. Token or session authentication; a player holds at most 20 streams at once, and so does a
client address without an account.
"""

GAME_STREAM = (
    "One game as you may see it. The first event is `game` (the body of GET /api/v1/games/{id}/);"
    " then a `move` event per move, whose id is the game's revision after it; seat changes, the"
    " start and moved deadlines send `game` again. On a resume the `detail` may be left out of all"
    " but the last `move`; if something besides moves changed, a `game` event follows them. A resume"
    " from more than 200 revisions back gets one fresh `game` event instead of the moves."
)
USER_STREAM = (
    "Your events across all your games: `notification` (an item of /api/v1/notifications/),"
    " `notifications_read` (the unread counts, whenever notices are read or written), and"
    " `game_summary` whenever one of your games changes. Ids are your own numbers, increasing in"
    " commit order (one a stream does not"
    " show is skipped: a resume loses nothing); the log keeps at least 24 hours,"
    " and a resume from further back gets one `reset` event, after which the client reloads."
)

SCHEMAS: dict[str, dict[str, Any]] = {
    "MoveEvent": {
        "type": "object",
        "description": "The data of a `move` event.",
        "properties": {
            "type": {"type": "string", "enum": ["move"]},
            "game": {"type": "string"},
            "version": {"type": "integer", "description": "The game's version after the move."},
            "move": {"$ref": "#/components/schemas/Move"},
            "detail": {
                "allOf": [{"$ref": "#/components/schemas/GameDetail"}],
                "description": "The game after the move; on a resume, only with the last move.",
            },
        },
        "required": ["type", "game", "version", "move"],
    },
    "GameSummaryEvent": {
        "type": "object",
        "description": "The data of a `game_summary` event.",
        "properties": {
            "type": {"type": "string", "enum": ["game"]},
            "game": {"type": "string"},
            "version": {"type": "integer"},
            "status": {},  # the game summary's own, whatever drf-spectacular named its enum
            "is_your_turn": {"type": "boolean"},
            "deadline": {"type": "string", "format": "date-time", "nullable": True},
        },
        "required": ["type", "game", "version", "status", "is_your_turn", "deadline"],
    },
    "NotificationsReadEvent": {
        "type": "object",
        "description": "The data of a `notifications_read` event: the unread counts after notices were read or"
        " written.",
        "properties": {
            "type": {"type": "string", "enum": ["notifications_read"]},
            "unread_count": {"type": "integer", "description": "Unread notices."},
            "unread_games": {
                "type": "integer",
                "description": "Games with unread notices (a notice about no game counts as one): the badge.",
            },
        },
        "required": ["type", "unread_count", "unread_games"],
    },
    "ResetEvent": {
        "type": "object",
        "description": "The data of a `reset` event: reload, then follow from `last_event_id`.",
        "properties": {"type": {"type": "string", "enum": ["reset"]}, "last_event_id": {"type": "integer"}},
        "required": ["type", "last_event_id"],
    },
}


def ndjson_line(events: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "event": {"type": "string", "enum": list(events)},
            "data": {"oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in dict.fromkeys(events.values())]},
        },
        "required": ["id", "event", "data"],
    }


def operation(operation_id: str, description: str, events: dict[str, str], game: bool) -> dict[str, Any]:
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    sse_example = (
        'id: 12\nevent: move\ndata: {"type": "move", "game": "Ab3dE5gH7jK9", "version": 11, ...}\n\n: keep-alive\n\n'
    )
    parameters: list[dict[str, Any]] = [
        {
            "in": "header",
            "name": "Last-Event-ID",
            "schema": {"type": "integer", "minimum": 0},
            "description": "The id of the last event received: the stream resumes after it.",
        },
        {
            "in": "query",
            "name": "last_event_id",
            "schema": {"type": "integer", "minimum": 0},
            "description": "The same as Last-Event-ID, for clients that cannot set headers.",
        },
    ]
    if game:
        parameters.append(
            {
                "in": "path",
                "name": "game_id",
                "required": True,
                "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,16}$"},
            }
        )
    responses: dict[str, Any] = {
        "200": {
            "description": "The stream: it stays open. Events: "
            + ", ".join(f"`{event}` ({schema})" for event, schema in events.items())
            + ".",
            "content": {
                "text/event-stream": {"schema": {"type": "string"}, "example": sse_example},
                "application/x-ndjson": {"schema": ndjson_line(events)},
            },
        },
        "400": {"description": "Last-Event-ID is not an event id", "content": error},
        "401": {"description": "Not authenticated (or a bad token)", "content": error},
        "429": {
            "description": "Rate limit exceeded, or 20 streams open (a player's, or an address's without an account)",
            "content": error,
        },
    }
    responses["503"] = {
        "description": "The database cannot be reached for a moment; see Retry-After (an open stream stays open)",
        "content": error,
    }
    if game:
        responses["404"] = {"description": "No such game, or one you may not see", "content": error}
    security = [{"tokenAuth": []}, {"cookieAuth": []}] + ([{}] if game else [])
    return {
        "operationId": operation_id,
        "description": description + "\n" + FORMATS,
        "tags": ["v1"],
        "parameters": parameters,
        "security": security,
        "responses": responses,
    }


def add_streams(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(copy.deepcopy(SCHEMAS))
    schemas["GameSummaryEvent"]["properties"]["status"] = copy.deepcopy(schemas["GameSummary"]["properties"]["status"])
    paths = result.setdefault("paths", {})
    game_events = {"game": "GameDetail", "move": "MoveEvent"}
    user_events = {
        "notification": "Notification",
        "notifications_read": "NotificationsReadEvent",
        "game_summary": "GameSummaryEvent",
        "reset": "ResetEvent",
    }
    paths[STREAM_PATHS[0]] = {"get": operation("v1_games_stream", GAME_STREAM, game_events, game=True)}
    paths[STREAM_PATHS[1]] = {"get": operation("v1_stream", USER_STREAM, user_events, game=False)}
    return result
