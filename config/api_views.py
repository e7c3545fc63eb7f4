"""What every room's API views share: a service's refusal as the error shape, the page parameter, the
shape of a page."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers

from .api_errors import ApiError
from .service_errors import Conflict, Forbidden, GameError, Invalid, NotFound

STATUS_OF = {Invalid: 400, Forbidden: 403, NotFound: 404, Conflict: 409}

# What DRF's paginators read, documented so that a generated client can send it.
PAGE_PARAMETER = OpenApiParameter("page", OpenApiTypes.INT, description="Page number, from 1.")


@contextmanager
def service_errors() -> Iterator[None]:
    """Turn a service's refusal into the API's error shape and status."""
    try:
        yield
    except GameError as exc:
        status_code = next(code for cls, code in STATUS_OF.items() if isinstance(exc, cls))
        raise ApiError(exc.code, exc.message, status_code, exc.details) from exc


def paginated(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """The page shape DRF's PageNumberPagination returns, around `item`."""
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)
