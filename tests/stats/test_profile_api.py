"""GET /api/v1/users/{username}/, GET /api/v1/leaderboard/{kind}/ and PATCH /api/v1/me/."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from tests.accounts.helpers import lose_to_bot, two_player_game, win


def test_a_profile_has_statistics_in_total_and_per_kind_and_ratings(anon_client, alice, bob):
    win(alice, bob)
    win(alice, bob, kind="scattle")
    lose_to_bot(alice)

    response = anon_client.get("/api/v1/users/alice/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["username"] == "alice"
    stats = body["statistics"]
    assert stats["games_finished"] == 3
    assert stats["scat"]["games_finished"] == 2
    assert stats["scattle"]["games_finished"] == 1
    assert stats["scat"]["games_won"] == 1
    assert stats["scat"]["win_rate"] == 0.5
    assert {"knocks", "knocks_survived", "thirty_ones", "lives_lost"} <= set(stats["scat"])
    assert {"melds", "points_per_game", "scattles"} <= set(stats["scattle"])
    rating = body["ratings"]["scat"]
    assert rating["games"] == 2 and rating["sigma"] < 8.34 and rating["provisional"] is True
    assert [g["kind"] for g in body["recent_games"]] == ["scat", "scattle", "scat"]
    assert body["recent_games"][0]["players"] == ["alice", "bot (good)"]
    assert body["recent_games"][1]["won"] is True


def test_a_new_player_has_zeros_and_no_rating(anon_client, alice):
    body = anon_client.get("/api/v1/users/alice/").json()
    assert body["statistics"]["games_finished"] == 0
    assert body["statistics"]["scat"]["win_rate"] is None
    assert body["ratings"] == {"scat": None, "scattle": None}
    assert body["recent_games"] == []


def test_usernames_are_looked_up_without_regard_to_case(anon_client, alice):
    response = anon_client.get("/api/v1/users/ALICE/")
    assert response.status_code == 200
    assert response.json()["username"] == "alice"


def test_an_unknown_player_is_a_json_404(anon_client, db):
    response = anon_client.get("/api/v1/users/nobody/")
    assert response.status_code == 404
    body = response.json()
    assert body["code"] == "not_found"
    assert "nobody" in body["message"]


def test_private_games_stay_off_a_profile_for_outsiders(anon_client, alice_client, bob_client, alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"], is_private=True)
    services.join_game(game_id=game.public_id, user=bob)
    services.resign(game_id=game.public_id, user=bob)

    assert anon_client.get("/api/v1/users/alice/").json()["recent_games"] == []
    assert len(bob_client.get("/api/v1/users/alice/").json()["recent_games"]) == 1
    # The result still counts in the statistics, which reveal no game.
    assert anon_client.get("/api/v1/users/alice/").json()["statistics"]["games_won"] == 1


def test_the_leaderboard_ranks_by_conservative_rating(anon_client, alice, bob, charlie):
    win(alice, bob)
    win(alice, bob)
    win(charlie, bob)

    response = anon_client.get("/api/v1/leaderboard/scat/")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3
    assert [e["username"] for e in body["results"]] == ["alice", "charlie", "bob"]
    assert [e["rank"] for e in body["results"]] == [1, 2, 3]
    ordinals = [e["ordinal"] for e in body["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert anon_client.get("/api/v1/leaderboard/scattle/").json()["count"] == 0


def test_the_leaderboard_leaves_out_bots_and_inactive_players(anon_client, alice, bob):
    lose_to_bot(alice)
    win(bob, alice)
    bob.is_active = False
    bob.save()
    assert [e["username"] for e in anon_client.get("/api/v1/leaderboard/scat/").json()["results"]] == ["alice"]


def test_an_unknown_game_kind_has_no_leaderboard(anon_client, db):
    response = anon_client.get("/api/v1/leaderboard/poker/")
    assert response.status_code == 404
    assert "scat or scattle" in response.json()["message"]


def test_alice_edits_her_profile(alice_client, alice):
    response = alice_client.patch(
        "/api/v1/me/", {"display_name": " Alice the Bold ", "time_zone": "Europe/Istanbul", "language": "tr"}
    )
    assert response.status_code == 200, response.json()
    assert response.json()["display_name"] == "Alice the Bold"
    alice.refresh_from_db()
    assert (alice.time_zone, alice.language, alice.email) == ("Europe/Istanbul", "tr", "alice@example.com")


def test_a_bad_time_zone_says_what_to_use(alice_client):
    response = alice_client.patch("/api/v1/me/", {"time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "Mars/Olympus" in body["details"]["time_zone"][0]
    assert "Europe/Istanbul" in body["message"]


def test_a_bad_language_lists_the_choices(alice_client):
    body = alice_client.patch("/api/v1/me/", {"language": "de"}).json()
    assert "en, tr, fa" in body["details"]["language"][0]


def test_a_long_display_name_says_the_limit(alice_client):
    body = alice_client.patch("/api/v1/me/", {"display_name": "x" * 61}).json()
    assert "60 characters" in body["details"]["display_name"][0]


def test_a_bad_email_shows_an_example(alice_client):
    body = alice_client.patch("/api/v1/me/", {"email": "alice-at-home"}).json()
    assert "alice@example.com" in body["details"]["email"][0]


def test_the_username_cannot_be_changed_and_we_say_so(alice_client, alice):
    response = alice_client.patch("/api/v1/me/", {"username": "mallory"})
    assert response.status_code == 400
    assert "cannot be changed" in response.json()["details"]["username"][0]
    alice.refresh_from_db()
    assert alice.username == "alice"


def test_games_in_progress_show_on_the_profile(anon_client, alice, bob):
    two_player_game(alice, bob)
    stats = anon_client.get("/api/v1/users/bob/").json()["statistics"]
    assert (stats["games_played"], stats["games_in_progress"], stats["games_finished"]) == (1, 1, 0)


def test_a_profile_costs_the_same_queries_after_one_game_or_many(anon_client, alice, bob):
    win(alice, bob)
    with CaptureQueriesContext(connection) as one_game:
        anon_client.get("/api/v1/users/alice/")
    for _ in range(5):
        win(alice, bob)
        win(bob, alice, kind="scattle")
    with CaptureQueriesContext(connection) as many_games:
        anon_client.get("/api/v1/users/alice/")
    assert len(one_game) == len(many_games) <= 8


def test_only_rated_games_earn_a_place_on_the_leaderboard(anon_client, alice, bob, charlie):
    win(alice, bob)
    unrated = services.create_game(creator=charlie, kind="scat", num_seats=2, bots=["random"], rated=False)
    services.resign(game_id=unrated.public_id, user=charlie)
    assert [e["username"] for e in anon_client.get("/api/v1/leaderboard/scat/").json()["results"]] == ["alice", "bob"]
    html = anon_client.get("/leaderboard/?kind=scat").content.decode()
    assert "charlie" not in html
    assert "Computer (random)" not in html  # the bot, too, has played no rated game
