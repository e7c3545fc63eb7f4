"""Database work from the event loop: in a thread, handing its connection back when done, so that a
waiting stream holds no connection (under ASGI the connections come from psycopg's pool)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import connections

T = TypeVar("T")


async def in_thread(function: Callable[..., T], *args: Any) -> T:
    def call() -> T:
        try:
            return function(*args)
        finally:
            connections.close_all()

    return await sync_to_async(call, thread_sensitive=False)()
