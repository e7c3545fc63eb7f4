"""The calendar: the player's feed (stable UIDs, deadlines waiting for them) and the one-event download."""

from __future__ import annotations

import pytest
from django.test import Client
from icalendar import Calendar

from games import services as game_services
from tests.conftest import client_for
from tournaments import ics

from .helpers import make_players

pytestmark = pytest.mark.usefixtures("postgres")


def events(body: bytes) -> dict[str, dict]:
    return {str(e["UID"]): e for e in Calendar.from_ical(body).walk("VEVENT")}


def test_the_feed_lists_the_deadlines_of_games_waiting_for_the_player_with_stable_uids(postgres):
    alice, bob = make_players(2, "cal")
    game = game_services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    game_services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    mover = game.seats.get(index=game.to_act_seat).user
    other = bob if mover == alice else alice
    uid = f"game-{game.public_id}-deadline@127.0.0.1"
    first = events(ics.player_feed(mover))
    assert uid in first
    assert first[uid].decoded("DTSTART") == game.deadline.replace(microsecond=0)
    assert events(ics.player_feed(mover)).keys() == first.keys()  # the same UIDs on every read
    assert uid not in events(ics.player_feed(other))


def test_the_card_table_offers_the_deadline_as_a_one_event_download(postgres):
    alice, bob, eve = make_players(3, "dl")
    game = game_services.create_game(creator=alice, kind="scat", num_seats=2)
    game_services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    response = client_for(alice).get(f"/api/v1/games/{game.public_id}/deadline.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    assert "attachment" in response["Content-Disposition"]
    [event] = Calendar.from_ical(response.content).walk("VEVENT")
    assert event.decoded("DTSTART") == game.deadline.replace(microsecond=0)

    table = Client()
    table.force_login(alice)
    page = table.get(f"/games/{game.public_id}/").content.decode()
    assert f"/api/v1/games/{game.public_id}/deadline.ics" in page

    game_services.resign(game_id=game.public_id, user=bob)
    gone = client_for(alice).get(f"/api/v1/games/{game.public_id}/deadline.ics")
    assert gone.status_code == 409 and gone.json()["code"] == "no_deadline"

    private = game_services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True)
    assert client_for(eve).get(f"/api/v1/games/{private.public_id}/deadline.ics").status_code == 404


def test_an_unknown_feed_address_is_a_404(client, db):
    assert client.get("/calendar/" + "x" * 32 + ".ics").status_code == 404
