"""Celery tasks: thin wrappers around the services. Each is safe to run twice."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def sweep_tournament_starts() -> int:
    """Start (or cancel, with too few players) the tournaments whose starts_at has come."""
    return len(services.start_due_tournaments())


@shared_task(ignore_result=True)
def sweep_tournament_clocks() -> int:
    """Restart the clocks a vacation stopped, in tournaments whose rounds do not wait for it."""
    return services.resume_paused_clocks()
