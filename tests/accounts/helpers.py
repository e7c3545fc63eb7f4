"""Finished games, made quickly through the real services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from accounts.models import User
from games import services
from games.engine import get_rules
from games.models import Game, GameStatus

Policy = Callable[[list[dict[str, Any]]], dict[str, Any]]


def scat_knocker(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Knocks whenever allowed, else draws from the stock and throws the first card."""
    for wanted in ({"type": "knock"}, {"type": "draw_stock"}):
        if wanted in legal:
            return wanted
    return next(a for a in legal if a["type"] == "discard")


def scattle_melder(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Lays down the first meld it can, else draws from the stock and throws the first card."""
    meld = next((a for a in legal if a["type"] == "meld"), None)
    if meld is not None:
        return meld
    if {"type": "draw_stock"} in legal:
        return {"type": "draw_stock"}
    return next(a for a in legal if a["type"] == "discard")


def drawer(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Never knocks: draws from the stock and throws the first card."""
    if {"type": "draw_stock"} in legal:
        return {"type": "draw_stock"}
    return next(a for a in legal if a["type"] == "discard")


def play_out(game: Game, players: dict[int, User], policy: Policy, *, limit: int = 5000) -> Game:
    """Play the game to its end: bots by the server, people by `policy`."""
    for _ in range(limit):
        services.play_bot_moves(game_id=game.public_id)
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        rules = get_rules(game.kind)
        seat = game.to_act_seat
        action = policy(rules.legal_actions(rules.from_json(game.state), seat))
        services.submit_move(game_id=game.public_id, user=players[seat], action=action, version=game.version)
    raise AssertionError(f"{game} did not end within {limit} moves")


def two_player_game(creator: User, opponent: User, kind: str = "scat") -> Game:
    game = services.create_game(creator=creator, kind=kind, num_seats=2, invite=[opponent.username])
    services.join_game(game_id=game.public_id, user=opponent)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def win(winner: User, loser: User, kind: str = "scat") -> Game:
    """A finished two-player game that `winner` wins because `loser` resigns."""
    game = two_player_game(winner, loser, kind)
    services.resign(game_id=game.public_id, user=loser)
    game.refresh_from_db()
    return game


def lose_to_bot(user: User, kind: str = "scat", level: str = "good") -> Game:
    game = services.create_game(creator=user, kind=kind, num_seats=2, bots=[level])
    services.resign(game_id=game.public_id, user=user)
    game.refresh_from_db()
    return game


def finish_in_order(users: list[User], kind: str = "scat") -> Game:
    """A game of these players in which they resign from the last: users[0] wins, users[-1] is last."""
    game = services.create_game(
        creator=users[0], kind=kind, num_seats=len(users), invite=[u.username for u in users[1:]]
    )
    for user in users[1:]:
        services.join_game(game_id=game.public_id, user=user)
    for user in reversed(users[1:]):
        services.resign(game_id=game.public_id, user=user)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game
