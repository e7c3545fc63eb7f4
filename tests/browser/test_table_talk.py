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


def test_report_hide_and_mute_through_the_page(new_page, live_server, players):  # noqa: F811
    from social import chat, moderation
    from social.models import ChatMessage, ChatMute, ChatReport

    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    rude = chat.post_message(game_id=game.public_id, author=alice, text="you play like a potato")
    table = f"{live_server.url}/games/{game.public_id}/"
    bob_page, alice_page = new_page(), new_page()
    log_in(bob_page, live_server.url, "bob", "en")
    log_in(alice_page, live_server.url, "alice", "en")
    bob_page.goto(table)
    message = bob_page.locator("#chat-messages li").filter(has_text="you play like a potato")
    message.get_by_role("button", name="Report").click()
    bob_page.get_by_label("Why are you reporting this message?").fill("an insult")
    bob_page.get_by_role("button", name="Send the report").click()
    bob_page.get_by_text("Thank you: the moderators will look at it.").wait_for()
    assert ChatReport.objects.get().reporter == bob

    moderation.hide_message(message=ChatMessage.objects.get(pk=rude.pk), moderator=None)
    bob_page.reload()
    bob_page.locator("#chat-phrases button").first.wait_for()
    bob_page.wait_for_timeout(500)
    assert bob_page.locator("#chat-messages li").count() == 0
    alice_page.goto(table)
    alice_page.get_by_text("A moderator has hidden this message: only you still see it.").wait_for()
    assert "an insult" not in alice_page.content()

    chat.post_message(game_id=game.public_id, author=alice, phrase="good_luck")
    bob_page.reload()
    bob_page.locator("#chat-messages li").filter(has_text="Good luck").get_by_role("button", name="Mute alice").click()
    bob_page.locator("#chat-messages li").first.wait_for(state="detached")
    assert ChatMute.objects.filter(user=bob, muted=alice).exists()
    chat.post_message(game_id=game.public_id, author=alice, text="still there?")
    alice_page.locator("#chat-messages").get_by_text("still there?").wait_for(timeout=8000)
    bob_page.wait_for_timeout(1500)
    assert "still there?" not in bob_page.locator("#chat").inner_text()
    assert bob_page.errors == [] and alice_page.errors == []
