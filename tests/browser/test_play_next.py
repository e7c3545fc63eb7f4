# ruff: noqa: RUF001 - the Persian phrases are meant
"""Where to play next, in Chromium: the table's "Next game" across three games, one unread notice per
game behind the badge, and the home page's dashboard following an opponent's move live."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Game
from notifications.models import Notification
from tests.browser.axe import axe_violations
from tests.browser.test_languages import log_in
from tests.browser.test_live import play
from tests.browser.test_table import players, started  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.services]

PHONE = (390, 844)
LAPTOP = (1280, 800)


def awaiting_alice(alice, bob, *, hours: int) -> Game:
    """A Scat game in which alice (seat 0, seat 1 deals) is to move, her deadline `hours` away."""
    game = started(alice, bob, "scat", {"first_dealer": 1})
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=hours))
    return game


def play_my_turn(page) -> None:
    page.get_by_role("button", name="Draw from stock", exact=True).click()
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
    page.locator("#status").get_by_text("Waiting for bob.").wait_for()


def in_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_next_game_leads_alice_through_her_three_games_most_urgent_first(new_page, live_server, players, size):  # noqa: F811
    alice, bob = players
    latest = awaiting_alice(alice, bob, hours=30)
    soonest = awaiting_alice(alice, bob, hours=2)
    middle = awaiting_alice(alice, bob, hours=9)
    page = new_page(*size)
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{latest.public_id}/")
    offer = page.locator("#next-game")
    assert offer.get_by_role("link").count() == 0  # her turn here: nothing offered yet

    play_my_turn(page)
    link = offer.get_by_role("link", name="Next game: Scat with bob")
    link.wait_for()
    assert link.get_attribute("href") == f"/games/{soonest.public_id}/"
    assert link.get_attribute("aria-keyshortcuts") == "n"
    offer.get_by_text("2 games are waiting for your move.").wait_for()
    assert in_first_screen(page, link), link.bounding_box()
    assert axe_violations(page) == []

    # The shortcut is no shortcut while a field takes the typing (the table's own notes).
    notes = page.locator("textarea").first
    if notes.count():
        notes.focus()
        page.keyboard.press("n")
        assert page.url.endswith(f"/games/{latest.public_id}/")
        page.evaluate("document.activeElement.blur()")
    page.keyboard.press("n")
    page.wait_for_url(f"**/games/{soonest.public_id}/")

    play_my_turn(page)
    offer.get_by_text("1 game is waiting for your move.").wait_for()
    if size == PHONE:
        offer.get_by_role("link", name="Next game: Scat with bob").click()  # a tap, on a phone
    else:
        page.keyboard.press("n")
    page.wait_for_url(f"**/games/{middle.public_id}/")

    play_my_turn(page)
    offer.get_by_text("No other game is waiting for your move.").wait_for()
    assert offer.get_by_role("link").count() == 0
    assert not page.errors, page.errors


def test_the_offer_follows_bobs_moves_elsewhere(new_page, live_server, players):  # noqa: F811
    """Alice waits at one table; bob moves at another, and the offer appears there and then."""
    alice, bob = players
    here = awaiting_alice(alice, bob, hours=5)
    elsewhere = started(alice, bob, "scat", {"first_dealer": 1})
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    play(elsewhere, alice, lambda action: action["type"] == "draw_stock")
    play(elsewhere, alice, lambda action: action["type"] == "discard")  # bob's turn there
    page.goto(f"{live_server.url}/games/{here.public_id}/")
    play_my_turn(page)
    page.locator("#next-game").get_by_text("No other game is waiting for your move.").wait_for()
    play(elsewhere, bob, lambda action: action["type"] == "draw_stock")
    play(elsewhere, bob, lambda action: action["type"] == "discard")  # alice's turn there again
    link = page.locator("#next-game").get_by_role("link", name="Next game: Scat with bob")
    link.wait_for(timeout=8000)
    assert link.get_attribute("href") == f"/games/{elsewhere.public_id}/"


def test_bob_has_one_unread_notice_per_game_and_the_badge_counts_games(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    games = [started(alice, bob, "scat", {"first_dealer": 1}) for _ in range(2)]
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    page.goto(f"{live_server.url}/")
    for _ in range(3):  # three turns come to bob in each game
        for game in games:
            play(game, alice, lambda action: action["type"] == "draw_stock")
            play(game, alice, lambda action: action["type"] == "discard")
            play(game, bob, lambda action: action["type"] == "draw_stock")
            play(game, bob, lambda action: action["type"] == "discard")
    for game in games:
        play(game, alice, lambda action: action["type"] == "draw_stock")
        play(game, alice, lambda action: action["type"] == "discard")
    assert Notification.objects.filter(user=bob, kind="your_turn").count() == 8
    page.locator("#unread-badge").get_by_text("2").wait_for(timeout=5000)  # live: two games, not eight notices

    page.goto(f"{live_server.url}/notifications/")
    turns = page.get_by_text("Your turn in Scat with alice.")
    assert turns.count() == 2  # one for each game
    assert page.locator("#unread-badge").inner_text().strip().startswith("2")
    assert axe_violations(page) == []
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_dashboard_follows_bobs_move_and_his_invitation_live(new_page, live_server, players, size):  # noqa: F811
    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    play(game, alice, lambda action: action["type"] == "draw_stock")
    play(game, alice, lambda action: action["type"] == "discard")  # bob's turn
    page = new_page(*size)
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/")
    waiting = page.locator("#waiting")
    awaiting = page.locator("#awaiting")
    waiting.get_by_text("Waiting for bob").wait_for()
    awaiting.get_by_text("No game is waiting for your move.").wait_for()
    assert axe_violations(page) == []

    play(game, bob, lambda action: action["type"] == "draw_stock")
    play(game, bob, lambda action: action["type"] == "discard")  # alice's turn: the page follows
    awaiting.get_by_role("link", name=re.compile("alice, bob")).wait_for(timeout=5000)
    assert awaiting.get_by_role("link").get_attribute("href") == f"/games/{game.public_id}/"
    waiting.get_by_text("None of your games is waiting for another player.").wait_for()
    page.locator("#dashboard-news").get_by_text("It is your turn in 1 game.").wait_for()

    invitation = services.create_game(creator=bob, kind="scattle", num_seats=2, invite=["alice"])
    invitations = page.locator("#invitations")
    invitations.get_by_role("link", name=re.compile("bob")).wait_for(timeout=5000)
    services.leave_game(game_id=invitation.public_id, user=bob)  # he calls it off
    invitations.get_by_text("No invitation is waiting for your answer.").wait_for(timeout=5000)
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
    assert axe_violations(page) == []
    assert not page.errors, page.errors


def test_the_offer_speaks_persian_on_a_phone(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    here = awaiting_alice(alice, bob, hours=30)
    awaiting_alice(alice, bob, hours=2)
    page = new_page(*PHONE)
    log_in(page, live_server.url, "alice", "fa")
    page.goto(f"{live_server.url}/games/{here.public_id}/")
    page.get_by_role("button", name="برداشتن از دسته‌ی کشیدن", exact=True).click()
    page.locator("#hand .card-toggle").first.click()  # a tap selects the card to throw away
    page.locator("#actions").get_by_role("button", name=re.compile("^دور ریختن")).click()
    offer = page.locator("#next-game")
    link = offer.get_by_role("link", name="بازی بعدی: اسکات با bob")
    link.wait_for()
    offer.get_by_text("۱ بازی منتظر حرکت شماست.").wait_for()
    assert in_first_screen(page, link), link.bounding_box()
    assert axe_violations(page) == []
    assert not page.errors, page.errors
