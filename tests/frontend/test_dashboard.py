"""The signed-in home page is a dashboard: the games awaiting the player (by deadline), those
awaiting someone else (named), invitations and tournaments beside, at a cost that does not grow with
the number of games."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game
from tests.tasks.helpers import play_one_turn
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def game_awaiting(user, creator, other, *, hours: int | None) -> Game:
    game = services.create_game(creator=creator, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=other)
    game = Game.objects.get(pk=game.pk)
    if game.seats.get(index=game.to_act_seat).user_id != user.pk:
        game = play_one_turn(game.public_id)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=hours) if hours else None)
    return game


def test_alices_games_come_in_two_groups_with_whom_she_waits_for(alice, bob, charlie):
    later = game_awaiting(alice, alice, bob, hours=20)
    sooner = game_awaiting(alice, charlie, alice, hours=2)
    bobs = game_awaiting(bob, alice, bob, hours=5)
    response = signed_in(alice).get("/")
    assert [g["id"] for g in response.context["awaiting"]] == [sooner.public_id, later.public_id]
    assert [g["id"] for g in response.context["waiting"]] == [bobs.public_id]
    html = response.content.decode()
    assert "Waiting for bob" in html
    assert html.index(f"/games/{sooner.public_id}/") < html.index(f"/games/{later.public_id}/")
    assert "It is your turn in 2 games." in html  # announced when the number changes


def test_invitations_and_tournaments_stand_beside_the_games(alice, bob):
    invitation = services.create_game(creator=bob, kind="scattle", num_seats=2, invite=["alice"])
    tournament = tournament_services.create_tournament(
        creator=bob, name="Winter cup", kind="scat", format="swiss", table_size=2, rounds=2
    )
    tournament_services.join_tournament(tournament_id=tournament.public_id, user=alice)
    html = signed_in(alice).get("/").content.decode()
    invitations = html[html.index('id="invitations"') : html.index('id="my-tournaments"')]
    assert f"/games/{invitation.public_id}/" in invitations
    assert "Winter cup" in html[html.index('id="my-tournaments"') :]
    assert "not started yet" in html


def test_an_empty_dashboard_says_so(alice):
    html = signed_in(alice).get("/").content.decode()
    assert "No game is waiting for your move." in html
    assert "No invitation is waiting for your answer." in html
    assert "You have entered no tournament." in html


def test_a_vacation_shows_as_a_stopped_clock(alice, bob):
    game_awaiting(bob, alice, bob, hours=None)
    assert "clock stopped" in signed_in(alice).get("/").content.decode()


def queries_for_home(client) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/").status_code == 200
    return len(captured)


def test_the_dashboard_costs_the_same_queries_for_two_games_and_for_ten(alice, bob, charlie):
    client = signed_in(alice)
    for hours in range(2):
        game_awaiting(alice, alice, bob, hours=hours + 1)
    few = queries_for_home(client)
    for hours in range(8):
        game_awaiting((alice, charlie)[hours % 2], alice, charlie, hours=hours + 3)
    assert queries_for_home(client) == few


def test_a_deadline_under_a_minute_away_reads_less_than_a_minute(alice, bob):
    game = game_awaiting(alice, alice, bob, hours=1)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=30))
    html = signed_in(alice).get("/").content.decode()
    assert "less than a minute left" in html and "0\xa0minutes" not in html
