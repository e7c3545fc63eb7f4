"""Read paths for profiles and leaderboards: they read the stored statistics, never the game history."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from accounts.models import User
from games.engine import KINDS
from games.models import Game, GameStatus, Seat
from games.selectors import seat_name

from .models import PlayerStats, Rating, RatingHistory
from .ratings import INITIAL_MU, INITIAL_SIGMA, PROVISIONAL_GAMES, shown_or_provisional

# What a username may look like (Django's validator); anything else cannot name a player.
USERNAME_SHAPE = re.compile(r"^[\w.@+-]{1,150}\Z")
RECENT_GAMES = 10
CHART_POINTS = 100


def find_player(username: str) -> User | None:
    """The active player with this username, compared without regard to case."""
    if not USERNAME_SHAPE.match(username):
        return None
    return User.objects.filter(is_active=True, username__iexact=username).first()


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _reliability(finished: int, with_timeout: int, timed_out_turns: int, turns: int, move_ms: int) -> dict[str, Any]:
    return {
        "finished_without_timeout": _share(finished - with_timeout, finished),
        "games_with_timeout": with_timeout,
        "timed_out_turns": timed_out_turns,
        "average_move_seconds": round(move_ms / 1000 / turns, 1) if turns else None,
    }


def kind_statistics(kind: str, row: PlayerStats | None, in_progress: int) -> dict[str, Any]:
    row = row or PlayerStats(kind=kind)
    data: dict[str, Any] = {
        "games_played": row.games_finished + in_progress,
        "games_in_progress": in_progress,
        "games_finished": row.games_finished,
        "games_won": row.games_won,
        "games_resigned": row.games_resigned,
        "win_rate": _share(row.games_won, row.games_finished),
        "current_streak": row.current_streak,
        "best_streak": row.best_streak,
        "average_place": _rounded(row.average_place, 2),
        "reliability": _reliability(
            row.games_finished, row.games_with_timeout, row.timed_out_turns, row.turns_moved, row.move_time_ms
        ),
    }
    if kind == "scat":
        data.update(
            knocks=row.knocks,
            knocks_survived=row.knocks_survived,
            knock_survival_rate=_share(row.knocks_survived, row.knocks),
            thirty_ones=row.thirty_ones,
            lives_lost=row.lives_lost,
        )
    else:
        data.update(
            melds=row.melds,
            points=row.points,
            points_per_game=_rounded(row.points_per_game, 2),
            scattles=row.scattles,
        )
    return data


def rating_facts(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "ordinal": round(rating.ordinal, 3),
        "games": rating.games,
        "provisional": rating.games < PROVISIONAL_GAMES,
        "shown": shown_or_provisional(rating.mu, rating.games),
        "updated_at": rating.updated_at,
    }


def player_statistics(user: User) -> dict[str, Any]:
    rows = {row.kind: row for row in PlayerStats.objects.filter(user=user)}
    running = dict(
        Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE)
        .values("game__kind")
        .annotate(n=Count("pk"))
        .values_list("game__kind", "n")
    )
    per_kind = {kind: kind_statistics(kind, rows.get(kind), running.get(kind, 0)) for kind in KINDS}
    finished = sum(row.games_finished for row in rows.values())
    won = sum(row.games_won for row in rows.values())
    return {
        "games_played": sum(stats["games_played"] for stats in per_kind.values()),
        "games_in_progress": sum(running.values()),
        "games_finished": finished,
        "games_won": won,
        "win_rate": _share(won, finished),
        "reliability": _reliability(
            finished,
            sum(row.games_with_timeout for row in rows.values()),
            sum(row.timed_out_turns for row in rows.values()),
            sum(row.turns_moved for row in rows.values()),
            sum(row.move_time_ms for row in rows.values()),
        ),
        **per_kind,
    }


def player_ratings(user: User) -> dict[str, dict[str, Any] | None]:
    rows = {row.kind: row for row in Rating.objects.filter(user=user)}
    return {kind: rating_facts(rows.get(kind)) for kind in KINDS}


def recent_games(
    user: User, viewer: User | None, *, limit: int = RECENT_GAMES, name: Callable[[Seat], str | None] = seat_name
) -> list[dict[str, Any]]:
    """The player's latest finished games that the viewer may see, with the player's result; the
    players named by `name` (the API's usernames unless the caller names them otherwise)."""
    visible = Game.objects.visible_to(viewer) if viewer is not None else Game.objects.filter(is_private=False)
    games = (
        visible.filter(status=GameStatus.FINISHED, seats__user=user)
        .defer("state")
        .order_by("-finished_at", "-pk")
        .prefetch_related("seats__user")[:limit]
    )
    entries = []
    for game in games:
        seats = list(game.seats.all())
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        entries.append(
            {
                "id": game.public_id,
                "kind": game.kind,
                "finished_at": game.finished_at,
                "num_seats": game.num_seats,
                "place": mine.final_place,
                "won": mine.final_place == 1,
                "resigned": mine.resigned,
                "players": [name(seat) for seat in seats],
                "reason": (game.outcome or {}).get("reason"),
            }
        )
    return entries


def player_profile(
    user: User, viewer: User | None, *, name: Callable[[Seat], str | None] = seat_name
) -> dict[str, Any]:
    """Everything `GET /api/v1/users/{username}/` answers."""
    return {
        "username": user.username,
        "display_name": user.public_name,
        "date_joined": user.date_joined,
        "statistics": player_statistics(user),
        "ratings": player_ratings(user),
        "recent_games": recent_games(user, viewer, name=name),
    }


RatingPoint = tuple[datetime, float, float]


def rating_history(user: User, kind: str, *, limit: int = CHART_POINTS) -> tuple[list[RatingPoint], bool]:
    """The latest `limit` ratings after games of this kind, oldest first, and whether that is all of them."""
    rows = list(
        RatingHistory.objects.filter(user=user, kind=kind)
        .order_by("-recorded_at", "-pk")
        .values_list("recorded_at", "mu", "sigma")[: limit + 1]
    )
    complete = len(rows) <= limit
    return list(reversed(rows[:limit])), complete


def leaderboard(kind: str) -> QuerySet[Rating]:
    """People's ratings in one game kind, the most surely strong first (by mu - 3 sigma); only those who
    have played a rated game (unrated games leave a rating row at its start)."""
    return (
        Rating.objects.filter(kind=kind, user__isnull=False, user__is_active=True, games__gt=0)
        .select_related("user")
        .order_by("-ordinal", "-mu", "user__username")
    )


def leaderboard_entry(rating: Rating, rank: int) -> dict[str, Any]:
    return {
        "rank": rank,
        "username": rating.user.username,
        "display_name": rating.user.public_name,
        **rating_facts(rating),
    }


def bot_ratings(kind: str) -> list[Rating]:
    return list(Rating.objects.filter(kind=kind, user__isnull=True, games__gt=0).order_by("-ordinal"))


def _rating_then(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
        "shown": shown_or_provisional(mu, games),
    }


def game_rating_changes(game: Game) -> list[dict[str, Any]]:
    """Each rated person's rating before and after this game, by seat (bots and unrated games: none).

    "Before" is the player's rating after their previous rated game of the kind (the starting rating if
    there was none). One query, whatever the players' histories hold (their index is by user, kind, time)."""
    earlier = RatingHistory.objects.filter(user=OuterRef("user"), kind=OuterRef("kind")).filter(
        Q(recorded_at__lt=OuterRef("recorded_at")) | Q(recorded_at=OuterRef("recorded_at"), pk__lt=OuterRef("pk"))
    )
    newest_first = earlier.order_by("-recorded_at", "-pk")
    rows = (
        RatingHistory.objects.filter(game=game)
        .annotate(
            mu_before=Subquery(newest_first.values("mu")[:1]),
            sigma_before=Subquery(newest_first.values("sigma")[:1]),
            games_before=Subquery(earlier.order_by().values("user").annotate(n=Count("pk")).values("n")[:1]),
        )
        .values("user_id", "mu", "sigma", "mu_before", "sigma_before", "games_before")
    )
    by_user = {row["user_id"]: row for row in rows}
    changes = []
    for seat in game.seats.select_related("user"):
        row = by_user.get(seat.user_id) if seat.user_id else None
        if row is None:
            continue
        before_games = row["games_before"] or 0
        mu_before = row["mu_before"] if row["mu_before"] is not None else INITIAL_MU
        sigma_before = row["sigma_before"] if row["sigma_before"] is not None else INITIAL_SIGMA
        changes.append(
            {
                "seat": seat.index,
                "username": seat.user.username,
                "before": _rating_then(mu_before, sigma_before, before_games),
                "after": _rating_then(row["mu"], row["sigma"], before_games + 1),
            }
        )
    return changes
