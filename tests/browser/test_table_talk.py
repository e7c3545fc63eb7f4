"""Table talk in two browsers: Alice and Bob talk live at their table; Charlie, watching, sees none of it."""

from __future__ import annotations

import pytest

from tests.browser.test_languages import log_in
from tests.browser.test_table import players, started  # noqa: F401 (a fixture)
from tests.conftest import make_user

pytestmark = [pytest.mark.services]


def test_two_players_talk_live_and_a_spectator_sees_nothing(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    make_user("charlie")
    game = started(alice, bob, "scat", {"first_dealer": 1})
    table = f"{live_server.url}/games/{game.public_id}/"
    pages = {}
    for name, language in (("alice", "en"), ("bob", "tr"), ("charlie", "en")):
        page = pages[name] = new_page()
        log_in(page, live_server.url, name, language)
        page.goto(table)
    pages["alice"].locator("#chat-messages").wait_for(state="attached")
    pages["bob"].locator("#chat-phrases button").first.wait_for()

    pages["alice"].locator("#chat-text").fill("Hello Bob <b>bold</b> https://example.com")
    pages["alice"].get_by_role("button", name="Send", exact=True).click()
    heard = pages["bob"].locator("#chat-messages li").filter(has_text="Hello Bob <b>bold</b> https://example.com")
    heard.wait_for(timeout=8000)  # by the stream: the page polls only once a minute
    assert pages["bob"].locator("#chat-messages b").count() == 0  # text, never markup
    assert pages["bob"].locator("#chat-messages a").count() == 0

    pages["bob"].get_by_role("button", name="İyi oyundu").click()
    pages["alice"].locator("#chat-messages").get_by_text("Good game").wait_for(timeout=8000)
    pages["bob"].locator("#chat-messages").get_by_text("İyi oyundu").wait_for()

    spectator = pages["charlie"]
    assert spectator.locator("#chat").count() == 0
    assert "Hello Bob" not in spectator.content()
    for page in pages.values():
        assert page.errors == []
