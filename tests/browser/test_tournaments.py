"""A player joins a tournament from /tournaments/, finds their table and plays a move from it."""

# ruff: noqa: RUF001 - the Turkish phrases are meant

from __future__ import annotations

import re

import pytest

from games import services as game_services
from games.engine import get_rules
from games.models import Game
from tests.browser.test_languages import log_in
from tests.conftest import make_user
from tournaments import services

pytestmark = [pytest.mark.services]


@pytest.fixture
def players(transactional_db):
    return make_user("alice"), make_user("bob")


def test_a_player_joins_from_the_list_sees_their_table_and_plays_a_move(new_page, live_server, players):
    alice, bob = players
    # Alice (seat 0, she entered first) deals, so Bob plays first.
    tournament = services.create_tournament(
        creator=alice,
        name="Friday Scat",
        kind="scat",
        format="swiss",
        table_size=2,
        rounds=1,
        options={"first_dealer": 0},
    )
    base = live_server.url
    page = new_page()
    log_in(page, base, "bob", "en")
    page.goto(f"{base}/tournaments/")
    page.get_by_role("button", name="Join Friday Scat").click()
    page.wait_for_url(f"{base}/tournaments/{tournament.public_id}/")
    page.get_by_role("button", name="Leave").wait_for()
    assert page.get_by_text("1 day a move").count() == 1  # the time control, shown before the start

    services.start_tournament(tournament_id=tournament.public_id, user=alice)
    page.reload()
    page.get_by_role("link", name="Your table in round 1").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    game = Game.objects.get(tournament_table__round__tournament=tournament)
    assert page.url.endswith(f"/games/{game.public_id}/")
    if game.seats.get(index=game.to_act_seat).user_id != bob.pk:  # whoever deals, Bob's turn comes
        rules = get_rules("scat")
        for wanted in ("draw_stock", "discard"):
            game.refresh_from_db()
            action = next(a for a in rules.legal_actions(rules.from_json(game.state), game.to_act_seat)
                          if a["type"] == wanted)  # fmt: skip
            game_services.submit_move(game_id=game.public_id, user=alice, action=action, version=game.version)
        page.reload()
    game.refresh_from_db()
    before = game.version
    page.get_by_role("button", name="Draw from stock").click()
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.wait_for()
    game.refresh_from_db()
    assert game.version == before + 1
    assert game.moves.order_by("-seq").first().user_id == bob.pk
    assert page.errors == []


def test_the_creator_calls_off_a_tournament_from_its_page(new_page, live_server, players):
    alice, bob = players
    tournament = services.create_tournament(
        creator=alice, name="Rainy Scat", kind="scat", format="swiss", table_size=2, rounds=1
    )
    services.join_tournament(tournament_id=tournament.public_id, user=bob)
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/tournaments/{tournament.public_id}/")
    page.on("dialog", lambda dialog: page.errors.append(f"a browser dialog: {dialog.message}"))
    # The page asks in itself; going back keeps the tournament, and the focus is on the way back.
    page.get_by_role("button", name="Call off the tournament").click()
    assert page.evaluate("document.activeElement.textContent") == "Go back"
    page.get_by_text("It will not be played, and the players entered are told.").wait_for()
    page.get_by_role("button", name="Go back").click()
    page.get_by_role("button", name="Call off the tournament").click()
    page.get_by_role("button", name="Yes, call it off").click()
    page.get_by_text("Called off by alice.").wait_for()
    assert page.get_by_role("button", name="Start now").count() == 0
    tournament.refresh_from_db()
    assert tournament.cancel_reason == "creator"
    assert page.errors == []


def test_the_new_tournament_form_explains_a_refusal_in_the_readers_language(new_page, live_server, players):
    page = new_page()
    log_in(page, live_server.url, "alice", "tr")
    page.goto(f"{live_server.url}/tournaments/")
    page.locator("#t-name").fill("Kış kupası")
    page.locator("#t-format").select_option("round_robin")
    assert page.locator("#t-table-size").input_value() == "2"  # a round robin's tables
    page.locator("#t-starts-at").fill("2001-01-01T10:00")
    page.get_by_role("button", name="Turnuva oluştur").click()
    page.locator("#error").get_by_text("Başlangıç ileri bir zamanda, en fazla bir yıl sonra olmalı.").wait_for()
    page.locator("#t-starts-at").fill("")
    page.locator("#t-rounds").fill("")
    page.locator("#t-format").select_option("swiss")
    page.get_by_role("button", name="Turnuva oluştur").click()
    page.locator("#error").get_by_text(re.compile(r"“.+” alanını kontrol edin\.")).wait_for()
    assert "rounds" not in page.locator("#error").inner_text()
    assert page.errors == []
