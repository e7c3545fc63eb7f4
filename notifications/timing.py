"""When a delivery to a person (email or push) should go out, if at all: say it once, at the right time.

Decided by the worker that holds the delivery, just before sending, so that it reads the player's
settings and whereabouts as they are then, not as they were when the move was made:

- a notification about a turn goes nowhere outside the site when the player has looked at the game
  since it was written, has it open right now, or has already moved (the in-app row stays); nor
  does an invitation that was answered or withdrawn meanwhile;
- when the same notification went to the player's devices, its email is a follow-up: it waits for the
  player's delay and goes only if the game is still unopened (never, if they chose so);
- a "new message" at a table goes nowhere outside the site once the player has looked at the game;
- in the player's quiet hours, what is not urgent waits for them to end (a new message never is
  urgent). Urgent: "time running out" for a deadline inside the quiet hours.

Webhooks are for programs and get every event at once.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from .models import Channel, Delivery, DeliveryStatus, Notification, NotificationKind, PlayerPreference
from .presence import seen_since

# While the push beside an email is still being tried, the email looks again this often.
PUSH_PENDING_RECHECK = timedelta(minutes=1)
FOR_PEOPLE = (Channel.EMAIL, Channel.PUSH)
TURN_EVENTS = (NotificationKind.YOUR_TURN, NotificationKind.TIME_RUNNING_OUT)


@dataclass(frozen=True)
class Decision:
    """Send now; or skip for good (`skip` names why); or wait until `wait_until`."""

    skip: str = ""
    wait_until: datetime | None = None

    @property
    def send(self) -> bool:
        return not self.skip and self.wait_until is None


SEND = Decision()


def decide(delivery: Delivery, preference: PlayerPreference, now: datetime) -> Decision:
    if delivery.channel not in FOR_PEOPLE:
        return SEND
    notification = delivery.notification
    if notification.kind in TURN_EVENTS and notification.game_id:
        if seen_since(notification.user_id, notification.game_id, notification.created_at, now):
            return Decision(skip="seen")
        if turn_answered(notification):
            return Decision(skip="answered")
    chat = notification.kind == NotificationKind.CHAT_MESSAGE and notification.game_id
    if chat and seen_since(notification.user_id, notification.game_id, notification.created_at, now):
        return Decision(skip="seen")
    invitation = notification.kind == NotificationKind.INVITATION and notification.game_id
    if invitation and not invitation_stands(notification, now):
        return Decision(skip="invitation_over")
    if delivery.channel == Channel.EMAIL:
        follow_up = follow_up_decision(delivery, preference, now)
        if not follow_up.send:
            return follow_up
    quiet_end = quiet_hours_end(preference, now)
    if quiet_end is not None and not urgent(notification, quiet_end):
        return Decision(wait_until=quiet_end)
    return SEND


def turn_answered(notification: Notification) -> bool:
    """The game no longer waits for this player's turn: it is over, someone else is to act, or a
    later turn of theirs began (and has a notification of its own)."""
    game = notification.game
    if game.status != "active" or game.to_act_seat is None:
        return True
    if game.turn_started_at is not None and game.turn_started_at > notification.created_at:
        return True
    return not game.seats.filter(index=game.to_act_seat, user_id=notification.user_id).exists()


def invitation_stands(notification: Notification, now: datetime) -> bool:
    """The game still waits, with a seat held for this player, for their answer."""
    if notification.game.status != "open":
        return False
    return notification.game.seats.held_for(notification.user_id, now).exists()


def follow_up_decision(email: Delivery, preference: PlayerPreference, now: datetime) -> Decision:
    """An email whose notification also went to the player's devices follows the push up."""
    push = Delivery.objects.filter(notification_id=email.notification_id, channel=Channel.PUSH).first()
    if push is None or push.status == DeliveryStatus.FAILED or push.skip_reason == "no_device":
        return SEND  # nothing reached a device: the email is the message itself
    if push.status == DeliveryStatus.SKIPPED:
        return Decision(skip=push.skip_reason or "seen")
    if preference.follow_up_after is None:
        return Decision(skip="no_follow_up")
    if push.status == DeliveryStatus.PENDING:
        return Decision(wait_until=now + PUSH_PENDING_RECHECK)  # it may yet fail, and the email with it be the message
    due = email.notification.created_at + timedelta(seconds=preference.follow_up_after)
    if now < due:
        return Decision(wait_until=due)
    return SEND  # the push went out, the delay passed and the game is still unopened (checked before)


def player_zone(preference: PlayerPreference) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(preference.user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet_hours_end(preference: PlayerPreference, now: datetime) -> datetime | None:
    """When the quiet hours that `now` falls in end (an aware datetime), or None outside them."""
    start, end = preference.quiet_hours_start, preference.quiet_hours_end
    if start is None or end is None or start == end:
        return None
    local = now.astimezone(player_zone(preference))
    if not in_quiet_hours(local.time(), start, end):
        return None
    end_day = local.date() if local.time() < end else local.date() + timedelta(days=1)
    return datetime.combine(end_day, end, tzinfo=local.tzinfo)


def in_quiet_hours(moment: time, start: time, end: time) -> bool:
    if start < end:
        return start <= moment < end
    return moment >= start or moment < end  # over midnight


def urgent(notification: Notification, quiet_end: datetime) -> bool:
    """Time running out, with a deadline that falls before the quiet hours end."""
    if notification.kind != NotificationKind.TIME_RUNNING_OUT or not notification.game_id:
        return False
    deadline = notification.game.deadline
    return deadline is not None and deadline <= quiet_end
