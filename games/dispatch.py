"""Queueing background work after the transaction that caused it commits."""

from __future__ import annotations

import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def enqueue_after_commit(task, *args) -> None:
    """Send `task` once the current transaction commits.

    A broker outage must not cost the player a move: the move is already committed, and the
    periodic sweeps redo whatever this message would have started.
    """

    def send() -> None:
        try:
            task.apply_async(args=args, retry=False)
        except Exception:
            logger.warning("Could not queue %s%r; the sweep will pick it up.", task.name, args, exc_info=True)

    transaction.on_commit(send)
