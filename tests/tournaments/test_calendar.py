"""The calendar: the player's feed (stable UIDs, deadlines waiting for them) and the one-event download."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.test import Client
from icalendar import Calendar

from games import services as game_services
from tests.conftest import client_for
from tournaments import ics, services
from tournaments.models import Tournament

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


def test_a_start_stored_at_the_calendars_end_still_shows_in_the_feed_and_to_readers_east_of_utc(postgres):
    """A start at 9999-12-31 23:59 UTC, stored before starts were bounded: the feed lists it, and a
    reader in Tehran (UTC+3:30, where that moment falls in the year 10000) reads the page and the API."""
    alice, bob = make_players(2, "far")
    tournament = services.create_tournament(
        creator=alice, name="Far", kind="scat", format="swiss", table_size=2, rounds=1, starts_at=None
    )
    services.join_tournament(tournament_id=tournament.public_id, user=bob)
    end_of_time = datetime(9999, 12, 31, 23, 59, tzinfo=UTC)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=end_of_time)
    bob.time_zone = "Asia/Tehran"
    bob.save(update_fields=["time_zone"])

    feed = client_for(bob).get(client_for(bob).get("/api/v1/me/calendar/").json()["url"])
    assert feed.status_code == 200
    start = events(feed.content)[f"tournament-{tournament.public_id}-start@127.0.0.1"]
    assert start.decoded("DTSTART") == end_of_time

    reader = Client()
    reader.force_login(bob)
    page = reader.get(f"/tournaments/{tournament.public_id}/")
    assert page.status_code == 200
    assert "9999" in page.content.decode()
    for address in (f"/api/v1/tournaments/{tournament.public_id}/", "/api/v1/tournaments/?status=open"):
        response = reader.get(address)
        assert response.status_code == 200, address
