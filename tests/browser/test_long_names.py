"""Players' names as long as the site allows, without a space to break at, fit a phone's screen."""

from __future__ import annotations

import re

import pytest

from accounts.models import User
from games import services
from tests.browser.test_languages import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.services]

LONG_USERNAME = "Wolfeschlegelsteinhausenbergerdorff" * 4  # 140 characters
LONG_DISPLAY_NAME = "Hubert_Blaine_Wolfeschlegelsteinhausenbergerdorff_Senior_III"  # 60, the most allowed


@pytest.fixture
def long_named(transactional_db) -> tuple[User, User]:
    creator = make_user(LONG_USERNAME)
    creator.display_name = LONG_DISPLAY_NAME
    creator.save(update_fields=["display_name"])
    return creator, make_user("bob")


def wider_than_the_screen(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_the_longest_names_fit_a_phone(new_page, live_server, long_named, artifacts_dir):
    creator, bob = long_named
    table = services.create_game(creator=creator, kind="scattle", num_seats=2)
    services.join_game(game_id=table.public_id, user=bob)
    services.create_game(creator=creator, kind="scat", num_seats=3, invite=["bob"])  # in the lobby and the news

    page = new_page(width=360, height=780)
    log_in(page, live_server.url, "bob", "en")
    wider = {}
    paths = ["/", "/games/", f"/games/{table.public_id}/", f"/users/{LONG_USERNAME}/", "/notifications/"]
    for path in paths:
        page.goto(f"{live_server.url}{path}")
        page.get_by_text(re.compile("Wolfeschlegelsteinhausenbergerdorff")).first.wait_for()
        wider[path] = wider_than_the_screen(page)
        if path == f"/games/{table.public_id}/":
            page.screenshot(path=str(artifacts_dir / "long-names-table-360px.png"), full_page=True)
    assert wider == dict.fromkeys(paths, 0), "pixels wider than a 360px phone"
