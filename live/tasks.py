from celery import shared_task

from . import feeds


@shared_task(ignore_result=True)
def prune_stream_logs() -> int:
    """Drop the players' stream log rows older than the log keeps (a resume from then gets a reset)."""
    return feeds.prune_logs()
