"""A game is rated unless its creator says otherwise; only unrated games may offer advice, and
an unrated game changes no rating (its players' statistics still count it)."""

from __future__ import annotations

from stats.models import PlayerStats, Rating, RatingHistory
from tests.api.helpers import create_game, started_two_player_game


def test_games_are_rated_without_advice_by_default(alice_client):
    created = create_game(alice_client)
    assert (created["rated"], created["advice"]) == (True, False)
    listed = alice_client.get("/api/v1/games/?status=open").json()["results"]
    assert {(g["id"], g["rated"], g["advice"]) for g in listed} >= {(created["id"], True, False)}


def test_advice_needs_an_unrated_game(alice_client):
    refused = alice_client.post("/api/v1/games/", {"kind": "scat", "seats": 2, "advice": True}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "advice_in_rated_game"
    created = create_game(alice_client, rated=False, advice=True)
    assert (created["rated"], created["advice"]) == (False, True)


def test_an_unrated_game_changes_no_rating(alice_client, bob_client, alice, bob):
    game = started_two_player_game(alice_client, bob_client, rated=False)
    assert alice_client.post(f"/api/v1/games/{game['id']}/resign/", format="json").status_code == 200
    assert RatingHistory.objects.count() == 0
    assert not Rating.objects.filter(user__in=[alice, bob]).exclude(games=0).exists()
    assert PlayerStats.objects.get(user=bob, kind="scat").games_won == 1


def test_a_rated_game_does(alice_client, bob_client, bob):
    game = started_two_player_game(alice_client, bob_client)
    assert alice_client.post(f"/api/v1/games/{game['id']}/resign/", format="json").status_code == 200
    assert RatingHistory.objects.filter(user=bob).count() == 1
