"""Database work from the event loop: in a thread of the loop's shared pool, handing its connection
back when done, so that a waiting stream holds no connection (under ASGI the connections come from
psycopg's pool) and no thread.

The call runs in a copy of the caller's context, and what it sets there (Django's per-context cache
handles, say) stays there: a stream that lives for hours does not carry them (asgiref's
sync_to_async would copy them back into the stream's context)."""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import connections

T = TypeVar("T")


async def in_thread(function: Callable[..., T], *args: Any) -> T:
    def call() -> T:
        try:
            return function(*args)
        finally:
            connections.close_all()

    context = contextvars.copy_context()
    return await asyncio.get_running_loop().run_in_executor(None, context.run, call)
