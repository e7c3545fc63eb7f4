"""The tournaments API: the contract's shapes, and every refusal a 4xx in the error shape."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.conftest import client_for
from tournaments.models import Tournament

pytestmark = pytest.mark.usefixtures("postgres")

SWISS = {
    "name": "Autumn Scat",
    "kind": "scat",
    "format": "swiss",
    "table_size": 3,
    "rounds": 3,
    "move_time_limit": 3600,
    "max_players": 8,
    "bots_fill": False,
    "options": {"initial_tokens": 1},
}


def assert_error(response, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    if code:
        assert body["code"] == code


def create(client, **changes) -> dict:
    response = client.post("/api/v1/tournaments/", {**SWISS, **changes}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_creating_a_tournament_answers_201_with_its_detail(alice_client):
    body = create(alice_client)
    assert body["status"] == "open"
    assert body["players"] == ["alice"] and body["you"]["entered"] and body["you"]["is_creator"]
    assert body["standings"] == [
        {"player": "alice", "points": 0, "games": 0, "place": 1, "byes": 0, "opponents_points": 0, "withdrawn": False}
    ]
    assert body["rounds"] == []
    assert body["vacation"] == "ignored" and body["timeout_policy"] == "autoplay"
    assert body["move_time_limit"] == 3600 and body["time_bank"] is None
    assert Tournament.objects.get(public_id=body["id"]).pk != body["id"]  # an opaque id, never the pk
    assert not body["id"].isdigit() and len(body["id"]) >= 10


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"format": "knockout"}, "invalid"),
        ({"table_size": 10}, "invalid"),
        ({"format": "round_robin", "table_size": 3}, "bad_table_size"),
        ({"rounds": None}, "bad_rounds"),
        ({"kind": "scattle", "table_size": 9}, "bad_table_size"),
        ({"options": {"initial_tokens": 0}}, "bad_option"),
        ({"options": {"min_players": 3}}, "bad_option"),  # smaller tables of two would break it
        ({"starts_at": "2001-01-01T00:00:00Z"}, "bad_starts_at"),
        ({"vacation": "sometimes"}, "invalid"),
        ({"time_bank": {"initial": 10, "increment": 0, "cap": 5}}, "invalid"),
        ({"name": ""}, "invalid"),
    ],
)
def test_bad_input_is_a_400_in_the_error_shape(alice_client, changes, code):
    assert_error(alice_client.post("/api/v1/tournaments/", {**SWISS, **changes}, format="json"), 400, code)


def test_anonymous_visitors_read_but_cannot_create_or_join(anon_client, alice_client):
    body = create(alice_client)
    assert anon_client.get(f"/api/v1/tournaments/{body['id']}/").status_code == 200
    assert anon_client.get("/api/v1/tournaments/").status_code == 200
    assert_error(anon_client.post("/api/v1/tournaments/", SWISS, format="json"), 401)
    assert_error(anon_client.post(f"/api/v1/tournaments/{body['id']}/join/"), 401)


def test_the_list_filters_by_status(alice_client, bob_client):
    open_one = create(alice_client, name="Open")
    running = create(alice_client, name="Running")
    bob_client.post(f"/api/v1/tournaments/{running['id']}/join/")
    assert alice_client.post(f"/api/v1/tournaments/{running['id']}/start/").status_code == 200
    listed = {status: [t["id"] for t in alice_client.get(f"/api/v1/tournaments/?status={status}").json()["results"]]
              for status in ("open", "running", "finished")}  # fmt: skip
    assert listed == {"open": [open_one["id"]], "running": [running["id"]], "finished": []}
    assert_error(alice_client.get("/api/v1/tournaments/?status=cancelled"), 400)


def test_join_leave_start_and_their_refusals(alice_client, bob_client, charlie_client):
    t = create(alice_client, max_players=2)
    url = f"/api/v1/tournaments/{t['id']}"
    assert bob_client.post(f"{url}/join/").json()["players"] == ["alice", "bob"]
    assert_error(bob_client.post(f"{url}/join/"), 409, "already_entered")
    assert_error(charlie_client.post(f"{url}/join/"), 409, "tournament_full")
    assert_error(charlie_client.post(f"{url}/leave/"), 403, "not_entered")
    assert_error(bob_client.post(f"{url}/start/"), 403, "not_creator")
    assert_error(bob_client.post(f"{url}/withdraw/"), 409, "not_running")
    started = alice_client.post(f"{url}/start/").json()
    assert started["status"] == "running" and started["current_round"] == 1
    [round_] = started["rounds"]
    assert round_["byes"] == [] and len(round_["tables"]) == 1
    assert sorted(round_["tables"][0]["players"]) == ["alice", "bob"]
    assert started["you"]["table"] == round_["tables"][0]["game"]
    assert_error(bob_client.post(f"{url}/leave/"), 409, "tournament_not_open")
    assert_error(charlie_client.post(f"{url}/join/"), 409, "tournament_not_open")
    assert_error(alice_client.post(f"{url}/start/"), 409, "tournament_not_open")
    withdrawn = bob_client.post(f"{url}/withdraw/").json()
    assert withdrawn["you"]["withdrawn"] and withdrawn["status"] == "finished"  # one player left
    assert_error(bob_client.post(f"{url}/withdraw/"), 409)


def test_the_creator_calls_off_an_open_tournament_and_the_players_are_told(alice_client, bob_client, charlie_client):
    t = create(alice_client)
    url = f"/api/v1/tournaments/{t['id']}"
    bob_client.post(f"{url}/join/")
    assert_error(bob_client.post(f"{url}/cancel/"), 403, "not_creator")

    called_off = alice_client.post(f"{url}/cancel/").json()
    assert (called_off["status"], called_off["cancelled"], called_off["cancel_reason"]) == ("finished", True, "creator")
    assert_error(charlie_client.post(f"{url}/join/"), 409, "tournament_not_open")
    assert_error(alice_client.post(f"{url}/start/"), 409, "tournament_not_open")
    assert_error(alice_client.post(f"{url}/cancel/"), 409, "tournament_not_open")

    def told(client) -> list[dict]:
        notices = client.get("/api/v1/notifications/").json()["results"]
        return [n for n in notices if n["kind"] == "tournament_over"]

    [bobs] = told(bob_client)
    assert bobs["text"] == "Autumn Scat was called off by its creator." and bobs["payload"]["reason"] == "creator"
    assert told(alice_client) == [], "she called it off herself"


def test_a_running_tournament_cannot_be_called_off(alice_client, bob_client):
    t = create(alice_client)
    bob_client.post(f"/api/v1/tournaments/{t['id']}/join/")
    alice_client.post(f"/api/v1/tournaments/{t['id']}/start/")
    assert_error(alice_client.post(f"/api/v1/tournaments/{t['id']}/cancel/"), 409, "tournament_not_open")
    assert alice_client.get(f"/api/v1/tournaments/{t['id']}/").json()["cancel_reason"] is None


def test_unknown_and_malformed_ids_are_404s(alice_client):
    assert_error(alice_client.get("/api/v1/tournaments/nosuchthing/"), 404)
    assert_error(alice_client.post("/api/v1/tournaments/nosuchthing/join/"), 404)
    assert_error(alice_client.get("/api/v1/tournaments/%00/"), 404)
    assert_error(alice_client.get("/api/v1/tournaments/1/"), 404)


def test_the_calendar_address_is_stable_until_rotated_and_a_password_change_rotates_it(alice, alice_client):
    from accounts.services import password_changed

    first = alice_client.get("/api/v1/me/calendar/").json()["url"]
    assert alice_client.get("/api/v1/me/calendar/").json()["url"] == first
    assert first.endswith(".ics")
    rotated = alice_client.post("/api/v1/me/calendar/").json()["url"]
    assert rotated != first
    assert alice_client.get(first).status_code == 404
    assert alice_client.get(rotated).status_code == 200
    password_changed(user=alice)
    after = client_for(alice).get("/api/v1/me/calendar/").json()["url"]
    assert after != rotated
    assert alice_client.get(rotated).status_code == 404


def test_starts_at_in_the_future_is_kept_and_shown(alice_client):
    when = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    body = create(alice_client, starts_at=when.isoformat())
    assert body["starts_at"].startswith(when.strftime("%Y-%m-%dT%H:%M"))


@pytest.mark.parametrize(
    "starts_at",
    [
        "9999-12-31T23:00:00Z",
        "9999-12-31T23:59:59-14:00",  # past the calendar's end in UTC
        "0001-01-01T00:00:00+05:00",  # before its start
        "2100-01-01T00:00:00Z",
    ],
)
def test_a_start_past_a_year_ahead_is_a_400(alice_client, starts_at):
    response = alice_client.post("/api/v1/tournaments/", {**SWISS, "starts_at": starts_at}, format="json")
    assert_error(response, 400)
    assert "starts_at" in response.json()["details"]
    assert not Tournament.objects.exists()


def test_a_start_a_year_ahead_is_the_last_one_taken(alice_client):
    year = timedelta(days=365)
    assert_error(
        alice_client.post(
            "/api/v1/tournaments/",
            {**SWISS, "starts_at": (timezone.now() + year + timedelta(minutes=5)).isoformat()},
            format="json",
        ),
        400,
        "bad_starts_at",
    )
    create(alice_client, starts_at=(timezone.now() + year - timedelta(minutes=5)).isoformat())


def test_a_time_bank_and_the_vacation_policy_are_taken(alice_client):
    bank = {"initial": 3600, "increment": 60, "cap": 7200}
    per_move = {name: value for name, value in SWISS.items() if name != "move_time_limit"}
    sent = {**per_move, "time_bank": bank, "vacation": "pauses", "timeout_policy": "forfeit"}
    body = alice_client.post("/api/v1/tournaments/", sent, format="json").json()
    assert body["time_bank"] == bank and body["vacation"] == "pauses" and body["timeout_policy"] == "forfeit"


def test_the_calendar_needs_a_signed_in_player(anon_client):
    assert_error(anon_client.get("/api/v1/me/calendar/"), 401)
    assert_error(anon_client.post("/api/v1/me/calendar/"), 401)


def test_the_schema_documents_the_tournament_endpoints(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in [
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{tournament_id}/",
        "/api/v1/tournaments/{tournament_id}/join/",
        "/api/v1/tournaments/{tournament_id}/leave/",
        "/api/v1/tournaments/{tournament_id}/start/",
        "/api/v1/tournaments/{tournament_id}/withdraw/",
        "/api/v1/me/calendar/",
        "/api/v1/games/{game_id}/deadline.ics",
    ]:
        assert path in paths, path


def test_players_hear_that_their_round_started_and_that_the_tournament_is_over(alice_client, bob_client, bob):
    from games import services as game_services

    t = create(alice_client, table_size=2, rounds=1)
    bob_client.post(f"/api/v1/tournaments/{t['id']}/join/")
    started = alice_client.post(f"/api/v1/tournaments/{t['id']}/start/").json()
    game_id = started["rounds"][0]["tables"][0]["game"]
    notices = bob_client.get("/api/v1/notifications/").json()["results"]
    [round_started] = [n for n in notices if n["kind"] == "round_started"]
    assert round_started["payload"] == {"tournament": t["id"], "name": "Autumn Scat", "round": 1, "game": game_id}
    assert round_started["game"] == game_id
    game_services.resign(game_id=game_id, user=bob)
    notices = bob_client.get("/api/v1/notifications/").json()["results"]
    [over] = [n for n in notices if n["kind"] == "tournament_over"]
    assert over["payload"] == {
        "tournament": t["id"],
        "name": "Autumn Scat",
        "round": 1,
        "game": None,
        "place": 2,
        "points": 0,
    }
    assert "card" not in str(over["payload"]) and "hand" not in str(over["payload"])
