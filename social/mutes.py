"""Mutes: the muter no longer reads the muted player's messages, at any table (the muted player is
not told)."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User

from .errors import Invalid, NotFound
from .models import ChatMute

MAX_MUTES = 500


def player_named(username: str) -> User:
    user = User.objects.filter(is_active=True, username__iexact=username.strip()).first()
    if user is None:
        raise NotFound(f"There is no player named {username}.", "unknown_user")
    return user


def mute_player(*, user: User, username: str) -> ChatMute:
    muted = player_named(username)
    if muted.pk == user.pk:
        raise Invalid("You cannot mute yourself.", "mute_self")
    if ChatMute.objects.filter(user=user).count() >= MAX_MUTES:
        raise Invalid(f"You have muted {MAX_MUTES} players, the most one account may; unmute one first.", "too_many")
    try:
        with transaction.atomic():
            return ChatMute.objects.create(user=user, muted=muted)
    except IntegrityError:  # muted already, perhaps by a request a moment ago
        return ChatMute.objects.get(user=user, muted=muted)


def unmute_player(*, user: User, username: str) -> None:
    deleted, _rows = ChatMute.objects.filter(user=user, muted__username__iexact=username.strip()).delete()
    if not deleted:
        raise NotFound(f"You have not muted {username}.", "not_muted")


def muted_players(user: User) -> list[ChatMute]:
    return list(ChatMute.objects.filter(user=user).select_related("muted").order_by("-created_at"))
