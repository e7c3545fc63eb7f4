"""A task for the worker of the embedded broker's test alone (`celery worker --include
tests.tasks.probe`): it notes each message it runs in a file, and a message with hops left queues the
next one, so that the worker writes to the broker while it reads."""

from __future__ import annotations

from celery import shared_task

from config.dispatch import send_now

NOTE = "tests.probe.note"


@shared_task(name=NOTE)
def note(path: str, writer: int, number: int, hops: int) -> None:
    with open(path, "a") as notes:
        notes.write(f"{writer} {number} {hops}\n")
    if hops and not send_now(NOTE, path, writer, number, hops - 1):
        raise RuntimeError("the worker could not queue a message")
