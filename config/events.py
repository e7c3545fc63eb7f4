"""The domain-event bus: a room announces what changed in it, and the rooms above it listen.

An event is a small frozen dataclass naming the change; rooms define their own (games.events,
accounts.events). Subscribers are registered in their room's AppConfig.ready() and are called at
once, in the order they were registered (the order of INSTALLED_APPS), inside the publisher's
transaction: what they write commits or rolls back with the change. A subscriber whose work must
wait for the commit queues it itself (transaction.on_commit, config.dispatch.enqueue_after_commit).
A subscriber for a class hears its subclasses too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Event = TypeVar("Event")

_subscribers: dict[type, list[Callable[[Any], None]]] = {}


def subscribe(event_type: type[Event], handler: Callable[[Event], None]) -> None:
    """Call `handler` with every published event of `event_type` (or a subclass); once however often
    it is registered (ready() may run more than once in tests)."""
    handlers = _subscribers.setdefault(event_type, [])
    if handler not in handlers:
        handlers.append(handler)


def publish(event: object) -> None:
    """Hand `event` to its subscribers, those of its class first, then those of each base class."""
    for event_type in type(event).__mro__:
        for handler in _subscribers.get(event_type, ()):
            handler(event)


def subscribers(event_type: type) -> list[Callable[[Any], None]]:
    """The handlers registered for exactly `event_type`, in calling order."""
    return list(_subscribers.get(event_type, ()))
