"""The second edition through the API: auto options resolved when a game starts, the preset, and the
rules endpoint that lists options, presets and the auto table."""

from __future__ import annotations

from games.engine.scattle import AUTO_DECKS, AUTO_TARGETS

from .helpers import create_game


def test_auto_options_wait_for_the_start_and_then_show_the_real_numbers(alice_client, bob_client, charlie_client):
    created = create_game(alice_client, kind="scattle", seats=4)
    assert (created["options"]["deck_count"], created["options"]["target_score"]) == ("auto", "auto")
    bob_client.post(f"/api/v1/games/{created['id']}/join/")
    charlie_client.post(f"/api/v1/games/{created['id']}/join/")
    started = alice_client.post(f"/api/v1/games/{created['id']}/start/").json()  # three players, not four

    decks = AUTO_DECKS[3]
    assert started["options"]["deck_count"] == decks
    assert started["options"]["target_score"] == AUTO_TARGETS[(decks, 3)]
    assert started["state"]["options"] == started["options"]


def test_the_original_preset_plays_the_seeds_numbers(alice_client, bob_client):
    created = create_game(alice_client, kind="scattle", seats=2, preset="original")
    started = bob_client.post(f"/api/v1/games/{created['id']}/join/").json()
    options = started["options"]
    assert (options["deck_count"], options["target_score"], options["tie_rule"]) == (1, 25, "shared")


def test_options_given_with_a_preset_override_it(alice_client):
    created = create_game(alice_client, kind="scattle", seats=2, preset="original", options={"target_score": 30})
    assert (created["options"]["deck_count"], created["options"]["target_score"]) == (1, 30)


def test_the_scat_original_preset_has_no_round_limit(alice_client, bob_client):
    created = create_game(alice_client, kind="scat", seats=2, preset="original")
    assert created["options"]["max_rounds_per_hand"] is None
    assert create_game(alice_client, kind="scat", seats=2)["options"]["max_rounds_per_hand"] == 30


def test_an_unknown_preset_is_a_400(alice_client):
    response = alice_client.post("/api/v1/games/", {"kind": "scattle", "seats": 2, "preset": "seed"}, format="json")
    assert response.status_code == 400
    assert response.json()["details"]["preset"]


def test_auto_options_are_checked_against_the_seats_at_creation(alice_client):
    response = alice_client.post(
        "/api/v1/games/", {"kind": "scattle", "seats": 7, "options": {"deck_count": 1}}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["code"] == "bad_option"


def test_the_rules_endpoint_lists_options_presets_and_the_auto_table(anon_client, db):
    body = anon_client.get("/api/v1/rules/scattle/").json()
    options = {spec["name"]: spec for spec in body["options"]}
    assert options["deck_count"]["default"] == "auto" and options["deck_count"]["auto"] is True
    assert options["tie_rule"]["default"] == "first_to_reach"
    assert body["presets"]["original"] == {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}
    row = next(row for row in body["auto"] if row["seats"] == 5)
    assert row["deck_count"] == AUTO_DECKS[5] and row["target_score"] == AUTO_TARGETS[(AUTO_DECKS[5], 5)]
    assert body["seats"] == {"min": 2, "max": 8}
    scat = anon_client.get("/api/v1/rules/scat/").json()
    assert scat["auto"] == [] and "max_rounds_per_hand" in {spec["name"] for spec in scat["options"]}
    assert anon_client.get("/api/v1/rules/poker/").status_code == 404
