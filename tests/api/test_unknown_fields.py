"""Every request body names only fields its endpoint takes: a misspelt one is a 400 that names it, never
a silent default (a tournament sent "move_time_limt" ran on a day a move)."""

from __future__ import annotations

import pytest

from tournaments.models import Tournament

from .helpers import create_game

pytestmark = pytest.mark.usefixtures("postgres")

BANK = {"initial": 600, "increment": 0, "cap": 600}
TOURNAMENT = {"name": "Cup", "kind": "scat", "format": "swiss", "table_size": 2, "rounds": 1}


@pytest.mark.parametrize(
    ("method", "address", "body", "misspelt"),
    [
        ("post", "/api/v1/tournaments/", {**TOURNAMENT, "move_time_limt": 3600}, "move_time_limt"),
        ("post", "/api/v1/tournaments/", {**TOURNAMENT, "time_bank": {**BANK, "incremnt": 5}}, "time_bank"),
        ("patch", "/api/v1/me/notification-settings/", {"quiet_hour_start": "22:00"}, "quiet_hour_start"),
        ("post", "/api/v1/me/vacation/", {"until": "2099-01-01T00:00:00Z", "unti": 1}, "unti"),
        ("post", "/api/v1/me/tokens/", {"name": "bot", "scope": "all"}, "scope"),
        ("post", "/api/v1/me/blocks/", {"username": "bob", "reason": "rude"}, "reason"),
        ("post", "/api/v1/notifications/read/", {"all": True, "everything": True}, "everything"),
        ("post", "/api/v1/auth/token/", {"username": "alice", "password": "alice-pw-1234", "nam": "x"}, "nam"),
        ("post", "/api/v1/games/", {"kind": "scat", "seats": 2, "time_bank": {**BANK, "cpa": 1}}, "time_bank"),
        ("patch", "/api/v1/me/notification-settings/", {"vacation_days_per_year": 365}, "vacation_days_per_year"),
        ("post", "/api/v1/games/{game}/join/", {"invite_tokn": "x"}, "invite_tokn"),
        ("post", "/api/v1/games/{own_game}/invitations/", {"day": 3}, "day"),
        ("post", "/api/v1/games/{game}/moves/", {"version": 0, "action": {"type": "draw_stock"}, "ver": 1}, "ver"),
        ("post", "/api/v1/me/push-subscriptions/", {"endpoint": "https://push.example/x", "key": {}}, "key"),
    ],
)
def test_a_misspelt_field_is_named_not_ignored(alice_client, bob_client, method, address, body, misspelt):
    if "{game}" in address:  # Bob's game, open
        address = address.format(game=create_game(bob_client, seats=3)["id"])
    if "{own_game}" in address:
        address = address.format(own_game=create_game(alice_client, seats=3)["id"])
    response = getattr(alice_client, method)(address, body, format="json")
    assert response.status_code == 400, response.content
    assert misspelt in response.json()["details"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("address", ["/api/v1/games/", "/api/v1/tournaments/"])
def test_a_limit_per_move_and_a_time_bank_together_are_refused(alice_client, address):
    body = {"kind": "scat", "seats": 2} if address == "/api/v1/games/" else dict(TOURNAMENT)
    both = alice_client.post(address, {**body, "move_time_limit": 60, "time_bank": BANK}, format="json")
    assert both.status_code == 400 and both.json()["code"] == "invalid"
    assert "not both" in both.json()["details"]["time_bank"][0]
    assert alice_client.post(address, {**body, "time_bank": BANK}, format="json").status_code == 201
