"""Reports and what moderators do about them: hide a message, warn its author, or silence the
author's free text for some days (phrases stay). A report never tells the author who made it."""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games import selectors as game_selectors
from games.models import Game

from .chat import reader_for, shown_to
from .errors import Invalid, NotFound
from .models import ChatMessage, ChatReport, ChatSilence, ChatWarning, ReportStatus
from .text_input import TextRefused, clean_text

REASON_MAX = 500
MAX_SILENCE_DAYS = 365


def report_message(*, message_id: str, reporter: User, reason: object) -> ChatReport:
    """A report of a message the reporter can read (any other: 404). Reporting it again changes nothing."""
    try:
        reason = clean_text(reason, max_length=REASON_MAX)
    except TextRefused as exc:
        raise Invalid(exc.message, exc.code, {"reason": [exc.message]}) from exc
    message = ChatMessage.objects.filter(public_id=message_id).select_related("game").first()
    if message is None or not can_read(reporter, message):
        raise NotFound("There is no such message, or you may not read it.", "not_found")
    if message.author_id == reporter.pk:
        raise Invalid("You cannot report your own message.", "report_self")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=reporter, reason=reason)
    except IntegrityError:
        return ChatReport.objects.get(message=message, reporter=reporter)


def can_read(user: User, message: ChatMessage) -> bool:
    seats = list(game_selectors.with_seats(Game.objects.filter(pk=message.game_id)).get().seats.all())
    if not any(s.user_id == user.pk for s in seats):
        return False
    return shown_to(reader_for(user, seats), message)


# --- the moderators' actions (the admin's queue) ---------------------------------------------


def resolve(reports, status: str, moderator: User | None) -> None:
    ChatReport.objects.filter(pk__in=[r.pk for r in reports], status=ReportStatus.OPEN).update(
        status=status, resolved_at=timezone.now(), resolved_by=moderator
    )


@transaction.atomic
def hide_message(*, message: ChatMessage, moderator: User | None) -> None:
    ChatMessage.objects.filter(pk=message.pk, hidden_at__isnull=True).update(hidden_at=timezone.now())
    resolve(message.reports.all(), ReportStatus.HIDDEN, moderator)


@transaction.atomic
def warn_author(*, message: ChatMessage, moderator: User | None) -> ChatWarning:
    warning = ChatWarning.objects.create(user_id=message.author_id, message=message, created_by=moderator)
    resolve(message.reports.all(), ReportStatus.WARNED, moderator)
    return warning


@transaction.atomic
def silence_author(*, message: ChatMessage, days: int, reason: str, moderator: User | None) -> ChatSilence:
    if not 1 <= days <= MAX_SILENCE_DAYS:
        raise Invalid(f"Silence for 1 to {MAX_SILENCE_DAYS} days.", "bad_days")
    silence = ChatSilence.objects.create(
        user_id=message.author_id,
        until=timezone.now() + timedelta(days=days),
        reason=reason[:500],
        created_by=moderator,
    )
    resolve(message.reports.all(), ReportStatus.SILENCED, moderator)
    return silence


def dismiss(*, reports, moderator: User | None) -> None:
    resolve(reports, ReportStatus.DISMISSED, moderator)
