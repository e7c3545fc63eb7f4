"""The outbox: notifications are written with the change that causes them and delivered after.

In-app notifications are the rows themselves. Email and webhook deliveries are rows too, sent
by a worker that claims each one with a conditional update. A webhook is queued for a worker as
soon as the transaction commits; emails are left to the delivery sweep (every few seconds),
which sends them in batches and saves the move that caused them a broker round trip: email is
not instant anyway. The same sweep re-sends what a lost message or a dead worker left pending,
so an outage delays a notification but never drops it, and a claim keeps two workers from
sending it twice.
"""

from __future__ import annotations

import json
import logging
import zoneinfo
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.core.mail.backends.base import BaseEmailBackend
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from live import userlog as live_log
from live.models import EventKind
from live.userlog import UserEvent

from .dispatch import batches, enqueue_after_commit
from .models import Channel, Delivery, DeliveryStatus, Game, Notification, NotificationKind, PlayerPreference
from .write_batch import WriteBatch

logger = logging.getLogger(__name__)

CLAIM_FOR = timedelta(minutes=2)
# A new webhook delivery has a message of its own on the way; the sweep steps in after this.
OWN_MESSAGE_GRACE = timedelta(minutes=1)
# Waits between webhook or email attempts; after the last one the delivery is marked failed.
RETRY_DELAYS = [
    timedelta(minutes=1),
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
]


def preference_for(user_id: int) -> PlayerPreference:
    return PlayerPreference.objects.filter(user_id=user_id).first() or PlayerPreference(user_id=user_id)


def notify(
    user_ids: Iterable[int],
    kind: str,
    game: Game | None,
    payload: dict[str, Any] | None = None,
    *,
    writes: WriteBatch | None = None,
) -> list[Notification]:
    """Write one notification per user, about one game, in the caller's transaction."""
    return notify_each(kind, [(user_id, game, payload or {}) for user_id in user_ids], writes=writes)


def notify_each(
    kind: str,
    items: list[tuple[int, Game | None, dict[str, Any]]],
    known_preferences: list[PlayerPreference] | None = None,
    *,
    writes: WriteBatch | None = None,
) -> list[Notification]:
    """Write notifications and their outside deliveries in three queries, however many there are
    (two when the caller already holds the recipients' preferences). The players' streams hear of
    the listed ones through their logs (with the rows of `writes`, when given)."""
    if not items:
        return []
    if known_preferences is None:
        known_preferences = list(PlayerPreference.objects.filter(user_id__in={i[0] for i in items}))
    preferences = {p.user_id: p for p in known_preferences}
    notifications, channels_of = [], []
    for user_id, game, payload in items:
        preference = preferences.get(user_id) or PlayerPreference(user_id=user_id)
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
    write = write_outbox_in_one_statement if connection.vendor == "postgresql" else write_outbox_with_orm
    deliveries = write(notifications, outside)
    listed = [n for n in notifications if n.in_app]
    live_log.append([UserEvent(n.user_id, EventKind.NOTIFICATION, notification_id=n.pk) for n in listed], writes)
    webhooks = [pk for pk, channel in deliveries if channel == Channel.WEBHOOK]
    if webhooks:
        from . import tasks

        for batch in batches(webhooks, tasks.DELIVERY_BATCH):
            enqueue_after_commit(tasks.deliver, batch)
    return notifications


# The notifications and their deliveries in one INSERT of each, sent as one statement: a turn's
# "your turn" is written inside the move's transaction, and a round trip fewer is a move faster.
# The ids come from the notifications' sequence, drawn once per row in a materialized CTE, so each
# delivery can name its notification. The columns are the models' own (tests/tasks compare the
# rows with those the ORM writes).
OUTBOX_INSERT = """
WITH new AS MATERIALIZED (
    SELECT nextval(pg_get_serial_sequence('games_notification', 'id')) AS id, row.*
    FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::jsonb[], %s::boolean[], %s::text[])
         WITH ORDINALITY AS row(user_id, kind, game_id, payload, in_app, channels, ord)
), notification AS (
    INSERT INTO games_notification (id, user_id, kind, game_id, payload, in_app, created_at, read_at)
    SELECT id, user_id, kind, game_id, payload, in_app, %s, NULL FROM new
), delivery AS (
    INSERT INTO games_delivery
        (notification_id, channel, status, attempts, next_attempt_at, claimed_until, last_error, sent_at)
    SELECT new.id, channel, %s, 0, %s, NULL, '', NULL
    FROM new CROSS JOIN LATERAL unnest(string_to_array(new.channels, ',')) AS channel
    RETURNING id, channel
)
SELECT id, ord, NULL FROM new
UNION ALL SELECT id, NULL, channel FROM delivery
"""


def write_outbox_with_orm(notifications: list[Notification], outside: list[list[str]]) -> list[tuple[int, str]]:
    """Insert the notifications (setting their pks) and a delivery per outside channel; the deliveries'
    (pk, channel)."""
    Notification.objects.bulk_create(notifications)
    written = Delivery.objects.bulk_create(
        Delivery(notification=notification, channel=channel)
        for notification, channels in zip(notifications, outside, strict=True)
        for channel in channels
    )
    return [(delivery.pk, delivery.channel) for delivery in written]


PAYLOAD_ENCODER = Notification._meta.get_field("payload").encoder  # as the ORM would encode it


def write_outbox_in_one_statement(notifications: list[Notification], outside: list[list[str]]) -> list[tuple[int, str]]:
    """The same as write_outbox_with_orm, in one statement (PostgreSQL)."""
    now = timezone.now()
    for notification in notifications:
        notification.created_at = now
    columns = [
        [n.user_id for n in notifications],
        [n.kind for n in notifications],
        [n.game_id for n in notifications],
        [json.dumps(n.payload, cls=PAYLOAD_ENCODER) for n in notifications],
        [n.in_app for n in notifications],
        [",".join(channels) for channels in outside],
    ]
    with connection.cursor() as cursor:
        cursor.execute(OUTBOX_INSERT, [*columns, now, DeliveryStatus.PENDING, now])
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


