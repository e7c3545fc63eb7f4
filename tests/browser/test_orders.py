"""Standing orders on the card table: set them in one click or in sentences, see what they played,
cancel them; in Persian too, by keyboard."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game, Move
from orders import tasks as order_tasks
from orders.models import StandingOrders
from tests.browser.test_languages import log_in
from tests.browser.test_live import play
from tests.browser.test_table import players  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.services]


def scat_table(alice, bob) -> Game:
    # Seat 1 deals, so Alice (seat 0) plays first.
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    return Game.objects.get(pk=game.pk)


def test_a_player_sets_orders_sees_them_play_and_cancels_them(new_page, live_server, players, artifacts_dir):  # noqa: F811
    alice, bob = players
    game = scat_table(alice, bob)
    play(game, alice, lambda a: a["type"] == "draw_stock")
    play(game, alice, lambda a: a["type"] == "discard")
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    panel = page.locator("#orders")
    panel.get_by_text("You have no standing orders in this game.").wait_for()

    # Her own orders, in sentences: routine turns for two turns.
    panel.get_by_text("Or write your own orders").click()
    panel.get_by_label("number of turns").fill("2")
    panel.get_by_role("button", name="Give these orders").click()
    current = panel.locator("#orders-current")
    current.get_by_text("For my next 2 turns. In force.").wait_for()
    assert current.get_by_text("When I have drawn: throw the card I need least.").count() == 1
    drawing = "When nobody has knocked and my turn is starting: draw from the stock."
    assert current.get_by_text(drawing, exact=True).count() == 1
    assert StandingOrders.objects.get(seat__user=alice).limit == {"turns": 2}

    # Bob plays; the turn begins for Alice and her orders play it (the task the worker runs).
    play(game, bob, lambda a: a["type"] == "draw_stock")
    play(game, bob, lambda a: a["type"] == "discard")
    assert order_tasks.play_standing_orders(game.public_id) == 2
    played = current.locator(".orders-played li")
    played.nth(1).wait_for()
    assert re.match(r"^Move \d+: (draw from the stock|take the discard)$", played.nth(0).inner_text())
    assert re.match(r"^Move \d+: throw ", played.nth(1).inner_text())
    assert current.get_by_text("1 turn played by order.").count() == 1
    assert page.locator("#history").get_by_text("Your standing orders played this move.").count() == 2
    panel.screenshot(path=str(artifacts_dir / "orders-panel-en.png"))

    # Cancel by keyboard.
    current.get_by_role("button", name="Cancel the orders").focus()
    page.keyboard.press("Enter")
    panel.get_by_text("You have no standing orders in this game.").wait_for()
    assert not StandingOrders.objects.filter(seat__user=alice).exists()
    play(game, bob, lambda a: a["type"] == "draw_stock")
    play(game, bob, lambda a: a["type"] == "discard")
    assert order_tasks.play_standing_orders(game.public_id) == 0
    assert Move.objects.filter(game=game, by_server="standing_order").count() == 2
    assert page.errors == []


def test_a_ready_made_set_in_one_click_in_persian(new_page, live_server, players, artifacts_dir):  # noqa: F811
    alice, bob = players
    game = scat_table(alice, bob)
    page = new_page()
    log_in(page, live_server.url, "alice", "fa")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    panel = page.locator("#orders")
    panel.get_by_role("button", name="فقط نوبت‌های روزمره").click()
    panel.locator("#orders-current").get_by_text("تا وقتی خودم حرکتی انجام دهم.", exact=False).wait_for()
    orders = StandingOrders.objects.get(seat__user=alice)
    assert orders.limit == {"until_i_move": True} and orders.rules[0]["do"] == {"policy": "best_discard"}
    assert page.locator("#orders-current li").count() == len(orders.rules)
    assert panel.get_by_role("button", name=re.compile("بازیکن رایانه‌ای")).count() == 0  # a rated game
    panel.get_by_text("یا دستورهای خودتان را بنویسید").click()
    page.set_viewport_size({"width": 360, "height": 800})
    panel.screenshot(path=str(artifacts_dir / "orders-panel-fa-360px.png"))
    assert page.errors == []
