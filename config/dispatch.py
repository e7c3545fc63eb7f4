"""Queueing background work after the transaction that caused it commits.

Tasks are named, not imported: the services that queue work stay below the tasks that call them,
so no module imports its own caller.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from typing import TypeVar

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)
T = TypeVar("T")

# After a failed send, this process stops trying for a while: during a broker outage each move
# would otherwise wait for a connection timeout, and the sweeps redo the work anyway.
BROKER_RETRY_AFTER = 10.0
_broker_down_until = 0.0


def enqueue_after_commit(task_name: str, *args) -> None:
    """Send the task named `task_name` once the current transaction commits.

    A broker outage must not cost the player a move: the move is already committed, and the
    periodic sweeps redo whatever this message would have started.
    """
    transaction.on_commit(lambda: send_now(task_name, *args))


def send_now(task_name: str, *args) -> bool:
    global _broker_down_until
    if time.monotonic() < _broker_down_until:
        logger.info("Broker recently unreachable; leaving %s%r to the sweep.", task_name, args)
        return False
    try:
        current_app.send_task(task_name, args=args, retry=False)
    except Exception:
        _broker_down_until = time.monotonic() + BROKER_RETRY_AFTER
        logger.warning("Could not queue %s%r; the sweep will pick it up.", task_name, args, exc_info=True)
        return False
    return True


def batches(items: Sequence[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of at most `size`: a message costs about as much as the work it carries,
    so what a sweep finds goes out in batches, not a message apiece."""
    for start in range(0, len(items), size):
        yield list(items[start : start + size])
