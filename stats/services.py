"""Statistics and ratings: a finished game folded into its players' records, and all of them
rebuilt from the move histories."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Prefetch, Q

from games.models import Game, GameStatus, Move, Seat, Turn

from . import ratings as rating_model
from .models import PlayerStats, Rating, RatingHistory
from .results import MoveRecord, SeatResult, TurnRecord, opening_events, seat_results

STATS_FIELDS = [
    "games_finished", "games_won", "games_resigned", "place_sum", "current_streak", "best_streak",
    "games_with_timeout", "timed_out_turns", "turns_moved", "move_time_ms",
    "knocks", "knocks_survived", "thirty_ones", "lives_lost", "melds", "points", "scattles", "last_finished_at",
]  # fmt: skip
RATING_FIELDS = ["mu", "sigma", "ordinal", "games", "updated_at"]

# A rating's key: (user id, "") for a person, (None, level) for the shared rating of a bot level.
RatingKey = tuple[int | None, str]


def record_finished_game(*, game: Game, seats: Sequence[Seat]) -> None:
    """Fold a game that has just finished into its players' statistics and ratings.

    Called by the game service inside the transaction that finishes the game, so the numbers
    change with the game or not at all. A fixed number of queries however long the game was
    or however many play in it: the moves and turns once, then bulk writes. Rows are locked in
    primary-key order, so two games finishing at once for the same players cannot deadlock.
    """
    moves = [
        MoveRecord(seat, events, created_at)
        for seat, events, created_at in Move.objects.filter(game=game)
        .order_by("seq")
        .values_list("seat", "events", "created_at")
    ]
    turns = [
        TurnRecord(*row)
        for row in Turn.objects.filter(game=game)
        .order_by("started_at", "pk")
        .values_list("seat", "started_at", "ended_at", "timed_out")
    ]
    results = game_results(game, moves, turns)
    user_ids = sorted({seat.user_id for seat in seats if seat.user_id})
    levels = sorted({seat.bot_level for seat in seats if not seat.user_id and seat.bot_level})
    stats = _locked_stats(game.kind, user_ids)
    ratings = _locked_ratings(game.kind, user_ids, levels)
    history = fold_game(game, seats, results, stats, ratings)
    PlayerStats.objects.bulk_update(list(stats.values()), STATS_FIELDS)
    Rating.objects.bulk_update(list(ratings.values()), RATING_FIELDS)
    RatingHistory.objects.bulk_create(history)


def game_results(game: Game, moves: Sequence[MoveRecord], turns: Sequence[TurnRecord]) -> list[SeatResult]:
    events = opening_events(game.kind, game.num_seats, game.options, game.seed, game.rules_edition)
    for move in moves:
        events.extend(move.events)
    return seat_results(outcome=game.outcome, events=events, moves=moves, turns=turns)


def fold_game(
    game: Game,
    seats: Sequence[Seat],
    results: Sequence[SeatResult],
    stats: dict[int, PlayerStats],
    ratings: dict[RatingKey, Rating],
) -> list[RatingHistory]:
    """Add one finished game to the given rows (in memory) and return its rating history rows.

    The one place where a game changes statistics and ratings: the incremental path and the
    rebuild both go through it.
    """
    finished_at = game.finished_at
    rated: list[tuple[Seat, RatingKey]] = []
    for seat in seats:
        result = results[seat.index]
        if seat.user_id:
            stats[seat.user_id].add_game(result, finished_at)
            rated.append((seat, (seat.user_id, "")))
        elif seat.bot_level:
            rated.append((seat, (None, seat.bot_level)))
    if len(rated) < 2 or not game.rated:
        return []
    before = [(ratings[key].mu, ratings[key].sigma) for _seat, key in rated]
    after = rating_model.rate(before, [results[seat.index].place for seat, _key in rated])
    # Several seats of one bot level share its rating: it moves by their average.
    new_values: dict[RatingKey, list[tuple[float, float]]] = defaultdict(list)
    for (_seat, key), value in zip(rated, after, strict=True):
        new_values[key].append(value)
    for key, values in new_values.items():
        rating = ratings[key]
        rating.mu = sum(mu for mu, _sigma in values) / len(values)
        rating.sigma = sum(sigma for _mu, sigma in values) / len(values)
        rating.ordinal = rating_model.ordinal(rating.mu, rating.sigma)
        rating.games += 1
        rating.updated_at = finished_at
    return [
        RatingHistory(
            user_id=seat.user_id,
            kind=game.kind,
            game=game,
            place=results[seat.index].place,
            mu=ratings[key].mu,
            sigma=ratings[key].sigma,
            ordinal=ratings[key].ordinal,
            recorded_at=finished_at,
        )
        for seat, key in rated
        if seat.user_id
    ]


def _new_stats(user_id: int, kind: str) -> PlayerStats:
    return PlayerStats(user_id=user_id, kind=kind)


def _new_rating(key: RatingKey, kind: str) -> Rating:
    user_id, level = key
    mu, sigma = rating_model.INITIAL_MU, rating_model.INITIAL_SIGMA
    return Rating(
        user_id=user_id, bot_level=level, kind=kind, mu=mu, sigma=sigma, ordinal=rating_model.ordinal(mu, sigma)
    )


def _locked_stats(kind: str, user_ids: list[int]) -> dict[int, PlayerStats]:
    # Create missing rows without a check first: a concurrent first game waits, then does nothing.
    PlayerStats.objects.bulk_create([_new_stats(uid, kind) for uid in user_ids], ignore_conflicts=True)
    rows = PlayerStats.objects.select_for_update().filter(kind=kind, user_id__in=user_ids).order_by("pk")
    return {row.user_id: row for row in rows}


def _locked_ratings(kind: str, user_ids: list[int], levels: list[str]) -> dict[RatingKey, Rating]:
    keys: list[RatingKey] = [(None, level) for level in levels] + [(uid, "") for uid in user_ids]
    Rating.objects.bulk_create([_new_rating(key, kind) for key in keys], ignore_conflicts=True)
    wanted = Q(user_id__in=user_ids) | Q(user__isnull=True, bot_level__in=levels)
    rows = Rating.objects.select_for_update().filter(wanted, kind=kind).order_by("pk")
    return {(row.user_id, row.bot_level): row for row in rows}


@dataclass(frozen=True)
class RecomputeSummary:
    games: int
    players: int
    history_rows: int


@transaction.atomic
def recompute_stats(*, chunk_size: int = 200) -> RecomputeSummary:
    """Wipe statistics and ratings and rebuild them by replaying every finished game in finishing order.

    Runs in one transaction. On PostgreSQL it first takes the three tables' write lock: games
    finishing meanwhile wait, then fold themselves into the rebuilt numbers.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("LOCK TABLE accounts_playerstats, accounts_rating, accounts_ratinghistory IN EXCLUSIVE MODE")
    RatingHistory.objects.all().delete()
    Rating.objects.all().delete()
    PlayerStats.objects.all().delete()

    stats: dict[tuple[int, str], PlayerStats] = {}
    ratings: dict[tuple[RatingKey, str], Rating] = {}
    history: list[RatingHistory] = []
    games = history_rows = 0
    finished = (
        Game.objects.filter(status=GameStatus.FINISHED, finished_at__isnull=False)
        .defer("state")
        .order_by("finished_at", "pk")
        .prefetch_related(
            Prefetch("seats", Seat.objects.order_by("index")),
            Prefetch("moves", Move.objects.order_by("seq").only("game_id", "seat", "events", "created_at")),
            Prefetch("turns", Turn.objects.order_by("started_at", "pk")),
        )
    )
    for game in finished.iterator(chunk_size=chunk_size):
        seats = list(game.seats.all())
        moves = [MoveRecord(m.seat, m.events, m.created_at) for m in game.moves.all()]
        turns = [TurnRecord(t.seat, t.started_at, t.ended_at, t.timed_out) for t in game.turns.all()]
        results = game_results(game, moves, turns)
        game_stats: dict[int, PlayerStats] = {}
        game_ratings: dict[RatingKey, Rating] = {}
        for seat in seats:
            if seat.user_id:
                game_stats[seat.user_id] = stats.setdefault(
                    (seat.user_id, game.kind), _new_stats(seat.user_id, game.kind)
                )
                key: RatingKey = (seat.user_id, "")
            elif seat.bot_level:
                key = (None, seat.bot_level)
            else:
                continue
            game_ratings[key] = ratings.setdefault((key, game.kind), _new_rating(key, game.kind))
        history.extend(fold_game(game, seats, results, game_stats, game_ratings))
        games += 1
        if len(history) >= 1000:
            history_rows += len(RatingHistory.objects.bulk_create(history))
            history = []
    history_rows += len(RatingHistory.objects.bulk_create(history))
    PlayerStats.objects.bulk_create(stats.values(), batch_size=500)
    Rating.objects.bulk_create(ratings.values(), batch_size=500)
    return RecomputeSummary(games=games, players=len({uid for uid, _kind in stats}), history_rows=history_rows)