def unread_count(user) -> int:
    return listed_for(user).filter(read_at__isnull=True).count()


def mark_read(user, *, ids: list[int] | None = None, everything: bool = False) -> int:
    unread = Notification.objects.filter(user=user, in_app=True, read_at__isnull=True)
    if not everything:
        unread = unread.filter(pk__in=ids or [])
    with transaction.atomic():
        marked = unread.update(read_at=timezone.now())
        if marked:  # the badge on every page and device of theirs follows
            live_log.append([UserEvent(user.pk, EventKind.NOTIFICATIONS_READ)])
    return marked


def text_of(notification: Notification) -> str:
    """One sentence for people, in the active language."""
    payload = notification.payload
    kind = notification.kind
    game = payload.get("kind", "").title()
    if kind == NotificationKind.YOUR_TURN:
        return _("It is your turn in %(game)s.") % {"game": game}
    if kind == NotificationKind.TIME_RUNNING_OUT:
        return _("Your time to move in %(game)s is running out.") % {"game": game}
    if kind == NotificationKind.GAME_OVER:
        return _("Your %(game)s game is over: you finished in place %(place)s.") % {
            "game": game,
            "place": payload.get("place"),
        }
    if kind == NotificationKind.INVITATION:
        return _("%(player)s invites you to a game of %(game)s.") % {"player": payload.get("from"), "game": game}
    if kind == NotificationKind.GAME_STARTED:
        return _("Your %(game)s game has started.") % {"game": game}
    if kind == NotificationKind.DIGEST:
        return _("%(count)s games are waiting for your move.") % {"count": len(payload.get("games", []))}
    return kind


def as_json(notification: Notification) -> dict[str, Any]:
    """The public payload: ids and texts, never a card."""
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "game": notification.payload.get("game"),
        "payload": notification.payload,
        "text": text_of(notification),
        "created_at": notification.created_at,
        "read_at": notification.read_at,
    }


# --- delivery ----------------------------------------------------------------------------------


def claim(delivery_id: int, now=None) -> bool:
    """Take a pending delivery for this worker. False when another worker has it or it is done."""
    now = now or timezone.now()
    claimed = Delivery.objects.filter(
        Q(claimed_until__isnull=True) | Q(claimed_until__lt=now),
        pk=delivery_id,
        status=DeliveryStatus.PENDING,
        next_attempt_at__lte=now,
    ).update(claimed_until=now + CLAIM_FOR)
    return claimed == 1


def deliver(delivery_id: int, *, mail_connection: BaseEmailBackend | None = None) -> str:
    """Send one delivery if this worker can claim it; returns what happened."""
    from . import channels

    if not claim(delivery_id):
        return "skipped"
    delivery = Delivery.objects.select_related("notification__user", "notification__game").get(pk=delivery_id)
    try:
        channels.send(delivery, mail_connection=mail_connection)
    except channels.DeliveryError as exc:
        return _record_failure(delivery, str(exc), permanent=exc.permanent)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.SENT, sent_at=timezone.now(), attempts=delivery.attempts + 1, last_error=""
    )
    return "sent"


def _record_failure(delivery: Delivery, error: str, *, permanent: bool = False) -> str:
    now = timezone.now()
    attempts = delivery.attempts + 1
    done = permanent or attempts > len(RETRY_DELAYS)
    Delivery.objects.filter(pk=delivery.pk).update(
        attempts=attempts,
        last_error=error[:500],
        claimed_until=None,
        status=DeliveryStatus.FAILED if done else DeliveryStatus.PENDING,
        next_attempt_at=now if done else now + RETRY_DELAYS[attempts - 1],
    )
    if delivery.channel == Channel.WEBHOOK:
        PlayerPreference.objects.filter(user_id=delivery.notification.user_id).update(
            webhook_last_error=error[:500], webhook_last_error_at=now
        )
    logger.info("Delivery %s failed (attempt %s): %s", delivery.pk, attempts, error)
    return "failed" if done else "retry"


def due_deliveries(now=None, limit: int = 5000) -> list[int]:
    """Pending deliveries whose time has come and that no worker holds (new webhooks only once
    their own message has had its chance)."""
    now = now or timezone.now()
    fresh_webhook = Q(channel=Channel.WEBHOOK, attempts=0, next_attempt_at__gt=now - OWN_MESSAGE_GRACE)
    return list(
        Delivery.objects.filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=now)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .exclude(fresh_webhook)
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )


@transaction.atomic
def create_digests(now=None) -> int:
    """Write the daily digest for every player whose local morning hour has come."""
    now = now or timezone.now()
    created = 0
    preferences = PlayerPreference.objects.select_for_update(skip_locked=True, of=("self",))
    for preference in preferences.filter(digest_enabled=True).select_related("user"):
        try:
            local = now.astimezone(zoneinfo.ZoneInfo(preference.user.time_zone))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            local = now
        if local.hour < preference.digest_hour or preference.last_digest_on == local.date():
            continue
        preference.last_digest_on = local.date()
        preference.save(update_fields=["last_digest_on"])
        waiting = list(
            Game.objects.filter(status="active", seats__user_id=preference.user_id, seats__index=F("to_act_seat"))
            .order_by("deadline")
            .values_list("public_id", flat=True)
        )
        if waiting:
            notify([preference.user_id], NotificationKind.DIGEST, None, {"games": waiting})
            created += 1
    return created
