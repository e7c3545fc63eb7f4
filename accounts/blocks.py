"""Blocking: a player refuses another, who can then no longer invite them or share a table with them.

A block works both ways at the table (neither joins a game where the other sits), so that blocking
someone never leaves the blocker facing them; only the blocker can lift it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from config import l10n

from .models import Block, User

MAX_BLOCKS = 500


class BlockError(Exception):
    """A block that cannot be made or lifted as asked; the message says why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _player_named(username: str) -> User:
    user = User.objects.filter(is_active=True, username__iexact=username.strip()).first()
    if user is None:
        raise BlockError(_("There is no player named %(name)s.") % {"name": username}, "unknown_user")
    return user


def block_player(*, blocker: User, username: str) -> Block:
    blocked = _player_named(username)
    if blocked.pk == blocker.pk:
        raise BlockError(_("You cannot block yourself."), "block_self")
    if Block.objects.filter(blocker=blocker).count() >= MAX_BLOCKS:
        raise BlockError(
            l10n.interpolate(
                _("You have blocked %(max)d players, the most one account may; unblock one first."), {"max": MAX_BLOCKS}
            ),
            "too_many_blocks",
        )
    try:
        with transaction.atomic():
            return Block.objects.create(blocker=blocker, blocked=blocked)
    except IntegrityError:  # blocked already, perhaps by a request a moment ago
        return Block.objects.get(blocker=blocker, blocked=blocked)


def unblock_player(*, blocker: User, username: str) -> None:
    deleted, _rows = Block.objects.filter(blocker=blocker, blocked__username__iexact=username.strip()).delete()
    if not deleted:
        raise BlockError(_("You have not blocked %(name)s.") % {"name": username}, "not_blocked")


def blocked_players(user: User) -> list[Block]:
    return list(Block.objects.filter(blocker=user).select_related("blocked"))


def blocks_between(user_id: int, others: Iterable[int]) -> set[int]:
    """Those of `others` who have blocked `user_id`, or whom `user_id` has blocked."""
    others = [pk for pk in others if pk != user_id]
    if not others:
        return set()
    pairs = Block.objects.filter(
        Q(blocker_id=user_id, blocked_id__in=others) | Q(blocked_id=user_id, blocker_id__in=others)
    ).values_list("blocker_id", "blocked_id")
    return {blocker if blocked == user_id else blocked for blocker, blocked in pairs}
