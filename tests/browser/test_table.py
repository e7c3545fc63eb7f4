"""The card table's controls: every action by its name, laying off, spectators, double clicks."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game
from tests.browser.test_languages import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.services]


@pytest.fixture
def players(transactional_db):
    return make_user("alice"), make_user("bob")


def started(alice, bob, kind: str, options: dict) -> Game:
    game = services.create_game(creator=alice, kind=kind, num_seats=2, options=options)
    services.join_game(game_id=game.public_id, user=bob)
    return Game.objects.get(pk=game.pk)


def test_every_scat_action_has_its_button(new_page, live_server, players):
    alice, bob = players
    # Seat 1 deals, so Alice (seat 0) plays first; knocking at once is allowed by default.
    game = started(alice, bob, "scat", {"first_dealer": 1, "throw_down": True, "allow_stand_after_knock": True})
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    actions = page.locator("#actions")
    for name in ("Draw from stock", "Take discard", "Knock", "Throw down", "Resign"):
        assert actions.get_by_role("button", name=name, exact=True).count() == 1, name
    assert actions.get_by_role("button", name="Stand").count() == 0
    page.get_by_role("button", name="Knock", exact=True).click()
    page.get_by_text("You knocked.").first.wait_for()
    assert page.locator("#status").get_by_text("Waiting for bob.").count() == 1

    other = new_page()
    log_in(other, live_server.url, "bob", "en")
    other.goto(f"{live_server.url}/games/{game.public_id}/")
    other.get_by_role("button", name="Stand", exact=True).wait_for()
    assert other.locator("#players .seat").first.get_by_text("knocked").count() == 1
    other.get_by_role("button", name="Stand", exact=True).click()
    # Bob stood: the hand is shown down, and both pages show the showdown.
    for viewer in (other, page):
        viewer.get_by_role("heading", name="Showdown").wait_for(timeout=10_000)
        assert viewer.locator("#showdown").get_by_text(re.compile(r"after alice knocked")).count() == 1


def test_double_clicking_a_move_sends_it_once(new_page, live_server, players):
    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.get_by_role("button", name="Draw from stock").dblclick()
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.wait_for()
    page.wait_for_timeout(500)
    assert Game.objects.get(pk=game.pk).version == 1
    assert not page.locator("#error").inner_text()


def test_laying_off_on_your_own_meld(new_page, live_server, players):
    alice, bob = players
    game = started(alice, bob, "scattle", {"first_player": 0, "lay_off": "own"})
    # Alice has drawn, has laid 3♥ 4♥ 5♥ earlier, and holds 6♥.
    state = game.state
    run = ["3H", "4H", "5H", "6H"]
    for zone in (*state["hands"], state["stock"], state["discard"]):
        zone[:] = [card for card in zone if card not in run]
    state["hands"][0].append("6H")
    state["melds"][0] = [{"kind": "run", "cards": run[:3], "points": 3}]
    state["scores"][0] = 3
    state["phase"] = "play"
    Game.objects.filter(pk=game.pk).update(state=state)

    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.get_by_role("button", name="Lay off 6 of hearts on meld 1", exact=True).click()
    page.get_by_text(re.compile(r"You laid the 6 of hearts off on meld 1")).first.wait_for()
    meld = page.locator("#players .meld").first
    assert meld.get_attribute("aria-label") == (
        "Meld 1, run: 3 of hearts, 4 of hearts, 5 of hearts, 6 of hearts; 4 points"
    )
    assert page.get_by_role("button", name="6 of hearts", exact=True).count() == 0


def test_a_spectator_sees_the_table_but_no_controls(new_page, live_server, players):
    alice, bob = players
    game = started(alice, bob, "scattle", {})
    page = new_page()
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    assert page.get_by_text("You are watching this game.").count() == 1
    assert page.locator("#actions button").count() == 0
    assert page.locator("#hand .card-img").count() == 0
    assert page.locator("#players .seat").count() == 2


def test_a_resignation_reads_right_to_each_side_and_the_clock_controls_go(new_page, live_server, players):
    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    pages = {}
    for user in (alice, bob):
        pages[user.username] = new_page()
        log_in(pages[user.username], live_server.url, user.username, "en")
        pages[user.username].goto(f"{live_server.url}/games/{game.public_id}/")
        pages[user.username].get_by_text("Add this deadline to my calendar").wait_for()

    # The page asks first, in itself: "Keep playing" goes back, "Yes, resign" resigns.
    pages["alice"].get_by_role("button", name="Resign").click()
    pages["alice"].get_by_role("button", name="Keep playing").click()
    assert pages["alice"].get_by_role("button", name="Yes, resign").count() == 0
    pages["alice"].get_by_role("button", name="Resign").click()
    assert pages["alice"].evaluate("document.activeElement.textContent") == "Keep playing"
    pages["alice"].get_by_role("button", name="Yes, resign").click()
    pages["alice"].get_by_text("Everyone but bob resigned.").first.wait_for(timeout=10_000)
    pages["bob"].get_by_text("Everyone else resigned.").first.wait_for(timeout=10_000)
    for page in pages.values():
        # Over, the players hold tokens (the winner the kitty's too), as the final ranking counts them.
        page.locator("#players").get_by_text("6 tokens").first.wait_for()  # his 3, and her 3 from the kitty
        assert page.locator("#players").get_by_text(re.compile(r"\d+ lives?$")).count() == 0
        # Where lives turn into tokens, the status says why.
        assert "the winner takes the kitty" in page.locator("#status .kitty-note").inner_text()
        assert not page.get_by_text("Add this deadline to my calendar").is_visible()
        assert not page.get_by_role("button", name="Notify me on this device").is_visible()
        assert page.errors == []


def test_each_players_time_bank_shows_at_the_table(new_page, live_server, players):
    alice, bob = players
    bank = {"initial": 2 * 86400, "increment": 3600, "cap": 3 * 86400}
    game = services.create_game(creator=alice, kind="scat", num_seats=2, time_bank=bank, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    game.seats.filter(user=bob).update(bank_remaining=0)
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    console = []
    page.on("console", lambda message: message.type in ("warning", "error") and console.append(message.text))
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    seats = page.locator("#players .seat")
    seats.nth(0).get_by_text("Time bank: 2 days 00:00:00").wait_for()
    assert seats.nth(1).get_by_text("Time bank empty").count() == 1
    page.wait_for_timeout(3500)  # Chromium warns of an unused preload after 3 s
    assert page.errors == [] and console == []
