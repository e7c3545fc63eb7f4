"""The small things a newcomer meets: the first greeting, the settings page, starting early, the API docs."""

from __future__ import annotations

import re

from django.test import Client

from games import services
from tests.accounts.signing_up import sign_up


def test_the_first_page_after_signing_up_says_welcome_and_the_next_welcome_back(db):
    client = Client()
    finished = sign_up(client, "dora")
    assert finished.status_code == 302
    first = client.get("/").content.decode()
    assert "Welcome, dora." in first and "Welcome back" not in first
    assert "Welcome back, dora." in client.get("/").content.decode()


def test_the_settings_page_puts_the_focus_nowhere(alice):
    client = Client()
    client.force_login(alice)
    html = client.get("/settings/").content.decode()
    assert 'name="old_password"' in html
    assert "autofocus" not in html


def test_starting_early_waits_for_a_second_player(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    client = Client()
    client.force_login(alice)
    start = re.compile(r"<button type=\"submit\"( disabled[^>]*)?>Start now with the players seated</button>")
    assert start.search(client.get(f"/games/{game.public_id}/").content.decode()).group(1)
    services.join_game(game_id=game.public_id, user=bob)
    assert start.search(client.get(f"/games/{game.public_id}/").content.decode()).group(1) is None


def test_the_api_docs_link_back_to_the_site(db):
    html = Client().get("/api/docs/").content.decode()
    assert '<a href="/">Back to Slowhand</a>' in html


def test_a_notice_of_a_moment_ago_reads_just_now_and_an_older_one_its_age(alice):
    import datetime as dt

    from django.utils import timezone, translation

    from frontend.templatetags.localized import ago

    with translation.override("en"):
        assert ago(timezone.now()) == "just now"
        assert ago(timezone.now() - dt.timedelta(minutes=5)) == "5\xa0minutes ago"
    with translation.override("fa"):
        assert "\u06f5" in ago(timezone.now() - dt.timedelta(minutes=5))


def test_a_deadline_under_a_minute_away_reads_less_than_a_minute_never_zero_minutes(alice, bob):
    import datetime as dt

    from django.utils import timezone, translation

    from frontend.templatetags.localized import time_left
    from games.models import Game

    with translation.override("en"):
        assert time_left(timezone.now() + dt.timedelta(seconds=20)) == "less than a minute"
        assert time_left(timezone.now() - dt.timedelta(seconds=5)) == "less than a minute"
        assert time_left(timezone.now() + dt.timedelta(hours=3, seconds=30)) == "3\xa0hours"
    with translation.override("fa"):
        assert time_left(timezone.now() + dt.timedelta(seconds=20)) == "کمتر از یک دقیقه"
        assert "\u06f3" in time_left(timezone.now() + dt.timedelta(hours=3, seconds=30))
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    services.join_game(game_id=game.public_id, user=bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + dt.timedelta(seconds=30))
    client = Client()
    client.force_login(alice)
    html = client.get("/games/").content.decode()
    assert "less than a minute left" in html and "0\xa0minutes" not in html


def test_every_page_tells_its_scripts_the_readers_time_zone(alice):
    alice.time_zone = "Europe/Istanbul"
    alice.save(update_fields=["time_zone"])
    client = Client()
    client.force_login(alice)
    for path in ("/", "/tournaments/", "/notifications/"):
        assert 'data-time-zone="Europe/Istanbul"' in client.get(path).content.decode(), path
    assert 'data-time-zone="UTC"' in Client().get("/tournaments/").content.decode()
