"""2-second polling, measured: clients that GET their game as fast as the server answers."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass, field

from bench.streams.http import KeepAlive

POLL_RAMP = 5.0  # seconds of each polling phase left out of the count: every poller's first answer


@dataclass
class Polling:
    conditional: bool
    pollers: int
    seconds: float
    answers: Counter
    latencies: list[float]
    usage: dict[str, float] = field(default_factory=dict)

    @property
    def rate(self) -> float:
        return sum(n for status, n in self.answers.items() if status in (200, 304)) / self.seconds

    @property
    def tables(self) -> float:
        return self.rate * 2  # each open table asks once every 2 s


async def poll(port: int, viewers: list[tuple[str, str]], seconds: float, conditional: bool) -> Polling:
    """Each viewer GETs its game as fast as the server answers; the answers that arrive in the `seconds`
    after POLL_RAMP are counted."""
    answers: Counter[int] = Counter()
    latencies: list[float] = []
    begin = time.monotonic()
    counted_from, stop = begin + POLL_RAMP, begin + POLL_RAMP + seconds

    async def poller(game_id: str, token: str) -> None:
        connection, etag = KeepAlive(port), None
        while (sent := time.monotonic()) < stop:
            headers = {"If-None-Match": etag} if conditional and etag else {}
            try:
                answer = await connection.get(f"/api/v1/games/{game_id}/", token, headers)
                status = answer.status
                etag = answer.headers.get("etag", etag)
            except (OSError, asyncio.IncompleteReadError):
                status = 0
            if counted_from <= (arrived := time.monotonic()) <= stop:
                answers[status] += 1
                latencies.append(arrived - sent)
        connection.close()

    await asyncio.gather(*(poller(game_id, token) for game_id, token in viewers))
    return Polling(conditional, len(viewers), seconds, answers, latencies)
