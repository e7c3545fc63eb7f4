"""After a game: each rated player's rating before and after it, as the table's end panel shows them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from stats.models import Rating, RatingHistory
from stats.ratings import INITIAL_MU, shown_value
from tests.accounts.helpers import lose_to_bot, two_player_game, win
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def ratings_of(game, user=None) -> dict:
    response = client_for(user).get(f"/api/v1/games/{game.public_id}/ratings/")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_first_game_shows_the_start_rating_before_and_the_new_one_after_both_provisional(alice, bob):
    game = win(alice, bob)

    body = ratings_of(game, alice)
    assert body["rated"] is True
    by_name = {change["username"]: change for change in body["changes"]}
    assert [change["seat"] for change in body["changes"]] == [0, 1]
    alice_change = by_name["alice"]
    assert alice_change["before"]["mu"] == pytest.approx(INITIAL_MU, abs=1e-3)
    assert alice_change["before"]["games"] == 0 and alice_change["after"]["games"] == 1
    assert alice_change["after"]["mu"] == pytest.approx(Rating.objects.get(user=alice, kind="scat").mu, abs=1e-3)
    assert alice_change["after"]["mu"] > alice_change["before"]["mu"] > by_name["bob"]["after"]["mu"]
    # Fewer than five rated games: the one number reads "?".
    assert alice_change["before"]["provisional"] and alice_change["after"]["shown"] is None


def test_a_later_game_starts_from_the_rating_the_previous_one_left_and_shows_the_number(alice, bob):
    for _ in range(5):
        win(alice, bob)
    sixth = win(bob, alice)
    fifth_row = RatingHistory.objects.filter(user=alice, kind="scat").order_by("-recorded_at", "-pk")[1]

    change = next(c for c in ratings_of(sixth, bob)["changes"] if c["username"] == "alice")
    assert change["before"]["mu"] == pytest.approx(fifth_row.mu, abs=1e-3)
    assert change["before"]["games"] == 5 and not change["before"]["provisional"]
    assert change["before"]["shown"] == shown_value(fifth_row.mu)
    assert change["after"]["shown"] == shown_value(Rating.objects.get(user=alice, kind="scat").mu)
    assert change["after"]["shown"] < change["before"]["shown"]  # she lost this one


def test_an_earlier_game_keeps_the_ratings_it_gave_after_later_games(alice, bob):
    first = win(alice, bob)
    win(bob, alice)
    change = next(c for c in ratings_of(first)["changes"] if c["username"] == "alice")
    assert change["after"]["games"] == 1
    assert change["after"]["mu"] == pytest.approx(RatingHistory.objects.get(game=first, user=alice).mu, abs=1e-3)


def test_bots_unrated_and_unfinished_games_have_no_changes(alice, bob):
    against_bot = lose_to_bot(alice)
    assert [c["username"] for c in ratings_of(against_bot, alice)["changes"]] == ["alice"]

    unrated = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"], rated=False)
    services.join_game(game_id=unrated.public_id, user=bob)
    services.resign(game_id=unrated.public_id, user=bob)
    assert ratings_of(unrated, alice) == {"rated": False, "changes": []}

    running = two_player_game(alice, bob)
    assert ratings_of(running, alice)["changes"] == []


def test_a_private_game_is_not_found_for_others_and_a_bad_id_is_a_json_404(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"], is_private=True)
    response = client_for(charlie).get(f"/api/v1/games/{game.public_id}/ratings/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert client_for(None).get("/api/v1/games/nosuchgame000/ratings/").status_code == 404


def test_the_changes_take_a_constant_number_of_queries_however_long_the_histories(alice, bob, charlie):
    game = win(alice, bob)
    client = client_for(charlie)
    client.get(f"/api/v1/games/{game.public_id}/ratings/")  # token look-up warmed
    with CaptureQueriesContext(connection) as short:
        client.get(f"/api/v1/games/{game.public_id}/ratings/")
    for _ in range(6):
        win(alice, bob)
    last = win(bob, alice)
    with CaptureQueriesContext(connection) as long:
        client.get(f"/api/v1/games/{last.public_id}/ratings/")
    assert len(long) == len(short) <= 8


def test_the_profile_and_the_leaderboard_give_the_shown_number_beside_mu_and_sigma(alice, bob):
    for _ in range(5):
        win(alice, bob)
    rating = client_for(None).get("/api/v1/users/alice/").json()["ratings"]["scat"]
    assert rating["shown"] == shown_value(Rating.objects.get(user=alice, kind="scat").mu)
    assert "mu" in rating and "sigma" in rating
    Rating.objects.filter(user=bob).update(games=3)
    board = client_for(None).get("/api/v1/leaderboard/scat/").json()["results"]
    assert {entry["username"]: entry["shown"] is None for entry in board} == {"alice": False, "bob": True}
