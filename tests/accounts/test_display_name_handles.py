"""A display name is shown as "Name (@username)" so that it cannot pass for another player; a display
name that itself carries another player's @handle defeats that: "Alice (@alice) (@mallory)"."""

from __future__ import annotations

import pytest

from tests.conftest import client_for, make_user


@pytest.mark.parametrize("display_name", ["Alice (@alice)", "@alice", "alice (@alice)"])
def test_a_display_name_cannot_carry_another_players_handle(alice, display_name):
    mallory = client_for(make_user("mallory"))

    response = mallory.patch("/api/v1/me/", {"display_name": display_name}, format="json")

    assert response.status_code == 400
    assert "display_name" in response.json()["details"]
