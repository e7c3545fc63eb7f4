"""How a channel fails: for good, for now, or for want of anyone to send to."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

from .. import outbound

logger = logging.getLogger(__name__)


class DeliveryError(Exception):
    """The channel refused or failed; the delivery will be retried, unless `permanent` (it can
    never succeed, so it is marked failed at once)."""

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


class NoRecipient(Exception):
    """Nobody to send to on this channel (no device left): the delivery is skipped, not failed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@contextmanager
def wire_failures(message: str, subject: str) -> Iterator[None]:
    """The sender's failures as the delivery's: an address the policy refuses can never succeed (it
    fails at once), no answer is retried. The player reads `message` whatever happened on the wire
    (telling a refused connection from an HTTP error would make us a port scanner); operators' logs
    get the cause, under `subject`."""
    try:
        yield
    except outbound.AddressRefused as exc:
        logger.info("%s refused by the address policy: %s", subject, exc)
        raise DeliveryError(message, permanent=True) from exc
    except outbound.SendFailed as exc:
        logger.info("%s got no answer: %s", subject, exc)
        raise DeliveryError(message) from exc
