"""The table on a phone and on a laptop: the hand and the move to make fit the first screen, for 2 to
9 seats, in English and in Persian; a tap selects a card, the action bar discards it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from games import services
from games.models import Game
from tests.browser.axe import axe_violations
from tests.browser.test_languages import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.services]

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
# The screenshots go under artifacts/; with UPDATE_SCREENSHOTS=1 they replace the documentation's.
SCREENSHOTS = (
    Path(__file__).resolve().parents[2]
    / ("docs" if os.environ.get("UPDATE_SCREENSHOTS") == "1" else "artifacts")
    / "screenshots"
)
PHONE = (390, 844)
LAPTOP = (1280, 800)


def scat_for(seats: int) -> Game:
    """Alice in seat 0 with bob (two seats) or good computer players; she plays first."""
    alice = make_user("alice")
    if seats == 2:
        bob = make_user("bob")
        game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
        services.join_game(game_id=game.public_id, user=bob)
    else:
        game = services.create_game(
            creator=alice,
            kind="scat",
            num_seats=seats,
            options={"first_dealer": seats - 1},
            bots=["good"] * (seats - 1),
        )
    return Game.objects.get(pk=game.pk)


def in_first_screen(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    inside = box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height
    if not inside:
        page.screenshot(path=str(ARTIFACTS / "phone-table-outside.png"))
    return inside


def open_table(new_page, live_server, game: Game, size: tuple[int, int], language: str):
    page = new_page(width=size[0], height=size[1])
    log_in(page, live_server.url, "alice", language)
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.locator("#actions button.action").first.wait_for()
    page.evaluate("window.scrollTo(0, 0)")
    return page


@pytest.mark.parametrize("seats", [2, 4, 9])
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
@pytest.mark.parametrize("language", ["en", "fa"])
def test_the_hand_and_the_move_fit_the_first_screen(transactional_db, new_page, live_server, seats, size, language):
    game = scat_for(seats)
    page = open_table(new_page, live_server, game, size, language)
    first_card = page.locator("#hand .hand-card").first
    primary = page.locator("#actions .buttons button").first
    assert in_first_screen(page, first_card), first_card.bounding_box()
    assert in_first_screen(page, primary), primary.bounding_box()
    # Nothing sticks out sideways.
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
    assert axe_violations(page) == []
    if (seats == 4 and language == "en") or (seats == 9 and language == "fa"):
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        name = f"table-{seats}-seats-{language}-{'phone' if size == PHONE else 'laptop'}.png"
        page.screenshot(path=str(SCREENSHOTS / name))
    assert not page.errors, page.errors


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_tap_selects_a_card_and_the_action_bar_discards_it(transactional_db, new_page, live_server, size):
    game = scat_for(2)
    page = open_table(new_page, live_server, game, size, "en")
    page.get_by_role("button", name="Draw from stock", exact=True).click()
    # The hand is drawn again with the fourth card: select one of the new hand's cards.
    page.wait_for_function("() => document.querySelectorAll('#hand .card-toggle').length === 4")
    card = page.locator("#hand .card-toggle").first
    name = card.get_attribute("aria-label")
    card.click()
    assert card.get_attribute("aria-pressed") == "true"
    bar_discard = page.locator("#actions").get_by_role("button", name=re.compile(r"^Discard "))
    assert in_first_screen(page, bar_discard)
    assert axe_violations(page) == []
    bar_discard.click()
    page.get_by_text(re.compile(rf"You discarded the {re.escape(name)}\.", re.IGNORECASE)).first.wait_for()
    assert not page.errors, page.errors


def test_the_keyboard_selects_and_discards(transactional_db, new_page, live_server):
    game = scat_for(2)
    page = open_table(new_page, live_server, game, PHONE, "en")
    page.get_by_role("button", name="Draw from stock", exact=True).focus()
    page.keyboard.press("Enter")
    # The focus lands on a discard button, as before; Tab and Space select a card instead.
    page.wait_for_function("() => (document.activeElement.getAttribute('aria-label') || '').startsWith('Discard ')")
    toggle = page.locator("#hand .card-toggle").nth(1)
    toggle.focus()
    page.keyboard.press("Space")
    assert toggle.get_attribute("aria-pressed") == "true"
    page.locator("#actions").get_by_role("button", name=re.compile(r"^Discard ")).focus()
    page.keyboard.press("Enter")
    page.locator("#status .turn.mine").wait_for(state="detached")
    assert not page.errors, page.errors


def test_the_replay_shows_the_cards_and_steps_by_key(transactional_db, new_page, live_server):
    game = scat_for(2)
    page = open_table(new_page, live_server, game, PHONE, "en")
    page.get_by_role("button", name="Draw from stock", exact=True).click()
    page.locator("#hand .card-toggle").first.click()
    page.locator("#actions").get_by_role("button", name=re.compile(r"^Discard ")).click()
    page.locator("#status .turn.mine").wait_for(state="detached")
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.get_by_role("heading", name="Final ranking").wait_for()
    page.get_by_role("button", name="Replay the moves").click()
    replay = page.locator("#replay")
    assert replay.get_by_text("Before the first move").is_visible()
    # The viewer's hand as it was dealt, and the card turned up, drawn as cards.
    assert replay.locator(".replay-hand .face").count() == 3
    assert (
        replay.locator(".replay-cards [role=img]").get_attribute("aria-label").startswith("Top of the discard pile: ")
    )
    page.keyboard.press("ArrowRight")
    replay.get_by_text(re.compile(r"After move 1 of \d+")).wait_for()
    assert replay.locator(".replay-hand .face").count() == 4  # she drew
    page.keyboard.press("ArrowRight")
    replay.get_by_text(re.compile(r"After move 2 of \d+")).wait_for()
    assert replay.locator(".replay-hand .face").count() == 3  # and threw one away
    page.keyboard.press("Home")
    replay.get_by_text("Before the first move").wait_for()
    assert axe_violations(page) == []
    assert not page.errors, page.errors
