"""After a game and while a player is away: the end panel's ratings and its way on, a tournament table's
header, and an opponent's vacation on their seat."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games import services, vacations
from games.models import Game
from stats.models import RatingHistory
from stats.ratings import shown_value
from tests.accounts.helpers import win
from tests.browser.axe import axe_violations
from tests.browser.test_languages import log_in
from tests.conftest import make_user
from tournaments import services as tournament_services

pytestmark = [pytest.mark.services]


@pytest.fixture
def players(transactional_db):
    return make_user("alice"), make_user("bob")


def test_the_end_panel_shows_each_players_rating_before_and_after(new_page, live_server, players):
    alice, bob = players
    for _ in range(5):  # five rated games each: the ratings are no longer provisional
        win(alice, bob)
    game = win(alice, bob)
    before = RatingHistory.objects.filter(user=alice, kind="scat").order_by("-recorded_at", "-pk")[1]
    after = RatingHistory.objects.get(user=alice, game=game)
    newcomer_game = win(alice, make_user("carol"))

    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    ranking = page.locator("#ranking")
    gained = shown_value(after.mu) - shown_value(before.mu)
    expected = f"rating {shown_value(before.mu):,} → {shown_value(after.mu):,} (+{gained})"
    ranking.get_by_text(expected).wait_for()
    assert ranking.locator(".rating-change").count() == 2
    assert ranking.get_by_role("link", name="Play again").count() == 1
    assert axe_violations(page) == []

    # Carol's first game: her rating is provisional on both sides, read as "?".
    page.goto(f"{live_server.url}/games/{newcomer_game.public_id}/")
    carol_row = page.locator("#ranking li", has_text="carol")
    carol_row.locator(".rating-change").wait_for()
    assert "rating ? → ?" in carol_row.inner_text()
    assert page.errors == []

    # In Persian: the numbers in Persian digits, the arrow pointing the way the line reads.
    persian = new_page()
    log_in(persian, live_server.url, "bob", "fa")
    persian.goto(f"{live_server.url}/games/{game.public_id}/")
    alice_row = persian.locator("#ranking li", has_text="alice")
    alice_row.locator(".rating-change").wait_for()
    shown = alice_row.locator(".rating-change").inner_text()
    before_fa = f"{shown_value(before.mu):,}".translate(str.maketrans("0123456789,", "۰۱۲۳۴۵۶۷۸۹٬"))
    assert f"ریتینگ {before_fa} ← " in shown and "1" not in shown
    assert axe_violations(persian) == []


def test_a_tournament_table_names_its_tournament_and_leads_back_to_it(new_page, live_server, players):
    alice, bob = players
    tournament = tournament_services.create_tournament(
        creator=alice, name="Friday Scat", kind="scat", format="swiss", table_size=2, rounds=2
    )
    tournament_services.join_tournament(tournament_id=tournament.public_id, user=bob)
    tournament_services.start_tournament(tournament_id=tournament.public_id, user=alice)
    game = Game.objects.get(tournament_table__round__tournament=tournament)

    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    header = page.locator(".tournament-of-table")
    assert header.inner_text() == "Friday Scat · round 1 of 2"
    assert header.get_by_role("link", name="Friday Scat").get_attribute("href") == (
        f"/tournaments/{tournament.public_id}/"
    )

    services.resign(game_id=game.public_id, user=bob)
    page.reload()
    onwards = page.locator("#ranking .onwards")
    onwards.get_by_role("link", name="Back to the tournament").wait_for()
    assert onwards.get_by_role("link", name="Play again").count() == 0
    assert axe_violations(page) == []
    onwards.get_by_role("link", name="Back to the tournament").click()
    page.wait_for_url(f"{live_server.url}/tournaments/{tournament.public_id}/")
    assert page.errors == []


@pytest.mark.parametrize(
    ("language", "until_text", "calendar_link"),
    [
        ("en", "on vacation until Dec 12, 2030", "Add this deadline to my calendar"),
        ("fa", "در مرخصی تا ۲۱ آذر ۱۴۰۹", None),
    ],
)
def test_opponents_see_a_player_on_vacation_and_no_calendar_link_while_the_clock_is_stopped(
    new_page, live_server, players, language, until_text, calendar_link
):
    alice, bob = players
    # Seat 1 deals, so Alice (seat 0) plays first: her clock stops when she leaves.
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    page = new_page()
    log_in(page, live_server.url, "bob", language)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.locator("#players .seat").first.wait_for()
    assert page.locator("#players .away").count() == 0
    if calendar_link:
        assert page.get_by_role("link", name=calendar_link).is_visible()

    # Booked "from" a fixed day, so that the dates shown stay the same whenever the test runs.
    vacations.start_vacation(
        user=alice, until=datetime(2030, 12, 12, 18, 0, tzinfo=UTC), now=datetime(2030, 12, 5, tzinfo=UTC)
    )
    page.reload()
    alice_seat = page.locator("#players .seat").first
    alice_seat.locator(".away").wait_for()
    assert alice_seat.locator(".away").inner_text() == until_text
    assert page.locator("#deadline-calendar").is_hidden()
    if language == "en":
        assert page.locator("#status .clock").inner_text() == (
            "The clock is stopped: alice is on vacation until Dec 12, 2030."
        )
    assert page.locator("#players .seat").nth(1).locator(".away").count() == 0
    assert axe_violations(page) == []
    assert page.errors == []


def test_a_computer_player_is_named_as_at_the_table_on_the_tournament_page(new_page, live_server, players):
    alice, bob = players
    tournament = tournament_services.create_tournament(
        creator=alice, name="Bots Welcome", kind="scat", format="swiss", table_size=3, rounds=1, bots_fill=True
    )
    tournament_services.join_tournament(tournament_id=tournament.public_id, user=bob)
    tournament_services.start_tournament(tournament_id=tournament.public_id, user=alice)
    assert Game.objects.get(tournament_table__round__tournament=tournament).seats.filter(bot_level="good").exists()

    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/tournaments/{tournament.public_id}/")
    page.get_by_text("Computer (good)").first.wait_for()
    assert "bot (good)" not in page.locator("main").inner_text()
    assert page.errors == []
