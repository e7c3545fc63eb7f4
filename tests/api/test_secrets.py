"""Automated players play whole games through the API while every response is searched for
a card the rules hide from the player who received it."""

from __future__ import annotations

import json
import random
import re

import pytest

from accounts.models import User
from games.engine import get_rules
from games.models import Game
from tests.conftest import client_for, make_user

CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


def cards_in(payload) -> set[str]:
    return set(CARD.findall(json.dumps(payload)))


class Table:
    """The players' clients plus the ground truth, read from the database."""

    def __init__(self, kind: str, users: list[User], options: dict) -> None:
        self.clients = [client_for(u) for u in users]
        self.spectator = client_for(None)
        body = {"kind": kind, "seats": len(users), "options": options}
        self.game_id = self.clients[0].post("/api/v1/games/", body, format="json").json()["id"]
        for client in self.clients[1:]:
            assert client.post(f"/api/v1/games/{self.game_id}/join/").status_code == 200
        self.rules = get_rules(kind)
        self.seen_by = [set() for _ in users]  # cards each seat has legitimately held
        self.public: set[str] = set()  # cards any spectator has been shown
        self.history_cursor = [0] * len(users)
        self.public_at = -1  # the version whose public cards were last read

    def truth(self) -> Game:
        return Game.objects.get(public_id=self.game_id)

    def hidden_from(self, seat: int, game: Game) -> set[str]:
        state = game.state
        others = {card for i, hand in enumerate(state["hands"]) if i != seat for card in hand}
        return (others | set(state["stock"])) - self.public - self.seen_by[seat]

    def refresh_truth(self) -> Game:
        """What a spectator is shown is public; what a seat holds, that seat has seen."""
        game = self.truth()
        if game.version != self.public_at:  # a spectator sees nothing new while nobody moves
            spectator_view = self.spectator.get(f"/api/v1/games/{self.game_id}/").json()
            after = max(0, game.version - 5)
            spectator_moves = self.spectator.get(f"/api/v1/games/{self.game_id}/moves/?after={after}")
            self.public |= cards_in(spectator_view) | cards_in(spectator_moves.json())
            self.public_at = game.version
        for i, hand in enumerate(game.state["hands"]):
            self.seen_by[i] |= set(hand)
        return game

    def observe(self) -> tuple[Game, list[dict]]:
        """Every player reads everything; nothing hidden from them may appear. The game, and what
        each seat was shown of it."""
        game = self.refresh_truth()
        secret_texts = [game.seed] if game.status == "active" else []
        details = []
        for seat, client in enumerate(self.clients):
            details.append(client.get(f"/api/v1/games/{self.game_id}/").json())
            responses = [
                details[-1],
                client.get(
                    f"/api/v1/games/{self.game_id}/moves/?after={self.history_cursor[seat]}&page_size=500"
                ).json(),
                client.get("/api/v1/games/").json(),
            ]
            self.history_cursor[seat] = game.version
            hidden = self.hidden_from(seat, game)
            for response in responses:
                leaked = cards_in(response) & hidden
                assert not leaked, f"seat {seat} was shown {leaked} at version {game.version}"
                text = json.dumps(response)
                assert not any(secret in text for secret in secret_texts), "the seed leaked"
                assert '"stock"' not in text and '"secret"' not in text
        return game, details

    def play(self, rng: random.Random, moves_before_resigning: int = 250) -> Game:
        """Random legal moves; past `moves_before_resigning` (random play can go on for 600 moves, long
        after the first stock rebuild) each player to act resigns instead, which ends the game too."""
        for played in range(moves_before_resigning + len(self.clients)):
            game, details = self.observe()
            if game.status != "active":
                return game
            seat = game.to_act_seat
            if played >= moves_before_resigning:
                response = self.clients[seat].post(f"/api/v1/games/{self.game_id}/resign/", format="json")
                assert response.status_code == 200, response.json()
            else:
                action = rng.choice(details[seat]["legal_actions"])
                response = self.clients[seat].post(
                    f"/api/v1/games/{self.game_id}/moves/",
                    {"action": action, "version": details[seat]["version"]},
                    format="json",
                )
                assert response.status_code == 201, response.json()
            self.observe_move_response(seat, response.json())
        game, _ = self.observe()
        assert game.status != "active", "the game did not end"
        return game

    def observe_move_response(self, seat: int, body) -> None:
        game = self.refresh_truth()
        leaked = cards_in(body) & self.hidden_from(seat, game)
        assert not leaked, f"the move response showed seat {seat} {leaked}"


@pytest.mark.parametrize(
    ("kind", "seats", "options"),
    [
        ("scat", 3, {}),
        ("scat", 2, {"throw_down": True, "allow_stand_after_knock": True}),
        ("scattle", 2, {"target_score": 12}),
        ("scattle", 3, {"lay_off": "own"}),
    ],
)
def test_no_response_shows_a_player_a_hidden_card(db, kind, seats, options):
    users = [make_user(name) for name in ("alice", "bob", "charlie")[:seats]]
    table = Table(kind, users, options)
    finished = table.play(random.Random(f"{kind}-{seats}"))
    assert finished.status == "finished"
    assert finished.outcome["reason"]
