"""Every error under /api/ answers in the API's error shape, in every mode.

DRF shapes the errors its views raise (config.api_errors). What Django answers on its own does
not pass through DRF: an unknown address, a NUL in a path, a body too large to read, an uncaught
exception. With DEBUG those are Django's technical HTML pages (which also list the URL patterns
and the settings); without it, the handlers in config.errors. This middleware swaps any such
page under /api/ for the error shape, after Django has logged the error as it always does.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.core.signals import got_request_exception
from django.http import HttpRequest, HttpResponse
from django.middleware import common
from rest_framework.response import Response

from .api_errors import json_bad_request, json_for_status
from .outage import HideOutageTracebacks, database_unavailable, gate, outage_log, outage_response

API_PREFIX = "/api/"
ADMIN_PREFIX = "/admin/"


def is_api_request(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


class ApiErrorShapeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code < 400 or not is_api_request(request) or self.is_shaped(response):
            return response
        return self.reshaped(request, response)

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        # Only noted: Django goes on to log the exception and answer it; __call__ then says what
        # it was (the page Django makes for a SuspiciousOperation with DEBUG does not).
        if is_api_request(request):
            request.api_exception = exception

    @staticmethod
    def is_shaped(response: HttpResponse) -> bool:
        # DRF's own responses went through config.api_errors; JSON ones are our handlers'.
        return isinstance(response, Response) or response.get("Content-Type", "").startswith("application/json")

    @staticmethod
    def reshaped(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if response.status_code == 400:
            shaped = json_bad_request(request, getattr(request, "api_exception", None))
        else:
            shaped = json_for_status(response.status_code)
        # The body swapped in place: what the inner layers set (Allow, Vary, cookies, the mark
        # that Django has logged this response) stays as it was.
        if response.streaming:
            response.streaming_content = [shaped.content]
        else:
            response.content = shaped.content
        response["Content-Type"] = shaped["Content-Type"]
        if response.has_header("Content-Length"):
            response["Content-Length"] = str(len(shaped.content))
        return response


class CommonMiddleware(common.CommonMiddleware):
    """Django's, without the trailing-slash redirect under /api/: a client that forgets the slash
    gets a 404 in the error shape, not a redirect that drops its POST body (or, with DEBUG, a 500).
    And a NUL in a query parameter of the admin's pages is a 400: PostgreSQL refuses NUL in text, and
    the admin's list filters pass theirs to it unchecked (a 500). The site's own pages and the API
    check each parameter where they read it (tests/frontend and tests/api, test_query_parameters)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if request.path_info.startswith(ADMIN_PREFIX) and any(
            "\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()
        ):
            raise BadRequest("A query parameter holds a NUL character.")
        return super().process_request(request)

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return not is_api_request(request) and super().should_redirect_with_slash(request)


class DatabaseOutageMiddleware:
    """While the database cannot be reached, every request answers 503 with Retry-After
    (config.outage), never 500: at once while this process's gate is closed; else once it fails.
    A view's failure comes to process_exception; a failure in a middleware (the session, the user,
    the time zone) Django has already turned into a 500 by the time it comes back here, so
    got_request_exception marks its request and __call__ swaps the answer. Install it outside
    SessionMiddleware, whose saving of the session can fail too. /healthz looks for itself."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        request_log = logging.getLogger("django.request")
        if not any(isinstance(f, HideOutageTracebacks) for f in request_log.filters):
            request_log.addFilter(HideOutageTracebacks())

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not gate.open and request.path_info != HEALTH_PATH:
            outage_log.count(f"{request.method} {request.path}")
            return outage_response(request, is_api_request(request))
        response = self.get_response(request)
        if response.status_code >= 500 and getattr(request, "database_unavailable", False):
            return outage_response(request, is_api_request(request))
        data = getattr(response, "data", None)
        if response.status_code == 503 and isinstance(data, dict) and data.get("code") == "busy":
            gate.failed()  # the API waited too long for a connection (config.api_errors): busy, or away?
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not database_unavailable(exception):
            return None
        gate.failed(exception)
        outage_log.note(exception, f"{request.method} {request.path}")
        return outage_response(request, is_api_request(request))


HEALTH_PATH = "/healthz"


def note_database_unavailable(sender, request: HttpRequest | None = None, **kwargs) -> None:
    exception = sys.exc_info()[1]
    if request is not None and database_unavailable(exception):
        request.database_unavailable = True
        gate.failed(exception)
        outage_log.note(exception, f"{request.method} {request.path}")


got_request_exception.connect(note_database_unavailable, dispatch_uid="config.middleware.database_unavailable")
