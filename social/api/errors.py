"""This room's refusals in the API's error shape."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions

from accounts.api.serializers import ErrorSerializer
from config.api_errors import ApiError

from ..errors import Conflict, Forbidden, GameError, Invalid, NotFound, RateLimited

STATUS_OF = {Invalid: 400, Forbidden: 403, NotFound: 404, Conflict: 409}


@contextmanager
def refusals() -> Iterator[None]:
    try:
        yield
    except RateLimited as exc:
        raise exceptions.Throttled(wait=exc.retry_after) from exc
    except GameError as exc:
        status_code = next(code for cls, code in STATUS_OF.items() if isinstance(exc, cls))
        raise ApiError(exc.code, exc.message, status_code, exc.details) from exc


def error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


BAD_REQUEST = error("The body or a parameter is not valid")
NOT_SEATED = error("Not seated at this table (code not_seated), or free text refused (code chat_off)")
NOT_FOUND = error("No such game or message, or one you may not see")
TOO_MANY = error("Too many at once; Retry-After says how many seconds to wait")
