"""One error shape for the whole API: {"code", "message", "details"}."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

MESSAGES = {
    "not_authenticated": "Log in, or send 'Authorization: Token <key>'.",
    "authentication_failed": "Those credentials are not valid.",
    "permission_denied": "You may not do that.",
    "not_found": "There is nothing here, or you may not see it.",
    "method_not_allowed": "This address does not take that method.",
    "throttled": "Too many requests; wait before trying again.",
    "unsupported_media_type": "Send JSON (Content-Type: application/json).",
    "parse_error": "The body is not valid JSON.",
}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details or {}}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        details = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        code = getattr(exc, "error_code", "invalid")
        first = _first_message(details)
        response.data = error_body(code, first or "The request is not valid.", details)
        return response
    code = getattr(exc, "error_code", None) or _code_of(exc)
    message = str(getattr(exc, "detail", "")) or MESSAGES.get(code, "The request failed.")
    if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
        message = f"Too many requests; try again in {int(exc.wait) + 1} seconds."
    response.data = error_body(code, message, getattr(exc, "error_details", None))
    return response


def _code_of(exc: exceptions.APIException) -> str:
    detail = getattr(exc, "detail", None)
    code = getattr(detail, "code", None)
    return code if isinstance(code, str) else exc.default_code


def _first_message(details: Any) -> str:
    if isinstance(details, dict):
        for field, value in details.items():
            text = _first_message(value)
            if text:
                return text if field == "non_field_errors" else f"{field}: {text}"
    elif isinstance(details, list):
        for value in details:
            text = _first_message(value)
            if text:
                return text
    elif details:
        return str(details)
    return ""


class ApiError(exceptions.APIException):
    """An API error with our own code, message and optional details."""

    def __init__(self, code: str, message: str, status_code: int = status.HTTP_400_BAD_REQUEST, details=None):
        super().__init__(message, code)
        self.status_code = status_code
        self.error_code = code
        self.error_details = details


def json_not_found(request, exception=None) -> JsonResponse:
    return JsonResponse(error_body("not_found", MESSAGES["not_found"]), status=404)


def json_server_error(request) -> JsonResponse:
    return JsonResponse(error_body("server_error", "Something went wrong on our side."), status=500)
