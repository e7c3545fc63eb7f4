"""The pages on the event streams: news arrives by the stream, and nothing polls while it is open."""

from __future__ import annotations

import re

import pytest

from games import selectors, services
from games.models import Game
from tests.browser.test_languages import log_in
from tests.browser.test_table import players, started  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.services]

# Longer than two of the table's polling periods (2 s), so a poll would have shown.
QUIET_MS = 5000


class Requests:
    """The API requests a page makes from the moment it is watched."""

    def __init__(self, page) -> None:
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def to(self, pattern: str) -> list[str]:
        return [url for url in self.urls if re.search(pattern, url)]


def play(game: Game, user, choose) -> None:
    """The first of the user's legal actions that `choose` accepts, sent as the API would."""
    game.refresh_from_db()
    action = next(a for a in selectors.game_detail(game, user)["legal_actions"] if choose(a))
    services.submit_move(game_id=game.public_id, user=user, action=action, version=game.version)


def test_the_table_hears_moves_by_its_stream_and_never_polls(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    with page.expect_response(re.compile(rf"/api/v1/games/{game.public_id}/stream/")) as opened:
        page.goto(f"{live_server.url}/games/{game.public_id}/")
    assert opened.value.status == 200
    page.locator("#status").get_by_text("Waiting for alice.").wait_for()
    requests = Requests(page)
    page.wait_for_timeout(QUIET_MS)

    play(game, alice, lambda action: action["type"] == "draw_stock")
    page.get_by_text("alice drew from the stock.").first.wait_for(timeout=5000)
    play(game, alice, lambda action: action["type"] == "discard")
    page.get_by_role("button", name="Draw from stock").wait_for(timeout=5000)
    page.wait_for_timeout(QUIET_MS)

    game_api = rf"/api/v1/games/{game.public_id}/(\?|$)"
    assert requests.to(game_api) == [], "the table polled the game while its stream was open"
    assert requests.to(r"/moves/") == [], "the table fetched moves the stream had brought"


def test_the_badge_and_the_home_page_follow_the_players_own_stream(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    with page.expect_response(re.compile(r"/api/v1/stream/")) as opened:
        page.goto(f"{live_server.url}/")
    assert opened.value.status == 200
    requests = Requests(page)

    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={}, invite=["bob"])
    page.locator("#unread-badge").get_by_text("1").wait_for(timeout=5000)
    services.join_game(game_id=game.public_id, user=bob)
    page.locator("[data-home-games]").get_by_role("link", name=re.compile("alice")).first.wait_for(timeout=5000)
    page.wait_for_timeout(QUIET_MS)
    assert requests.to(r"/api/v1/notifications/") == [], "the badge polled while the stream was open"


def test_news_seen_at_the_open_table_leaves_no_unread_notification(new_page, live_server, players):  # noqa: F811
    from notifications.models import Notification
    from tests.tasks.test_worker import wait_until

    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    page.goto(f"{live_server.url}/games/{game.public_id}/")
    page.locator("#status").get_by_text("Waiting for alice.").wait_for()

    play(game, alice, lambda action: action["type"] == "draw_stock")
    play(game, alice, lambda action: action["type"] == "discard")  # bob's turn: "your turn" for him
    page.get_by_role("button", name="Draw from stock").wait_for(timeout=5000)
    unread = Notification.objects.filter(user=bob, game=game, read_at__isnull=True)
    assert wait_until(lambda: not unread.exists(), 5), "the turn he saw still waits in bob's badge"
