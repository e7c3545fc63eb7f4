"""A bound on the synchronous requests one ASGI process runs at once.

Under ASGI, Django runs each request to a synchronous view in a thread of its own, and the request
borrows a database connection from psycopg's pool for its whole length. Unbounded, a burst of 300
polls starts 300 threads that fight for the interpreter and for 20 connections, and those that wait
past the pool's timeout fail with a 500. Bounded, the burst waits its turn in the event loop, which
costs next to nothing, and the event streams' own short reads keep connections to spare. The
streams themselves (async views, open for hours) are not counted.
"""

from __future__ import annotations

import asyncio

from django.urls import Resolver404, resolve


class SyncRequestLimit:
    def __init__(self, app, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.turns: asyncio.Semaphore | None = None  # made in the server's event loop
        self.async_paths: dict[str, bool] = {}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or self.is_async(scope):
            await self.app(scope, receive, send)
            return
        if self.turns is None:
            self.turns = asyncio.Semaphore(self.limit)
        async with self.turns:
            await self.app(scope, receive, send)

    def is_async(self, scope) -> bool:
        path = scope["path"].removeprefix(scope.get("root_path", ""))
        found = self.async_paths.get(path)
        if found is None:
            try:
                found = asyncio.iscoroutinefunction(resolve(path).func)
            except Resolver404:
                found = False
            if len(self.async_paths) < 10_000:  # paths name games: keep a bounded few
                self.async_paths[path] = found
        return found
