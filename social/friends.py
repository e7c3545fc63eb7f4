"""Follows (one way, as on Lichess), the followed players' games in progress, and the challenge from
a profile. A block ends a follow both ways and prevents one while it lasts."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from accounts.blocks import blocks_between
from accounts.models import Block, User
from games.models import Game, GameStatus

from .errors import Forbidden, Invalid, NotFound
from .models import Follow
from .mutes import player_named

MAX_FOLLOWS = 1000


def follow_player(*, user: User, username: str) -> Follow:
    followed = player_named(username)
    if followed.pk == user.pk:
        raise Invalid("You cannot follow yourself.", "follow_self")
    if blocks_between(user.pk, [followed.pk]):
        raise Forbidden("You cannot follow a player while one of you blocks the other.", "blocked")
    if Follow.objects.filter(follower=user).count() >= MAX_FOLLOWS:
        raise Invalid(f"You follow {MAX_FOLLOWS} players, the most one account may.", "too_many")
    try:
        with transaction.atomic():
            return Follow.objects.create(follower=user, followed=followed)
    except IntegrityError:  # followed already, perhaps by a request a moment ago
        return Follow.objects.get(follower=user, followed=followed)


def unfollow_player(*, user: User, username: str) -> None:
    deleted, _rows = Follow.objects.filter(follower=user, followed__username__iexact=username.strip()).delete()
    if not deleted:
        raise NotFound(f"You do not follow {username}.", "not_following")


def following(user: User) -> list[User]:
    ids = Follow.objects.filter(follower=user).values("followed_id")
    return list(User.objects.filter(pk__in=ids, is_active=True).order_by("username"))


def follows(user: User | None, other: User) -> bool:
    return user is not None and user.is_authenticated and Follow.objects.filter(follower=user, followed=other).exists()


def followers_count(user: User) -> int:
    return Follow.objects.filter(followed=user).count()


def end_follows_on_block(sender, instance: Block, created: bool, **kwargs) -> None:
    """A block ends the follows between the two players, both ways (a post_save receiver of Block)."""
    if created:
        pair = (instance.blocker_id, instance.blocked_id)
        Follow.objects.filter(follower_id__in=pair, followed_id__in=pair).delete()


def followed_games(user: User, limit: int = 10) -> QuerySet[Game]:
    """The public games in progress of the players `user` follows, the most recently moved first."""
    followed = Follow.objects.filter(follower=user).values("followed_id")
    games = Game.objects.filter(status=GameStatus.ACTIVE, is_private=False, seats__user__in=followed)
    ids = games.values("pk").distinct()
    return (
        Game.objects.filter(pk__in=ids)
        .order_by("-updated_at")
        .select_related("creator")
        .prefetch_related("seats__user", "seats__invited_user")[:limit]
    )


def last_game_together(user: User, other: User) -> Game | None:
    """The latest game both sat at (for a challenge's options), or else the reader's own latest."""
    mine = Game.objects.filter(seats__user=user).exclude(status=GameStatus.ABORTED)
    together = mine.filter(pk__in=Game.objects.filter(seats__user=other).values("pk")).order_by("-created_at").first()
    return together or mine.order_by("-created_at").first()
