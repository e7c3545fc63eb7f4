"""The outbox: notifications are written with the change that causes them and delivered after.

In-app notifications are the rows themselves. Email, webhook and push deliveries are rows too,
sent by a worker that claims each one with a conditional update (notifications.delivery). Webhooks
and pushes are queued for a worker as soon as the transaction commits; emails are left to the
delivery sweep (every few seconds), which sends them in batches and saves the move that caused
them a broker round trip: email is not instant anyway. The same sweep re-sends what a lost
message or a dead worker left pending, so an outage delays a notification but never drops it.

Nothing here can fail a move for a notification reason: a player's stored choice is cleaned
before it reaches the writer (PlayerPreference.channels_for).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import reduce
from operator import or_
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.preferences import preference_for
from config.dispatch import batches, enqueue_after_commit
from config.events import publish
from config.write_batch import WriteBatch

from .events import NoticesRead, NoticesWritten
from .models import Channel, Delivery, DeliveryStatus, Notification, NotificationKind, PlayerPreference

# Deliveries per delivery task. Small: each may wait seconds for a slow receiver, and the ones
# behind it in the batch wait too.
DELIVERY_BATCH = 10
# Sent by a worker as soon as the change commits; email waits for the delivery sweep.
SENT_AT_ONCE = (Channel.WEBHOOK, Channel.PUSH)
# A new notice of these kinds replaces its reader's unread one of the same game and kind (one unread
# per game and kind): the older one leaves the list (in_app false) but keeps its delivery records,
# and an email of it not yet sent is skipped, its turn answered by the newer one (notifications.timing).
REPLACED_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.TIME_RUNNING_OUT)

__all__ = [
    "invitations_over", "mark_read", "notify", "preference_for", "unread", "unread_count", "unread_games",
    "unread_games_query",
]  # fmt: skip

Recipient = tuple[int, Any, dict[str, Any]]  # (user id, the game or None, the payload)


def notify(
    kind: str,
    recipients: list[Recipient],
    *,
    preferences: list[PlayerPreference] | None = None,
    writes: WriteBatch | None = None,
    announce: bool = True,
) -> list[Notification]:
    """Write one notification of `kind` per recipient, with its outside deliveries, in the caller's
    transaction: three queries however many there are (two when the caller already holds the
    recipients' `preferences`). The players' streams hear of the listed ones through their logs
    (with the rows of `writes`, when given), nudged after the commit unless the caller (`announce`
    false) nudges those players' streams anyway."""
    if not recipients:
        return []
    if preferences is None:
        preferences = list(PlayerPreference.objects.filter(user_id__in={r[0] for r in recipients}))
    by_user = {p.user_id: p for p in preferences}
    notifications, channels_of = [], []
    for user_id, game, payload in recipients:
        preference = by_user.get(user_id) or PlayerPreference(user_id=user_id)
        channels = preference.channels_for(kind)
        if Channel.WEBHOOK in channels and not preference.webhook_url:
            channels.remove(Channel.WEBHOOK)
        if not channels:
            continue
        in_app = Channel.IN_APP in channels
        notifications.append(Notification(user_id=user_id, kind=kind, game=game, payload=payload, in_app=in_app))
        channels_of.append(channels)
    if not notifications:
        return []  # everyone has turned this event off: nothing to write
    outside = [[c for c in channels if c != Channel.IN_APP] for channels in channels_of]
    at_once = any(c in SENT_AT_ONCE for channels in outside for c in channels)
    if writes is not None and connection.vendor == "postgresql" and not at_once:
        # Nothing to queue after the commit, so no delivery's id is needed here: the rows go out
        # with the caller's, in its one statement, and the players' logs name each notification
        # by its place in the batch (Notification.batch_ordinal, read by live.userlog).
        add_to_batch(writes, notifications, outside)
        publish(NoticesWritten(notifications=[n for n in notifications if n.in_app], writes=writes, announce=announce))
        return notifications
    write = write_outbox_in_one_statement if connection.vendor == "postgresql" else write_outbox_with_orm
    deliveries = write(notifications, outside)
    listed = [n for n in notifications if n.in_app]
    publish(NoticesWritten(notifications=listed, writes=writes, announce=announce))
    at_once = [pk for pk, channel in deliveries if channel in SENT_AT_ONCE]
    for batch in batches(at_once, DELIVERY_BATCH):
        enqueue_after_commit("notifications.tasks.deliver", batch)
    return notifications


# The notifications and their deliveries in one INSERT of each, sent as one statement: a turn's
# "your turn" is written inside the move's transaction, and a round trip fewer is a move faster.
# The same statement takes the notices that the new ones replace off the list (`replaced`; all its
# parts see the table as it was, so it never touches a row the statement adds).
# The ids come from the notifications' sequence, drawn once per row in a materialized CTE, so each
# delivery can name its notification. The columns are the models' own (tests/tasks compare the
# rows with those the ORM writes).
OUTBOX_INSERT = """
WITH new AS MATERIALIZED (
    SELECT nextval(pg_get_serial_sequence('notifications_notification', 'id')) AS id, row.*
    FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::jsonb[], %s::boolean[], %s::text[])
         WITH ORDINALITY AS row(user_id, kind, game_id, payload, in_app, channels, ord)
), replaced AS (
    UPDATE notifications_notification old SET in_app = false
    FROM new
    WHERE new.in_app AND new.kind = ANY(%s::text[]) AND old.user_id = new.user_id AND old.game_id = new.game_id
      AND old.kind = new.kind AND old.in_app AND old.read_at IS NULL
), notification AS (
    INSERT INTO notifications_notification (id, user_id, kind, game_id, payload, in_app, created_at, read_at)
    SELECT id, user_id, kind, game_id, payload, in_app, %s, NULL FROM new
), delivery AS (
    INSERT INTO notifications_delivery
        (notification_id, channel, status, attempts, next_attempt_at, claimed_until, last_error, sent_at, skip_reason,
         reached_devices)
    SELECT new.id, channel, %s, 0, %s, NULL, '', NULL, '', '[]'::jsonb
    FROM new CROSS JOIN LATERAL unnest(string_to_array(new.channels, ',')) AS channel
    RETURNING id, channel
)
SELECT id, ord, NULL FROM new
UNION ALL SELECT id, NULL, channel FROM delivery
"""


# The same rows as OUTBOX_INSERT, as CTEs of a WriteBatch (config.write_batch); the players' logs
# join OUTBOX_CTE on `ord` for the ids of the notifications they name.
OUTBOX_BATCH_KEY = "notifications.outbox"
OUTBOX_CTE = "outbox_new"  # the name the SQL below uses


def add_to_batch(writes: WriteBatch, notifications: list[Notification], outside: list[list[str]]) -> None:
    now = timezone.now()
    for notification in notifications:
        notification.created_at = now
    rows = list(zip(notifications, outside, strict=True))
    before = writes.add_items(OUTBOX_BATCH_KEY, rows, outbox_ctes, outbox_with_orm, first=True)
    for ordinal, notification in enumerate(notifications, start=before + 1):
        notification.batch_ordinal = ordinal


def outbox_ctes(rows: list[tuple[Notification, list[str]]]) -> list[tuple[str, str, list]]:
    notifications, outside = [n for n, _channels in rows], [channels for _n, channels in rows]
    columns = [*outbox_columns(notifications, outside), [n.created_at for n in notifications]]
    return [
        (
            OUTBOX_CTE,
            "SELECT nextval(pg_get_serial_sequence('notifications_notification', 'id')) AS id, row.*"
            " FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::jsonb[], %s::boolean[], %s::text[],"
            " %s::timestamptz[])"
            " WITH ORDINALITY AS row(user_id, kind, game_id, payload, in_app, channels, created_at, ord)",
            columns,
        ),
        (
            # The notices the new ones replace leave the list (the statement's parts all see the table
            # as it was, so this never touches a row the statement adds).
            "outbox_replaced",
            "UPDATE notifications_notification old SET in_app = false FROM outbox_new new"
            " WHERE new.in_app AND new.kind = ANY(%s::text[]) AND old.user_id = new.user_id"
            " AND old.game_id = new.game_id AND old.kind = new.kind AND old.in_app AND old.read_at IS NULL",
            [[kind.value for kind in REPLACED_KINDS]],
        ),
        (
            "outbox_notification",
            "INSERT INTO notifications_notification (id, user_id, kind, game_id, payload, in_app, created_at, read_at)"
            " SELECT id, user_id, kind, game_id, payload, in_app, created_at, NULL FROM outbox_new",
            [],
        ),
        (
            "outbox_delivery",
            "INSERT INTO notifications_delivery (notification_id, channel, status, attempts, next_attempt_at,"
            " claimed_until, last_error, sent_at, skip_reason, reached_devices)"
            " SELECT new.id, channel, %s, 0, new.created_at, NULL, '', NULL, '', '[]'::jsonb"
            " FROM outbox_new new CROSS JOIN LATERAL unnest(string_to_array(new.channels, ',')) AS channel",
            [DeliveryStatus.PENDING],
        ),
    ]


def outbox_with_orm(rows: list[tuple[Notification, list[str]]]) -> None:
    write_outbox_with_orm([n for n, _channels in rows], [channels for _n, channels in rows])


def write_outbox_with_orm(notifications: list[Notification], outside: list[list[str]]) -> list[tuple[int, str]]:
    """Insert the notifications (setting their pks) and a delivery per outside channel, taking the ones
    they replace off the list; the deliveries' (pk, channel)."""
    replacing = [n for n in notifications if n.in_app and n.kind in REPLACED_KINDS and n.game_id]
    if replacing:
        same_game = reduce(or_, (Q(user_id=n.user_id, game_id=n.game_id, kind=n.kind) for n in replacing))
        Notification.objects.filter(same_game, in_app=True, read_at__isnull=True).update(in_app=False)
    Notification.objects.bulk_create(notifications)
    written = Delivery.objects.bulk_create(
        Delivery(notification=notification, channel=channel)
        for notification, channels in zip(notifications, outside, strict=True)
        for channel in channels
    )
    return [(delivery.pk, delivery.channel) for delivery in written]


PAYLOAD_ENCODER = Notification._meta.get_field("payload").encoder  # as the ORM would encode it


def outbox_columns(notifications: list[Notification], outside: list[list[str]]) -> list[list]:
    """The notifications as the columns the statements unnest (user, kind, game, payload, in_app, channels)."""
    return [
        [n.user_id for n in notifications],
        [n.kind for n in notifications],
        [n.game_id for n in notifications],
        [json.dumps(n.payload, cls=PAYLOAD_ENCODER) for n in notifications],
        [n.in_app for n in notifications],
        [",".join(channels) for channels in outside],
    ]


def write_outbox_in_one_statement(notifications: list[Notification], outside: list[list[str]]) -> list[tuple[int, str]]:
    """The same as write_outbox_with_orm, in one statement (PostgreSQL)."""
    now = timezone.now()
    for notification in notifications:
        notification.created_at = now
    columns = outbox_columns(notifications, outside)
    with connection.cursor() as cursor:
        cursor.execute(
            OUTBOX_INSERT, [*columns, [kind.value for kind in REPLACED_KINDS], now, DeliveryStatus.PENDING, now]
        )
        rows = cursor.fetchall()
    deliveries = []
    for pk, ordinal, channel in rows:
        if ordinal is not None:
            notifications[ordinal - 1].pk = pk
            notifications[ordinal - 1]._state.adding = False
        else:
            deliveries.append((pk, channel))
    return deliveries


def listed_for(user):
    return Notification.objects.filter(user=user, in_app=True).select_related("game")


def unread(user):
    return listed_for(user).filter(read_at__isnull=True)


def unread_count(user) -> int:
    return unread(user).count()


def unread_games_query(user):
    """One row, {"count": n}: how many games the player has unread notices about, each notice about no
    game (a tournament's, a digest) counting as one of its own. The site's badge shows this number:
    the games waiting for the player, however many notices each holds."""
    per_matter = Count("game", distinct=True) + Count("pk", filter=Q(game__isnull=True))
    return unread(user).order_by().values("user").annotate(count=per_matter).values("count")


def unread_games(user) -> int:
    per_matter = unread(user).aggregate(games=Count("game", distinct=True), other=Count("pk", filter=Q(game=None)))
    return per_matter["games"] + per_matter["other"]


def invitations_over(game, user_ids: Iterable[int], writes: WriteBatch) -> None:
    """The invitations of `user_ids` to `game` were answered or withdrawn: they need no more of the
    players' attention. Their notifications are marked read, in the caller's transaction; the
    players' logs hear of it (NoticesRead) with the rows of `writes`, which lock all the
    transaction's log counters in one statement (live.userlog). An email or push not yet sent is
    skipped by its worker (notifications.timing)."""
    pending = Notification.objects.filter(
        user_id__in=set(user_ids), game=game, kind=NotificationKind.INVITATION, in_app=True, read_at__isnull=True
    )
    users = sorted(set(pending.values_list("user_id", flat=True)))
    if users:
        pending.update(read_at=timezone.now())
        publish(NoticesRead(user_ids=users, writes=writes))


def mark_read(user, *, ids: list[int] | None = None, everything: bool = False, game: str | None = None) -> int:
    """Mark the user's notifications read: those with `ids`, or `everything`, or all about the game
    with public id `game` (the player has it in front of them). Returns how many were unread."""
    unread = Notification.objects.filter(user=user, in_app=True, read_at__isnull=True)
    if game is not None:
        unread = unread.filter(game__public_id=game)
    elif not everything:
        unread = unread.filter(pk__in=ids or [])
    with transaction.atomic():
        marked = unread.update(read_at=timezone.now())
        if marked:  # the badge on every page and device of theirs follows
            publish(NoticesRead(user_ids=[user.pk]))
    return marked
