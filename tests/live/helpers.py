"""Helpers of the stream tests: tokens, API clients, and a move played through the API."""

from __future__ import annotations

import random

import httpx

from accounts.models import ApiToken


def token_of(user) -> str:
    return ApiToken.issue(user=user, name="stream tests")[1]


def api(base: str, token: str | None):
    headers = {"Authorization": f"Token {token}"} if token else {}
    return httpx.Client(base_url=base, headers=headers, timeout=20)


def without_clock(detail: dict) -> dict:
    return {k: v for k, v in detail.items() if k != "seconds_left"}


def play_one(clients: dict[int, httpx.Client], game_id: str, rng: random.Random) -> dict:
    detail = clients[0].get(f"/api/v1/games/{game_id}/").json()
    mover = clients[detail["to_act"]]
    mine = mover.get(f"/api/v1/games/{game_id}/").json()
    action = rng.choice(mine["legal_actions"])
    answer = mover.post(f"/api/v1/games/{game_id}/moves/", json={"action": action, "version": mine["version"]})
    assert answer.status_code == 201, answer.text
    return answer.json()["game"]
