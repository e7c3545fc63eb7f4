"""Rematches (Alice and Bob finish a game, both ask for more) and private notes on a game."""

from __future__ import annotations

from functools import partial

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameStatus
from social.models import Rematch
from tests.api.test_concurrency import at_once, racing_client
from tests.conftest import client_for


def finished(alice, bob, **options) -> Game:
    game = services.create_game(
        creator=alice, kind="scattle", num_seats=3, bots=["random"], move_time_limit=3600, rated=False, **options
    )
    services.join_game(game_id=game.public_id, user=bob)
    services.resign(game_id=game.public_id, user=alice)
    services.resign(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


def ask(client: APIClient, game_id: str):
    return client.post(f"/api/v1/games/{game_id}/rematch/", format="json")


@pytest.mark.django_db
def test_both_players_asking_make_one_rematch_that_starts_when_both_are_in(alice, bob):
    original = finished(alice, bob, options={"target_score": 30})
    first = ask(client_for(bob), original.public_id)
    assert first.status_code == 201, first.json()
    new = Game.objects.get(public_id=first.json()["id"])
    assert (new.kind, new.num_seats, new.rated, new.move_time_limit) == ("scattle", 3, False, 3600)
    assert new.options["target_score"] == 30
    assert new.status == GameStatus.OPEN
    assert sorted(s.bot_level for s in new.seats.all() if s.bot_level) == ["random"]
    assert new.seats.get(invited_user=alice)  # Alice is invited

    second = ask(client_for(alice), original.public_id)
    assert second.status_code == 201 and second.json()["id"] == new.public_id
    new.refresh_from_db()
    assert new.status == GameStatus.ACTIVE
    assert ask(client_for(alice), original.public_id).json()["id"] == new.public_id  # asking again: the same
    assert Game.objects.count() == 2 and Rematch.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_both_players_asking_at_once_still_make_one_game(concurrent_database, alice, bob):
    original = finished(alice, bob)
    responses = at_once([partial(ask, racing_client(user), original.public_id) for user in (alice, bob)] * 2)
    assert sorted(r.status_code for r in responses) == [201] * 4
    assert len({r.json()["id"] for r in responses}) == 1
    assert Game.objects.count() == 2
    assert Game.objects.exclude(pk=original.pk).get().status == GameStatus.ACTIVE


@pytest.mark.django_db
def test_who_may_ask_for_a_rematch(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    assert ask(client_for(alice), game.public_id).json()["code"] == "game_not_finished"
    assert ask(client_for(alice), game.public_id).status_code == 409
    services.resign(game_id=game.public_id, user=bob)
    assert ask(client_for(charlie), game.public_id).status_code == 403
    assert ask(APIClient(), game.public_id).status_code in (401, 403)
    assert ask(client_for(alice), "nosuchgame").status_code == 404
    private = services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True, invite=["bob"])
    assert ask(client_for(charlie), private.public_id).status_code == 404


@pytest.mark.django_db
def test_a_note_is_its_writers_alone_and_outlives_the_game(alice, bob, charlie):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    address = f"/api/v1/games/{game.public_id}/notes/"
    assert client_for(alice).get(address).json()["text"] == ""
    saved = client_for(alice).put(address, {"text": "Bob keeps hearts; دسته‌ی کشیدن"}, format="json")
    assert saved.status_code == 200 and saved.json()["text"] == "Bob keeps hearts; دسته‌ی کشیدن"
    assert client_for(bob).get(address).json()["text"] == ""
    assert client_for(charlie).get(address).status_code == 403
    assert client_for(charlie).put(address, {"text": "x"}, format="json").status_code == 403
    services.resign(game_id=game.public_id, user=bob)
    assert client_for(alice).get(address).json()["text"] == "Bob keeps hearts; دسته‌ی کشیدن"
    for body, code in [
        ({"text": "x" * 2001}, "text_too_long"),
        ({"text": "a\x00b"}, "invalid"),
        ({"text": 5}, "invalid"),
        ({"txt": "a"}, "invalid"),
        ({"text": "\u202eevil"}, "bad_character"),
    ]:
        refused = client_for(alice).put(address, body, format="json")
        assert refused.status_code == 400 and refused.json()["code"] == code, (body, refused.json())
    assert client_for(alice).put(address, {"text": ""}, format="json").json()["text"] == ""
    assert "Bob keeps" not in client_for(bob).get(f"/api/v1/games/{game.public_id}/").content.decode()


@pytest.mark.django_db
def test_a_tournament_game_offers_no_rematch(alice, bob):
    from tournaments import services as tournament_services
    from tournaments.models import Table

    tournament = tournament_services.create_tournament(
        creator=alice, name="Winter cup", kind="scat", format="round_robin", table_size=2
    )
    tournament_services.join_tournament(tournament_id=tournament.public_id, user=bob)  # Alice entered as its creator
    tournament_services.start_tournament(tournament_id=tournament.public_id, user=alice)
    game = Table.objects.get(round__tournament=tournament).game
    services.resign(game_id=game.public_id, user=bob)
    refused = ask(client_for(alice), game.public_id)
    assert refused.status_code == 403 and refused.json()["code"] == "tournament_game"
    assert not Rematch.objects.exists()
