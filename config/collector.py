"""The garbage collector of a server process: long-lived objects kept out of its full collections.

CPython's full collection walks every object the process holds, and stops the process meanwhile.
An open stream holds about a hundred (its connection, tasks, coroutines, listener, lease), so a
process with 5,000 streams holds some 650,000, and each full collection stopped it for 0.3-0.8 s:
during a reconnect storm, about once a second, delaying every event and every move of the process.

What lives as long as the process (the code, the settings, Django's registries) is frozen
(gc.freeze) once it has loaded; a stream's objects are frozen with the others of its process after
every TENURE_AFTER streams opened there. The collections then walk only what came since. Nothing
is lost by it: a frozen object is still freed when nothing refers to it any more, as an ended
stream's objects are (they form no cycles). A cycle that was alive at a freeze and became garbage
since (a game's reading held for a few seconds, a request) waits for the review: every
REVIEW_SECONDS (a process's first at a random moment, so that a machine's workers do not stop
together), at a calm moment (fewer than CALM_OPENINGS streams opened in the last WINDOW_SECONDS:
not during a storm), the frozen objects are handed back, collected in full and frozen again. That
is the one long stop left: 0.5-0.75 s an hour for a process with 5,000 streams. What a process
keeps for a while had better not be a reference cycle (live.openings lets its readings go).
"""

from __future__ import annotations

import gc
import logging
import random
import time
from collections import deque
from collections.abc import Callable

logger = logging.getLogger(__name__)

TENURE_AFTER = 500
REVIEW_SECONDS = 3600.0
WINDOW_SECONDS = 10.0
CALM_OPENINGS = 100


def freeze_loaded() -> None:
    """Once the process has loaded what it serves: none of it is collected again."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the views and what they import, loaded lazily otherwise
    gc.collect()
    gc.freeze()


class Tenure:
    def __init__(self, clock: Callable[[], float] = time.monotonic, first_review_after: float | None = None) -> None:
        self.clock = clock
        self.since_freeze = 0
        # Each process at its own moment of the hour: the workers of a machine start together, and
        # should not all stop together.
        if first_review_after is None:
            first_review_after = random.uniform(0.5, 1.5) * REVIEW_SECONDS
        self.review_at = clock() + first_review_after
        self.recent: deque[float] = deque()  # when the streams of the last WINDOW_SECONDS opened

    def opened(self) -> None:
        """A stream opened in this process: what it holds lives as long as it does."""
        self.recent.append(self.clock())
        self.since_freeze += 1
        if self.since_freeze >= TENURE_AFTER:
            self.since_freeze = 0
            gc.freeze()

    def review_if_due(self) -> None:
        """Called every second or so (live.hub): the review, when it is due and the moment is calm."""
        now = self.clock()
        while self.recent and self.recent[0] <= now - WINDOW_SECONDS:
            self.recent.popleft()
        if now >= self.review_at and len(self.recent) < CALM_OPENINGS:
            self.review(now)

    def review(self, now: float) -> None:
        """Collect what the freezes kept from the collector since the last review."""
        self.review_at, self.since_freeze = now + REVIEW_SECONDS, 0
        started = time.perf_counter()
        gc.unfreeze()
        collected = gc.collect()
        gc.freeze()
        took = (time.perf_counter() - started) * 1000
        kept = gc.get_freeze_count()
        logger.info("Reviewed the frozen objects: %s collected, %s kept, in %.0f ms.", collected, kept, took)


tenure = Tenure()
