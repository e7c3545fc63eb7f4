"""The new-game form keeps every section as it was across a refusal, the hidden ones included."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.browser.test_languages import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.services]


@pytest.fixture
def players(transactional_db):
    return make_user("alice"), make_user("bob")


def test_a_refused_form_comes_back_with_the_hidden_sections_as_they_were(new_page, live_server, players):
    page = new_page()
    log_in(page, live_server.url, "alice", "en")
    page.goto(f"{live_server.url}/games/new/")
    scat = page.locator("fieldset[data-kind=scat]")
    scat.get_by_label("Lives", exact=True).fill("2")  # a change the refusal must not lose
    page.get_by_label("Game", exact=True).select_option("scattle")
    page.get_by_label("Time control").select_option("bank")
    page.get_by_label("Invite players").fill("nosuchuser")
    page.get_by_role("button", name="Create game").click()
    page.get_by_text(re.compile("nosuchuser")).first.wait_for()

    # Back to Scat with a limit per move: what those hidden sections held is still there.
    page.get_by_label("Game", exact=True).select_option("scat")
    page.get_by_label("Time control").select_option("per_move")
    assert scat.get_by_label("Lives", exact=True).input_value() == "2"
    assert scat.get_by_label("Most players", exact=True).input_value() == "9"
    assert scat.get_by_label("On the county", exact=True).is_checked()
    assert page.get_by_label("Time per move").input_value() == "86400"
    page.get_by_label("Invite players").fill("bob")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    game = Game.objects.get(creator__username="alice")
    assert (game.kind, game.move_time_limit, game.time_control) == ("scat", 86400, "per_move")
    assert game.options["initial_tokens"] == 2 and game.options["on_the_county"] is True
    assert page.errors == []
