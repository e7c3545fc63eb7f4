"""Schema post-processing: every operation documents the API's one error shape."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "code": {"type": "string", "description": "Stable, machine-readable, e.g. stale_version."},
        "message": {"type": "string", "description": "What went wrong, for people."},
        "details": {"type": "object", "additionalProperties": True, "description": "Per-field messages."},
    },
    "required": ["code", "message", "details"],
}
ERROR_DESCRIPTIONS = {
    "400": "Malformed request or illegal action",
    "401": "Not authenticated",
    "403": "Not allowed (not seated, not your turn, not the creator)",
    "404": "No such object, or one you may not see (or no such page)",
    "409": "Conflict (stale version, game not open or not running)",
    "415": "The body is not JSON",
    "429": "Rate limit exceeded; see Retry-After",
    "503": "The database cannot be reached for a moment (database_unavailable) or is busy (busy); see Retry-After",
}


def add_error_responses(result: dict[str, Any], generator, request, public) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    ref = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, operations in result.get("paths", {}).items():
        has_object = "{" in path
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            # A page past the last one is a 404 (DRF's pagination), with or without an object.
            paged = any(p.get("in") == "query" and p.get("name") == "page" for p in operation.get("parameters", []))
            for status, description in ERROR_DESCRIPTIONS.items():
                if status == "404" and not (has_object or paged):
                    continue
                if status == "409" and not has_object:
                    continue
                if status == "415" and "requestBody" not in operation:
                    continue
                responses.setdefault(status, {"description": description, "content": ref})
    return result
