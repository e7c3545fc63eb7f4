"""The advisor on the card table: figures on the player's turn in a game with advice, and the review
of the player's turns once the game is over."""

from __future__ import annotations

import re

import pytest

from games import advice, selectors, services
from games.models import Game, Review
from tests.browser.test_languages import log_in
from tests.browser.test_live import play
from tests.browser.test_table import players  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.services]


def legal_actions(game: Game, user) -> list[dict]:
    game.refresh_from_db()
    return selectors.game_detail(game, user)["legal_actions"]


def test_the_table_shows_advice_on_your_turn_and_the_review_after_the_game(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    game = services.create_game(
        creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1}, rated=False, advice=True
    )
    services.join_game(game_id=game.public_id, user=bob)
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    assert page.locator("#table-title").get_by_text("unrated").count() == 1
    shown = page.locator("#advice")
    shown.get_by_role("heading", name="Advice").wait_for(timeout=15_000)
    assert re.search(r"you lose a life about \d+\s?%", shown.locator(".hint").inner_text())
    assert shown.locator("li").count() == len(legal_actions(game, alice))

    # Alice plays her turn from the table; Bob his through the service; then Alice resigns.
    page.get_by_role("button", name="Draw from stock").click()
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
    page.locator("#status").get_by_text("Waiting for bob.").wait_for()
    assert shown.locator("li").count() == 0  # no advice while it is not her turn
    play(game, bob, lambda action: action["type"] == "draw_stock")
    play(game, bob, lambda action: action["type"] == "discard")
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.get_by_role("heading", name="Final ranking").wait_for(timeout=10_000)

    section = page.locator("#review-section")
    section.get_by_text("being prepared").wait_for(timeout=10_000)
    for review in Review.objects.filter(game=game):
        while advice.review_step(review.pk):
            pass
    section.locator(".review-list li").first.wait_for(timeout=40_000)
    assert section.locator(".review-list li").count() == 2  # her draw and her discard
    assert section.get_by_text(re.compile(r"^Move 1: Drawing from the stock")).count() == 1
    # Each line opens the replay where that move was chosen: move 2 (her discard) after move 1.
    section.get_by_role("button", name="Show move 2 in the replay").click()
    page.locator("#replay").get_by_text(re.compile(r"After move 1 of \d+")).wait_for()
    assert page.locator("#replay .replay-hand .face").count() == 4
