"""Scat's hand limit (rules A10d) through the API: its default, the preset, the rules endpoint, the
schema, and a refusal naming the option."""

from __future__ import annotations

from .helpers import create_game


def test_a_scat_game_has_the_hand_limit_by_default_and_the_original_preset_has_none(alice_client):
    assert create_game(alice_client, kind="scat", seats=2)["options"]["max_hands"] == 60
    assert create_game(alice_client, kind="scat", seats=2, preset="original")["options"]["max_hands"] is None
    chosen = create_game(alice_client, kind="scat", seats=2, options={"max_hands": 25})
    assert chosen["options"]["max_hands"] == 25


def test_a_hand_limit_out_of_range_is_a_400_naming_the_option(alice_client):
    for bad in (9, 1001, "sixty", True):
        response = alice_client.post(
            "/api/v1/games/", {"kind": "scat", "seats": 2, "options": {"max_hands": bad}}, format="json"
        )
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "bad_option" and "max_hands" in body["message"]


def test_the_rules_endpoint_and_the_schema_describe_the_hand_limit(anon_client, db):
    options = {spec["name"]: spec for spec in anon_client.get("/api/v1/rules/scat/").json()["options"]}
    assert options["max_hands"] == {**options["max_hands"], "type": "int_or_null", "default": 60, "min": 10}
    schema = anon_client.get("/api/schema/?format=json").json()
    create = schema["components"]["schemas"]["GameCreateRequest"]["properties"]
    assert "max_hands" in create["options"]["description"]
    assert "game's hands" in create["preset"]["description"]
