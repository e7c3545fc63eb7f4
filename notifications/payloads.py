"""What a notice about a game holds: its id and kind and, for a turn, whom the player sits with. Names
only (never a card); the texts render them in the reader's language when the notice is read."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat


def game_payload(game: Game) -> dict[str, Any]:
    return {"game": game.public_id, "kind": game.kind}


def table_company(seats: list[Seat], user_id: int) -> list[dict[str, str]]:
    """The other players at the table, in seat order: a person by name, a computer by its level (named
    in the reader's language when the notice is read). The seats' users must be loaded."""
    company = []
    for seat in seats:
        if seat.user_id and seat.user_id != user_id:
            company.append({"username": seat.user.username, "name": seat.user.public_name})
        elif seat.bot_level:
            company.append({"bot": seat.bot_level})
    return company


def turn_payload(game: Game, seats: list[Seat], user_id: int) -> dict[str, Any]:
    """A "your turn" or "time running out" notice's payload: the game, and the company it names."""
    return {**game_payload(game), "with": table_company(seats, user_id)}
