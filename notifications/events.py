"""What the outbox announces (config.events): notices written or read, for the players' streams
(live), which notifications never imports."""

from __future__ import annotations

from dataclasses import dataclass

from config.write_batch import WriteBatch

from .models import Notification


@dataclass(frozen=True, kw_only=True)
class NoticesWritten:
    """Notices listed on the site were written (their pks set). Their readers' logs hear of them with
    the rows of `writes` (at once without it); `announce` false: the caller nudges those readers'
    streams anyway."""

    notifications: list[Notification]
    writes: WriteBatch | None
    announce: bool


@dataclass(frozen=True, kw_only=True)
class NoticesRead:
    """Unread notices of `user_ids` were marked read: the badge on each of their pages follows."""

    user_ids: list[int]
    writes: WriteBatch | None = None
