"""Follows, the challenge from a profile, and the games to watch: Alice follows Bob, Charlie blocks."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from accounts.models import Block
from games import services
from games.models import Game
from social.models import Follow
from stats.models import Rating
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def follow(client, username: str):
    return client.post(f"/api/v1/users/{username}/follow/", format="json")


def test_following_is_one_way_and_counted(alice, bob):
    answer = follow(client_for(alice), "bob")
    assert answer.status_code == 201 and answer.json() == {"following": True, "followers": 1}
    assert follow(client_for(alice), "BOB").status_code == 201  # again: no change
    assert client_for(alice).get("/api/v1/me/following/").json() == [{"username": "bob", "display_name": "bob"}]
    assert client_for(bob).get("/api/v1/me/following/").json() == []
    assert client_for(bob).get("/api/v1/users/alice/follow/").json() == {"following": False, "followers": 0}
    assert client_for(alice).delete("/api/v1/users/bob/follow/").status_code == 204
    assert client_for(alice).delete("/api/v1/users/bob/follow/").status_code == 404
    assert follow(client_for(alice), "nobody").status_code == 404
    assert follow(client_for(alice), "alice").json()["code"] == "follow_self"
    assert follow(APIClient(), "bob").status_code in (401, 403)
    assert client_for(alice).post("/api/v1/users/b%00b/follow/").status_code == 404


def test_a_block_ends_follows_both_ways_and_prevents_new_ones(alice, bob, charlie):
    follow(client_for(alice), "charlie")
    follow(client_for(charlie), "alice")
    follow(client_for(alice), "bob")
    Block.objects.create(blocker=charlie, blocked=alice)
    assert list(Follow.objects.values_list("follower__username", "followed__username")) == [("alice", "bob")]
    refused = follow(client_for(alice), "charlie")
    assert refused.status_code == 403 and refused.json()["code"] == "blocked"
    assert follow(client_for(charlie), "alice").status_code == 403


def test_the_profile_has_follow_and_challenge_and_the_home_page_shows_followed_games(alice, bob, charlie):
    profile = page_client(alice).get("/users/bob/").content.decode()
    assert 'value="follow"' in profile and "/games/new/?challenge=bob" in profile
    assert page_client(alice).post("/users/bob/follow/", {"operation": "follow"}).status_code == 302
    assert Follow.objects.filter(follower=alice, followed=bob).exists()
    assert 'value="unfollow"' in page_client(alice).get("/users/bob/").content.decode()
    assert 'value="follow"' not in page_client(bob).get("/users/bob/").content.decode()  # not on one's own

    public = services.create_game(creator=bob, kind="scat", num_seats=2)
    services.join_game(game_id=public.public_id, user=charlie)
    private = services.create_game(creator=bob, kind="scattle", num_seats=2, is_private=True, invite=["charlie"])
    services.join_game(game_id=private.public_id, user=charlie)
    home = page_client(alice).get("/").content.decode()
    assert f"/games/{public.public_id}/" in home and f"/games/{private.public_id}/" not in home


def test_a_challenge_opens_the_form_with_the_player_invited_and_the_last_games_options(alice, bob):
    game = services.create_game(
        creator=alice, kind="scattle", num_seats=2, options={"target_score": 40}, move_time_limit=7200, rated=False
    )
    services.join_game(game_id=game.public_id, user=bob)
    form = page_client(alice).get("/games/new/?challenge=bob").context["form"]
    assert form.initial["invite"] == "bob"
    assert form.initial["kind"] == "scattle" and form.initial["scattle-target_score"] == 40
    assert form.initial["rated"] is False
    for hostile in ("nobody", "b%00b", "x" * 300, "alice"):
        answer = page_client(alice).get(f"/games/new/?challenge={hostile}")
        assert answer.status_code == 200 and answer.context["form"].initial.get("invite", "") != hostile


def test_the_watch_list_shows_public_games_in_progress_most_recently_moved_first(alice, bob, charlie):
    older = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=older.public_id, user=bob)
    newer = services.create_game(creator=charlie, kind="scat", num_seats=2, bots=["random"])
    hidden = services.create_game(creator=bob, kind="scat", num_seats=2, is_private=True, bots=["good"])
    services.create_game(creator=bob, kind="scat", num_seats=3)  # open, not in progress
    Game.objects.filter(pk=older.pk).update(updated_at=Game.objects.get(pk=newer.pk).updated_at.replace(year=2025))
    listed = APIClient().get("/api/v1/games/?status=active&watchable=1").json()["results"]
    assert [g["id"] for g in listed] == [newer.public_id, older.public_id]
    assert hidden.public_id not in {g["id"] for g in listed}
    assert APIClient().get("/api/v1/games/?watchable=maybe").status_code == 400

    Rating.objects.create(user=alice, kind="scat", mu=27.5, sigma=5, ordinal=12.5, games=3)
    lobby = Client().get("/games/").content.decode()
    assert "Games to watch" in lobby and f"/games/{older.public_id}/" in lobby


def test_the_watch_list_shows_the_one_rating_number_and_a_question_mark_while_provisional(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=3, bots=["good"])
    services.join_game(game_id=game.public_id, user=bob)
    Rating.objects.create(user=alice, kind="scat", mu=27.6, sigma=3, ordinal=18.6, games=12)
    Rating.objects.create(user=bob, kind="scat", mu=-1.8, sigma=8.1, ordinal=-26.1, games=2)
    Rating.objects.create(user=charlie, kind="scat", mu=-1.8, sigma=2, ordinal=-7.8, games=30)
    lobby = Client().get("/games/").content.decode()
    row = lobby[lobby.index(f"/games/{game.public_id}/") - 600 :]
    assert "alice (1,656)" in row and "bob (?)" in row
    assert "Computer (good) (" not in row  # a computer player's shared rating is not a person's
    assert "±" not in lobby and "27.6" not in lobby and "(28)" not in lobby
    with translation.override("fa"):
        from frontend.views import with_ratings

        rows = with_ratings([{"kind": "scat", "usernames": ["charlie", None], "names": ["charlie", "Computer"]}])
    assert rows[0]["players_rated"] == [("charlie", "\u06f0"), ("Computer", None)]  # Persian zero


def test_a_spectators_table_has_no_hand_panel(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    watching = page_client(charlie).get(f"/games/{game.public_id}/").content.decode()
    assert 'class="mine panel" aria-labelledby="hand-title" hidden' in watching
    assert 'id="chat"' not in watching and 'id="note"' not in watching
    playing = page_client(alice).get(f"/games/{game.public_id}/").content.decode()
    assert 'aria-labelledby="hand-title">' in playing and 'id="chat"' in playing and 'id="note"' in playing
    assert "rematch-button" not in playing
    services.resign(game_id=game.public_id, user=bob)
    assert "rematch-button" in page_client(alice).get(f"/games/{game.public_id}/").content.decode()


def test_the_settings_page_switches_table_talk_and_lifts_mutes(alice, bob):
    from social.models import ChatMute

    ChatMute.objects.create(user=alice, muted=bob)
    page = page_client(alice).get("/settings/").content.decode()
    assert 'id="table-talk"' in page and 'value="phrases"' in page and ">bob</a>" in page
    saved = page_client(alice).post("/settings/table-talk/", {"chat": "phrases"})
    assert saved.status_code == 302
    alice.refresh_from_db()
    assert alice.chat == "phrases"
    page_client(alice).post("/settings/table-talk/", {"chat": "shouting"})
    alice.refresh_from_db()
    assert alice.chat == "phrases"
    assert page_client(alice).post("/settings/mutes/remove/", {"username": "bob"}).status_code == 302
    assert not ChatMute.objects.exists()
    assert page_client(alice).post("/settings/mutes/remove/", {"username": "b\x00b"}).status_code == 302
