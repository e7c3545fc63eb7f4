"""Error pages: JSON under /api/, HTML elsewhere."""

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from .api_errors import json_bad_request, json_not_found, json_permission_denied, json_server_error
from .middleware import is_api_request


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return json_bad_request(request, exception)
    return defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return json_permission_denied(request, exception)
    return defaults.permission_denied(request, exception)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if is_api_request(request):
        return json_not_found(request)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if is_api_request(request):
        return json_server_error(request)
    return defaults.server_error(request)
