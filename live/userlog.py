"""Writing players' stream events (live.models) in the transaction that causes them.

Each event takes the next number of its player's counter. The counters are locked in the order of
their players' ids, one statement for all of a transaction's events, so two transactions sharing
players never wait for each other in a circle. On PostgreSQL the events are CTEs that a
WriteBatch sends with the move's other rows (config.write_batch); elsewhere the ORM writes them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from config.write_batch import WriteBatch

from .models import EventKind, StreamCursor, StreamEvent
from .publish import announce_after_commit


@dataclass(frozen=True)
class UserEvent:
    user_id: int
    kind: str
    game_id: int | None = None
    notification_id: int | None = None
    # A notification written in the same WriteBatch, not yet numbered: its place in the batch's
    # outbox rows (notifications.outbox.add_to_batch), whose id the statement reads there.
    outbox_ordinal: int | None = None


def append(events: list[UserEvent], writes: WriteBatch | None = None, *, announce: bool = True) -> None:
    """Add `events` to their players' logs: with the rows of `writes`, or at once without it; their
    streams hear of it once the transaction commits (unless the caller, `announce` false, tells
    them itself)."""
    if not events:
        return
    now = timezone.now()
    batch = writes if writes is not None else WriteBatch()
    batch.add_items("live.userlog", events, partial(cte_parts, now=now), partial(record_with_orm, now=now))
    if writes is None:
        batch.flush()
    if announce:
        keys = {event.user_id for event in events if event.kind == EventKind.CREDENTIALS}
        announce_after_commit({event.user_id for event in events}, keys)


def cte_parts(events: list[UserEvent], now: datetime) -> list[tuple[str, str, list]]:
    """(name, SQL, parameters) of the CTEs that append `events` (PostgreSQL), for a WriteBatch."""
    columns = [
        [e.user_id for e in events],
        [e.kind for e in events],
        [e.game_id for e in events],
        [e.notification_id for e in events],
    ]
    new = (
        "SELECT * FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::bigint[]) WITH ORDINALITY"
        " AS e(user_id, kind, game_id, notification_id, ord)"
    )
    if any(e.outbox_ordinal is not None for e in events):
        # Notifications of the same batch: their ids from the outbox's CTE, which goes out first.
        columns.append([e.outbox_ordinal for e in events])
        new = (
            "SELECT e.user_id, e.kind, e.game_id, coalesce(e.notification_id, o.id) AS notification_id, e.ord"
            " FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::bigint[], %s::bigint[]) WITH ORDINALITY"
            " AS e(user_id, kind, game_id, notification_id, outbox_ord, ord)"
            " LEFT JOIN outbox_new o ON o.ord = e.outbox_ord"  # notifications.outbox.OUTBOX_CTE
        )
    return [
        ("stream_new", new, columns),
        ("stream_added", "SELECT user_id, count(*) AS added FROM stream_new GROUP BY user_id", []),
        (
            "stream_cursor",
            "INSERT INTO live_streamcursor (user_id, last_seq)"
            " SELECT user_id, added FROM stream_added ORDER BY user_id"
            " ON CONFLICT (user_id) DO UPDATE SET last_seq = live_streamcursor.last_seq + EXCLUDED.last_seq"
            " RETURNING user_id, last_seq",
            [],
        ),
        (
            "stream_rows",
            "INSERT INTO live_streamevent (user_id, seq, kind, game_id, notification_id, created_at)"
            " SELECT e.user_id, c.last_seq - a.added + row_number() OVER (PARTITION BY e.user_id ORDER BY e.ord),"
            " e.kind, e.game_id, e.notification_id, %s"
            " FROM stream_new e JOIN stream_added a USING (user_id) JOIN stream_cursor c USING (user_id)",
            [now],
        ),
    ]


def record_with_orm(events: list[UserEvent], now: datetime) -> None:
    """The same as cte_parts' statement on SQLite: the counters in one upsert, the rows in one insert.
    SQLite runs one write transaction at a time, so there is no lock order to keep, and no savepoint
    is needed: a failure here fails the transaction that caused the events."""
    added = Counter(e.user_id for e in events)
    users = sorted(added)
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:
        marks = ", ".join(["(%s, %s)"] * len(users))  # placeholders only
        upsert = (
            f"INSERT INTO live_streamcursor (user_id, last_seq) VALUES {marks}"  # noqa: S608
            " ON CONFLICT (user_id) DO UPDATE SET last_seq = live_streamcursor.last_seq + excluded.last_seq"
        )
        parameters = [value for user_id in users for value in (user_id, added[user_id])]
        if connection.features.can_return_columns_from_insert:
            cursor.execute(f"{upsert} RETURNING user_id, last_seq", parameters)
            last = dict(cursor.fetchall())
        else:  # SQLite before 3.35
            cursor.execute(upsert, parameters)
            last = dict(StreamCursor.objects.filter(user_id__in=users).values_list("user_id", "last_seq"))
        rows, taken = [], Counter()
        for event in events:
            taken[event.user_id] += 1
            seq = last[event.user_id] - added[event.user_id] + taken[event.user_id]
            rows.append(
                StreamEvent(
                    user_id=event.user_id, seq=seq, kind=event.kind, game_id=event.game_id,
                    notification_id=event.notification_id, created_at=now,
                )
            )  # fmt: skip
        StreamEvent.objects.bulk_create(rows)
