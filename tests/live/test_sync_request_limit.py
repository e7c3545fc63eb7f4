"""config.concurrency: requests to synchronous views take turns; the streams (async views) never wait."""

from __future__ import annotations

import asyncio

from config.concurrency import SyncRequestLimit


class Inner:
    """The application behind the limit: counts the requests inside it at once, and holds each a while."""

    def __init__(self) -> None:
        self.inside = 0
        self.most = 0
        self.release = asyncio.Event()

    async def __call__(self, scope, receive, send) -> None:
        self.inside += 1
        self.most = max(self.most, self.inside)
        try:
            if scope["path"].endswith("/stream/"):
                await self.release.wait()  # a stream stays open
            else:
                await asyncio.sleep(0.01)
        finally:
            self.inside -= 1


def http(path: str) -> dict:
    return {"type": "http", "path": path, "root_path": ""}


def test_synchronous_requests_take_turns_and_streams_do_not_count():
    async def burst() -> Inner:
        inner = Inner()
        limited = SyncRequestLimit(inner, limit=3)
        streams = [asyncio.create_task(limited(http("/api/v1/stream/"), None, None)) for _ in range(5)]
        await asyncio.sleep(0.01)
        assert inner.inside == 5  # five streams open, none waiting for a turn
        inner.most = 0
        await asyncio.gather(*(limited(http("/api/v1/games/"), None, None) for _ in range(30)))
        polls_most = inner.most - 5
        inner.release.set()
        await asyncio.gather(*streams)
        return polls_most

    assert asyncio.run(burst()) == 3


def test_an_unknown_path_is_a_synchronous_request():
    limited = SyncRequestLimit(Inner(), limit=1)
    assert not limited.is_async(http("/no/such/page/"))
    assert not limited.is_async(http("/api/v1/games/"))
    assert limited.is_async(http("/api/v1/stream/"))
