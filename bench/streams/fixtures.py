"""The bench database's players, spectators and games, and the moves made in them."""

from __future__ import annotations

import math

from bench.streams.players import Table

KIND = "scat"
OPTIONS = {"initial_tokens": 99}  # 99 lives: a game outlasts the run, so the tables stay the same
BOT_EVERY = 5  # one game in five is against the good bot
BOT_LEVEL = "good"


def make_users(prefix: str, count: int) -> list[tuple[int, str]]:
    """`count` users with an API token each: (user id, key)."""
    from accounts.models import ApiToken, User

    users = User.objects.bulk_create(
        [User(username=f"{prefix}-{i:04d}", password="!", email=f"{prefix}-{i}@example.com") for i in range(count)]
    )
    return [(user.pk, ApiToken.issue(user=user, name="bench")[1]) for user in users]


def make_tables(games: int) -> list[Table]:
    """Two-seat Scat games, started: one in BOT_EVERY against the bot, the others between two players."""
    from accounts.models import User
    from games import services
    from games.models import Game

    bots = sum(1 for i in range(games) if i % BOT_EVERY == 0)
    players = iter(make_users("player", 2 * games - bots))
    tables = []
    for i in range(games):
        bot = i % BOT_EVERY == 0
        first = next(players)
        creator = User.objects.get(pk=first[0])
        game = services.create_game(
            creator=creator, kind=KIND, num_seats=2, options=OPTIONS, bots=[BOT_LEVEL] if bot else None
        )
        tokens = {0: first[1]}
        if not bot:
            second = next(players)
            services.join_game(game_id=game.public_id, user=User.objects.get(pk=second[0]))
            tokens[1] = second[1]
        game = Game.objects.get(pk=game.pk)
        tables.append(Table(game.public_id, tokens, game.revision - game.version, game.version, bot))
    return tables


def stream_plan(tables: list[Table], spectators: list[tuple[int, str]], count: int) -> list[tuple]:
    """Who opens which stream, in order: every player's own, then spectators round the tables, each
    spectator holding as many streams as a player may."""
    from live.leases import MAX_STREAMS

    plan = [(table, seat, token) for table in tables for seat, token in table.tokens.items()]
    for i in range(max(0, count - len(plan))):
        plan.append((tables[i % len(tables)], None, spectators[i // MAX_STREAMS][1]))
    return plan[:count]


def spectators_needed(tables: list[Table], most: int) -> int:
    from live.leases import MAX_STREAMS

    players = sum(len(t.tokens) for t in tables)
    return math.ceil(max(0, most - players) / MAX_STREAMS)


def moves_of(game_ids: list[str]) -> dict[str, list[tuple[int, float, bool]]]:
    """Every move of these games: (revision, commit time as Move.created_at, by a bot), in order."""
    from django.db import connections

    from games.models import Move

    found: dict[str, list[tuple[int, float, bool]]] = {game: [] for game in game_ids}
    rows = Move.objects.filter(game__public_id__in=game_ids).order_by("game_id", "revision")
    columns = ("game__public_id", "revision", "created_at", "by_server")
    for game, revision, created, by_server in rows.values_list(*columns):
        found[game].append((revision, created.timestamp(), by_server == "bot"))
    connections.close_all()
    return found
