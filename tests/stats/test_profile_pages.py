"""The profile page (statistics, ratings, a server-drawn chart) and the leaderboard page."""

import re
from datetime import UTC, datetime

from django.utils import translation

from games.engine.bots import BOT_LEVELS
from games.models import BotLevel
from stats.charts import rating_chart
from stats.models import RatingHistory
from tests.accounts.helpers import lose_to_bot, win


def test_alices_profile_shows_her_record_rating_and_chart(client, alice, bob):
    games = [win(alice, bob), win(alice, bob), lose_to_bot(alice)]

    response = client.get("/users/alice/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Win rate" in html and "66.7%" in html
    assert "Knocks survived" in html and "Scattles called" in html
    # Three rated games: the rating is still provisional, one sign and no model figures.
    assert "Rating ?" in html and "±" not in html
    assert html.count("<svg") == 1  # only Scat has a rating yet
    assert "<polyline" in html and "<polygon" in html
    # The chart is drawn on the server: no script but the app shell's service worker registration.
    assert "cdn" not in html.lower()
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/frontend/js/app.js">']
    assert all(f'href="/games/{game.public_id}/"' in html for game in games)


def test_the_chart_starts_from_the_first_rating_and_has_a_point_per_game(client, alice, bob):
    for _ in range(3):
        win(alice, bob)
    history = list(RatingHistory.objects.filter(user=alice).values_list("recorded_at", "mu", "sigma"))
    chart = rating_chart(history, from_start=True)
    assert len(chart.points) == 4
    ys = [float(p.y) for p in chart.points]
    assert ys == sorted(ys, reverse=True)  # three wins: each point higher (smaller y) than the last

    html = client.get("/users/alice/").content.decode()
    assert html.count("<circle") == 4


def test_the_charts_axis_reads_on_the_shown_scale_never_below_zero():
    at = datetime(2026, 1, 1, tzinfo=UTC)
    with translation.override("en"):
        chart = rating_chart([(at, 25.0, 1.0), (at, 30.0, 1.0)], from_start=False)
        assert [tick.label for tick in chart.ticks] == ["1,440", "1,560", "1,680", "1,800", "1,920"]
        low = rating_chart([(at, 0.5, 2.0)], from_start=False)
        assert low.ticks and all(not tick.label.startswith("-") for tick in low.ticks)


def test_chart_numbers_are_not_localized(client, alice, bob):
    win(alice, bob)
    history = list(RatingHistory.objects.filter(user=alice).values_list("recorded_at", "mu", "sigma"))
    with translation.override("tr"):
        chart = rating_chart(history, from_start=True)
    assert re.fullmatch(r"[\d.]+,[\d.]+ [\d.]+,[\d.]+", chart.line)


def test_a_profile_address_in_another_case_redirects_to_the_real_one(client, alice):
    response = client.get("/users/ALICE/")
    assert response.status_code == 301
    assert response["Location"] == "/users/alice/"


def test_an_unknown_profile_is_404(client, db):
    assert client.get("/users/nobody/").status_code == 404


def test_a_player_sees_a_link_to_edit_their_own_profile(client, alice, bob):
    client.force_login(alice)
    assert "Edit your profile" in client.get("/users/alice/").content.decode()
    assert "Edit your profile" not in client.get("/users/bob/").content.decode()


def test_the_leaderboard_page_lists_players_by_rank_per_kind(client, alice, bob, charlie):
    win(alice, bob)
    win(alice, bob)
    win(charlie, bob)
    lose_to_bot(charlie)

    html = client.get("/leaderboard/").content.decode()
    positions = [html.index(f'href="/users/{name}/"') for name in ("alice", "charlie", "bob")]
    assert positions == sorted(positions)
    assert "Computer (good)" in html
    assert 'aria-current="page">Scat' in html

    scattle = client.get("/leaderboard/?kind=scattle").content.decode()
    assert "Nobody is rated in this game yet." in scattle


def test_the_leaderboard_names_the_computer_players_in_the_readers_language(client, charlie):
    lose_to_bot(charlie)
    client.cookies["django_language"] = "tr"
    assert "Bilgisayar (iyi)" in client.get("/leaderboard/").content.decode()
    assert set(BotLevel.values) == set(BOT_LEVELS), "every level has its name"


def test_recent_games_name_the_game_and_players_as_every_page_does(client, charlie):
    charlie.display_name = "Charles"
    charlie.save(update_fields=["display_name"])
    lose_to_bot(charlie)
    client.cookies["django_language"] = "fa"
    html = client.get("/users/charlie/").content.decode()
    recent = html[html.index('id="recent-title"') :]
    assert "اسکات (۳۱)" in recent and "Charles (@charlie)" in recent
    assert "رایانه (خوب)" in recent and "bot (good)" not in recent
