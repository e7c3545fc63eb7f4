"""Helpers for driving games through the API."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient


def create_game(client: APIClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/v1/games/", {"kind": "scat", "seats": 2, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def game(client: APIClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}/")
    assert response.status_code == 200, response.json()
    return response.json()


def move(client: APIClient, game_id: str, action: dict[str, Any], version: int, **headers: str):
    return client.post(
        f"/api/v1/games/{game_id}/moves/", {"action": action, "version": version}, format="json", **headers
    )


def started_two_player_game(alice_client: APIClient, bob_client: APIClient, **body: Any) -> dict[str, Any]:
    created = create_game(alice_client, **body)
    response = bob_client.post(f"/api/v1/games/{created['id']}/join/", format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "active"
    return response.json()


def client_to_act(detail: dict[str, Any], clients: dict[int, APIClient]) -> APIClient:
    return clients[detail["to_act"]]
