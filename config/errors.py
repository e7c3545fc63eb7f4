"""Error pages: JSON under /api/, HTML elsewhere."""

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from .api_errors import json_not_found, json_server_error


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_server_error(request)
    return defaults.server_error(request)
