"""One error shape for the whole API: {"code", "message", "details"}."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

MESSAGES = {
    "not_authenticated": "Log in, or send 'Authorization: Token <key>'.",
    "authentication_failed": "Those credentials are not valid.",
    "permission_denied": "You may not do that.",
    "not_found": "There is nothing here, or you may not see it.",
    "method_not_allowed": "This address does not take that method.",
    "throttled": "Too many requests; wait before trying again.",
    "unsupported_media_type": "Send JSON (Content-Type: application/json).",
    "parse_error": "The body is not valid JSON.",
    "bad_request": "The request is not valid.",
    "server_error": "Something went wrong on our side.",
    "busy": "The server is busy; try again in a few seconds.",
}
BUSY_RETRY_AFTER_SECONDS = 5


class Busy(exceptions.APIException):
    """Every database connection stayed lent out for the pool's whole timeout: a burst to wait out."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = MESSAGES["busy"]
    default_code = "busy"


def waited_for_a_connection(exc: BaseException | None) -> bool:
    """Whether `exc` (as Django wraps it) is psycopg's pool giving up waiting for a connection."""
    from psycopg_pool import PoolTimeout

    while exc is not None:
        if isinstance(exc, PoolTimeout):
            return True
        exc = exc.__cause__
    return False


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details or {}}


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif waited_for_a_connection(exc):
        exc = Busy()
    # Imported here: rest_framework.views loads the API settings' classes as it is imported, and
    # some of them (config.parsers) need this module.
    from rest_framework.views import exception_handler

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
        # DRF has rounded wait up already and sends it as Retry-After: say the same number.
        message = f"Too many requests; try again in {math.ceil(exc.wait)} seconds."
    response.data = error_body(code, message, getattr(exc, "error_details", None))
    if isinstance(exc, Busy):
        response["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
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


class BodyTooLarge(ApiError):
    """A request body over DATA_UPLOAD_MAX_MEMORY_SIZE: a 400, as Django answers it, saying the limit."""

    def __init__(self, limit: int):
        message = f"The body is too large: this API takes at most {limit} bytes."
        super().__init__("body_too_large", message, status.HTTP_400_BAD_REQUEST, {"max_bytes": limit})


def json_error(code: str, status_code: int, message: str | None = None, details: Any = None) -> JsonResponse:
    return JsonResponse(error_body(code, message or MESSAGES[code], details), status=status_code)


def json_for_api_error(exc: ApiError) -> JsonResponse:
    return json_error(exc.error_code, exc.status_code, str(exc.detail), exc.error_details)


def json_bad_request(request, exception: Exception | None = None) -> JsonResponse:
    """Django's 400s (a SuspiciousOperation such as RequestDataTooBig, a BadRequest) in the error shape."""
    if isinstance(exception, RequestDataTooBig):
        return json_for_api_error(BodyTooLarge(settings.DATA_UPLOAD_MAX_MEMORY_SIZE))
    return json_error("bad_request", 400)


def json_permission_denied(request, exception: Exception | None = None) -> JsonResponse:
    return json_error("permission_denied", 403)


def json_not_found(request, exception=None) -> JsonResponse:
    return json_error("not_found", 404)


def json_server_error(request) -> JsonResponse:
    return json_error("server_error", 500)


# The error shape for a status Django answered on its own, with an HTML page (its technical pages
# when DEBUG, a view's plain HttpResponseNotAllowed, ...).
CODE_OF_STATUS = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    415: "unsupported_media_type",
    429: "throttled",
}


def json_for_status(status_code: int) -> JsonResponse:
    if status_code >= 500:
        return json_error("server_error", status_code)
    code = CODE_OF_STATUS.get(status_code, "bad_request")
    return json_error(code, status_code)
