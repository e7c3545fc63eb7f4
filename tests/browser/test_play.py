"""Alice and Bob sign up, make and join games, and play Scat and Scattle to the end in Chromium."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from games.engine.cards import RANK_NAMES, SUIT_NAMES
from games.engine.scattle import find_melds
from games.models import Game
from tests.accounts.signing_up import link_in, mails_to

pytestmark = [pytest.mark.services]

PASSWORD = "a-Long-pass-42"
CODE_OF_NAME = {f"{rank_name} of {suit_name}": rank + suit for rank, rank_name in RANK_NAMES.items()
                for suit, suit_name in SUIT_NAMES.items()}  # fmt: skip
TURN_TIMEOUT = 20  # seconds; the table polls every 2 seconds
TURN_OVER = """() => document.querySelector('#ranking-section:not([hidden])')
    || !document.querySelector('#status .turn.mine')"""


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/accounts/signup/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=email]").fill(f"{username}@example.com")
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base_url}/accounts/signup/sent/")
    [message] = mails_to(f"{username}@example.com")
    page.goto(f"{base_url}{link_in(message)}")  # the mailed link
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{base_url}/")


def create_game(page, base_url: str, kind: str, options: dict[str, str | bool]) -> str:
    """Fill the new-game form (options by their labels) and return the new game's id."""
    page.goto(f"{base_url}/games/new/")
    page.get_by_label("Game", exact=True).select_option(kind)
    page.get_by_label("Seats", exact=True).fill("2")
    page.get_by_label("Time per move").select_option(label="1 day")
    fieldset = page.locator(f"fieldset[data-kind={kind}]")
    for label, value in options.items():
        field = fieldset.get_by_label(label, exact=True)
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(value)
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def join_from_lobby(page, base_url: str, creator: str) -> None:
    page.goto(f"{base_url}/games/")
    page.get_by_role("button", name=re.compile(rf"^Join .*{creator}")).click()
    page.wait_for_selector("#status .turn", timeout=10_000)


def button_names(page) -> list[str]:
    snapshot = page.locator("body").aria_snapshot()
    return re.findall(r'- button "([^"]+)"', snapshot)


def assert_names_are_unique(page) -> None:
    names = button_names(page)
    duplicates = {name for name in names if names.count(name) > 1}
    assert not duplicates, f"controls sharing a name: {duplicates}"


def whose_turn(pages: dict[str, object]) -> str | None:
    """The name of the player whose page says it is their turn; None once the game is over."""
    deadline = time.monotonic() + TURN_TIMEOUT
    while time.monotonic() < deadline:
        for name, page in pages.items():
            if page.locator("#ranking-section").is_visible():
                return None
            if page.locator("#status .turn.mine").count():
                return name
        time.sleep(0.2)
    raise AssertionError("nobody's turn came, and the game did not end")


def wait_until_over(pages: dict[str, object]) -> None:
    for page in pages.values():
        page.locator("#ranking-section").wait_for(state="visible", timeout=TURN_TIMEOUT * 1000)


def hand_names(page) -> list[str]:
    """The accessible names of the cards in the hand (images or toggle buttons)."""
    return page.locator("#hand .hand-card > .card-img, #hand .hand-card > .card-toggle").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )


def screenshots(page, artifacts: Path, name: str) -> None:
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 780})
    page.wait_for_timeout(200)
    page.screenshot(path=str(artifacts / f"{name}-360px.png"), full_page=True)
    # Nothing may stick out sideways on a phone.
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than a 360px phone"
    page.set_viewport_size(size)


