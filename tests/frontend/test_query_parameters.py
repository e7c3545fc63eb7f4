"""Every query parameter a page reads is hostile until checked: a NUL, a huge value or a foreign
character answers like any wrong value (the page without it, a 404, a redirect), never a 500.
PostgreSQL refuses a NUL in text with an error, so these run there.

The pages that read a query parameter: /games/new/?again, /games/{id}/?invite, /leaderboard/?kind
and ?page, /settings/?saved, /accounts/login/?next. The other pages read none."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services

pytestmark = pytest.mark.usefixtures("postgres")

HOSTILE = ["\x00", "abc\x00def", "x" * 20_000, "9" * 400, "1e400", "ب٣😀"]
PAGES = [
    ("/games/new/", "again"),
    ("/games/{game}/", "invite"),
    ("/leaderboard/", "kind"),
    ("/leaderboard/", "page"),
    ("/settings/", "saved"),
    ("/accounts/login/", "next"),
]


@pytest.mark.parametrize(("address", "name"), PAGES)
def test_a_hostile_query_parameter_is_no_server_error(alice, bob, address, name):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    visitor = Client(raise_request_exception=False)
    visitor.force_login(bob)
    for value in HOSTILE:
        response = visitor.get(address.format(game=game.public_id), {name: value})
        assert response.status_code in (200, 302, 404), (value[:20], response.status_code, response.content[:300])


def test_play_again_with_an_id_that_is_no_id_shows_the_empty_form(alice):
    visitor = Client(raise_request_exception=False)
    visitor.force_login(alice)
    for junk in ("\x00", "abc\x00", "ب" * 3, "x" * 65):
        response = visitor.get("/games/new/", {"again": junk})
        assert response.status_code == 200, junk
        assert 'name="kind"' in response.content.decode()
