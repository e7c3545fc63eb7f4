"""The API's rate limits: per client address for anonymous requests, per user and per API token for
the rest (one runaway client cannot starve its owner's others), in DRF's notation ("600/minute")
under the scopes "anon", "user" and "token" of REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"].

Each limit is a sliding window estimated from two fixed windows (the current one's count, plus the
previous one's weighted by how much of it the sliding window still covers), so a request costs one
counter increment per scope instead of DRF's read and rewrite of a list of timestamps. On Redis
every scope of a request is counted in one round trip. Refused requests count too: a client that
keeps knocking waits longer. While the cache is away, nothing is limited.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from config.cache import OUTAGE
from config.client_address import client_address

from .models import ApiToken


def parse_rate(rate: str | None) -> tuple[int, int] | None:
    """ "600/minute" -> (600, 60), as DRF reads it."""
    if rate is None:
        return None
    return SimpleRateThrottle.parse_rate(None, rate)


def window_wait(previous: int, current: int, limit: int, elapsed: float, window: int) -> float:
    """Seconds until one more request fits under `limit`: the previous window's share fades during
    the current one, and the current window's count (this refused request included) during the next."""
    room = limit - 1  # what a new request may find counted before it
    if current <= room and previous:
        # Within this window, once previous * (1 - t / window) + current <= room.
        return max(0.0, window * (1 - (room - current) / previous) - elapsed)
    # In the next window, once current * (1 - t / window) <= room.
    return window - elapsed + window * max(0.0, 1 - room / current)


class ApiRateThrottle(BaseThrottle):
    def allow_request(self, request, view) -> bool:
        self._wait = self.waits([request])[0]
        return self._wait is None

    @classmethod
    def waits(cls, requests: list) -> list[int | None]:
        """Count each request against its limits, all of them in one round trip (the streams that
        open together count so): for each, None when it is allowed, else the seconds to wait."""
        limits = [
            [
                (f"throttle:{scope}:{ident}", rate)
                for scope, ident in cls.counted(request)
                if (rate := parse_rate(SimpleRateThrottle.THROTTLE_RATES.get(scope))) is not None
            ]
            for request in requests
        ]
        keys = [(key, window) for request_limits in limits for key, (_limit, window) in request_limits]
        if not keys:
            return [None] * len(requests)
        now = time.time()
        try:
            counts = iter(count_requests(keys, now))
        except OUTAGE:
            return [None] * len(requests)
        answers: list[int | None] = []
        for request_limits in limits:
            waits = []
            for _key, (limit, window) in request_limits:
                previous, current = next(counts)
                elapsed = now % window
                if previous * (1 - elapsed / window) + current > limit:
                    waits.append(window_wait(previous, current, limit, elapsed, window))
            answers.append(max(1, math.ceil(max(waits))) if waits else None)
        return answers

    def wait(self) -> float | None:
        return self._wait

    @staticmethod
    def counted(request) -> list[tuple[str, object]]:
        """The (scope, identity) pairs this request counts against."""
        if not (request.user and request.user.is_authenticated):
            return [("anon", client_address(request))]
        pairs: list[tuple[str, object]] = [("user", request.user.pk)]
        if isinstance(request.auth, ApiToken):
            pairs.append(("token", request.auth.pk))
        return pairs


def count_requests(keys: list[tuple[str, int]], now: float) -> list[tuple[int, int]]:
    """Count one request against each (key, window): the (previous, current) window counts after it."""
    slots = [(f"{key}:{int(now // window)}", f"{key}:{int(now // window) - 1}", window) for key, window in keys]
    if hasattr(cache, "pipeline"):  # Redis: every scope in one round trip
        pipe = cache.pipeline()
        for current, previous, window in slots:
            current = cache.make_and_validate_key(current)
            pipe.incr(current)
            pipe.expire(current, 2 * window)
            pipe.get(cache.make_and_validate_key(previous))
        replies = pipe.execute()
        return [(int(replies[3 * i + 2] or 0), replies[3 * i]) for i in range(len(slots))]
    counts = []
    for current, previous, window in slots:
        cache.add(current, 0, 2 * window)
        try:
            number = cache.incr(current)
        except ValueError:  # expired between add and incr
            cache.set(current, 1, 2 * window)
            number = 1
        counts.append((int(cache.get(previous) or 0), number))
    return counts