def test_two_players_play_scat_to_the_end(new_page, live_server, artifacts_dir):
    base = live_server.url
    alice, bob = new_page(), new_page()
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    game_id = create_game(alice, base, "scat", {"Lives": "1", "On the county": False})
    assert alice.get_by_role("heading", name="Waiting for players").is_visible()
    join_from_lobby(bob, base, "alice")
    # Alice's waiting room notices Bob and turns into the table by itself.
    alice.wait_for_selector("#status .turn", timeout=10_000)

    pages = {"alice": alice, "bob": bob}
    turns = {"alice": 0, "bob": 0}
    shot_taken = False
    knocker = None
    while (player := whose_turn(pages)) is not None:
        page = pages[player]
        other = bob if player == "alice" else alice
        assert_names_are_unique(page)
        knock = page.get_by_role("button", name="Knock", exact=True)
        if turns[player] >= 1 and knock.count():
            knock.click()
            knocker = player
        else:
            if player == "alice" and turns[player] == 0:
                # Keyboard alone: Enter on the draw button, and the focus lands on a discard button.
                page.get_by_role("button", name="Draw from stock").focus()
                page.keyboard.press("Enter")
                page.wait_for_function(
                    "() => (document.activeElement.getAttribute('aria-label') || '').startsWith('Discard ')"
                )
                # The table survives a reload in the middle of a turn.
                page.reload()
                page.get_by_role("button", name=re.compile(r"^Discard ")).first.wait_for()
                for name in hand_names(page):
                    assert name in CODE_OF_NAME, name
                if not shot_taken:
                    screenshots(page, artifacts_dir, "scat-table")
                    shot_taken = True
                page.get_by_role("button", name=re.compile(r"^Discard ")).first.focus()
                page.keyboard.press("Enter")
            else:
                draw = "Take discard" if turns[player] % 2 == 0 else "Draw from stock"
                page.get_by_role("button", name=draw).click()
                page.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
            if turns[player] == 0 and player == "alice":
                # Bob's page tells him in words what Alice did.
                other.get_by_text(
                    re.compile(r"alice (drew from the stock|took the .* from the discard pile)\.")
                ).first.wait_for()
        page.locator("#status .turn.mine").wait_for(state="detached", timeout=10_000)
        turns[player] += 1
        assert turns[player] < 30, "the game should have ended by now"

    wait_until_over(pages)
    game = Game.objects.get(public_id=game_id)
    assert game.status == "finished"
    for page in pages.values():
        assert page.get_by_role("heading", name="Final ranking").is_visible()
        assert page.get_by_role("heading", name="Showdown").is_visible()
        ranking = page.locator("#ranking").inner_text()
        assert "alice" in ranking and "bob" in ranking
        assert not page.errors, page.errors
    if knocker is not None:
        # The other player reads it in words, in "what just happened" and in the move list.
        witness = bob if knocker == "alice" else alice
        witness.locator("#history").get_by_text(f"{knocker} knocked.").wait_for()
    screenshots(alice, artifacts_dir, "scat-finished")

    # The replay steps through the moves.
    alice.get_by_role("button", name="Replay the moves").click()
    alice.get_by_role("button", name="Next move").click()
    assert alice.get_by_text(re.compile(r"After move 1 of \d+")).is_visible()
    alice.get_by_role("button", name="Close replay").click()


def test_two_players_play_scattle_to_the_end(new_page, live_server, artifacts_dir):
    base = live_server.url
    alice, bob = new_page(), new_page(width=360, height=780)
    sign_up(alice, base, "alice")
    sign_up(bob, base, "bob")
    game_id = create_game(alice, base, "scattle", {"Hand size": "10", "Target score": "4"})
    join_from_lobby(bob, base, "alice")
    alice.wait_for_selector("#status .turn", timeout=10_000)
    options = Game.objects.get(public_id=game_id).options

    pages = {"alice": alice, "bob": bob}
    melds_laid = 0
    shot_taken = False
    turns = 0
    while (player := whose_turn(pages)) is not None:
        page = pages[player]
        page.get_by_role("button", name="Draw from stock").click()
        page.get_by_role("button", name="Meld").wait_for()
        assert_names_are_unique(page)
        names = hand_names(page)
        # Both controls at once: a toggle named by the card, and "Discard " + the name.
        for name in names:
            toggle = page.get_by_role("button", name=name, exact=True)
            assert toggle.get_attribute("aria-pressed") == "false"
            assert page.get_by_role("button", name=f"Discard {name}", exact=True).count() == 1
        melds = find_melds([CODE_OF_NAME[name] for name in names], options)
        if melds:
            by_code = {CODE_OF_NAME[name]: name for name in names}
            for code in melds[0]:
                page.get_by_role("button", name=by_code[code], exact=True).click()
            assert (
                page.get_by_role("button", name=by_code[melds[0][0]], exact=True).get_attribute("aria-pressed")
                == "true"
            )
            if not shot_taken:
                screenshots(page, artifacts_dir, "scattle-table")
                shot_taken = True
            page.get_by_role("button", name="Meld").click()
            melds_laid += 1
            page.wait_for_function(
                "() => document.querySelector('#ranking-section:not([hidden])') || "
                "!document.querySelector('#hand .card-toggle[aria-pressed=\"true\"]')"
            )
        if not page.locator("#ranking-section").is_visible():
            page.get_by_role("button", name=re.compile(r"^Discard ")).first.click()
        page.wait_for_function(TURN_OVER)
        turns += 1
        assert turns < 80, "the game should have ended by now"

    wait_until_over(pages)
    assert Game.objects.get(public_id=game_id).status == "finished"
    for page in pages.values():
        assert page.get_by_role("heading", name="Final ranking").is_visible()
        assert page.get_by_role("heading", name="Showdown").is_visible()
        assert not page.errors, page.errors
    if melds_laid:
        assert alice.locator("#players .meld").count() >= 1
    screenshots(bob, artifacts_dir, "scattle-finished")

    # "Play again" opens the new-game form set up as this game was, the other player invited.
    bob.get_by_role("link", name="Play again").click()
    bob.wait_for_url(re.compile(r"/games/new/\?again="))
    assert (bob.locator("#id_kind").input_value(), bob.locator("#id_invite").input_value()) == ("scattle", "alice")
