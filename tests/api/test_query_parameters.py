"""Every query parameter the API reads is hostile until checked, like an id in a path: a NUL, a
huge number or a foreign character is a 4xx in the error shape or is ignored as the parameter's
documentation says (an unknown page size falls back to the default), never a 500. PostgreSQL
refuses a NUL in text with an error, so these run there.

The query parameters of the API: /games/ (status, kind, player, page, page_size), /games/{id}/moves/
(after, page, page_size), /games/{id}/turns/ (page, page_size), /tournaments/ (status, page),
/notifications/, /me/tokens/ and /leaderboard/{kind}/ (page), and the streams' last_event_id (checked
as digits in live.views before any query)."""

from __future__ import annotations

import pytest

from tests.conftest import client_for

from .helpers import started_two_player_game

pytestmark = pytest.mark.usefixtures("postgres")

HOSTILE = ["\x00", "abc\x00def", "x" * 20_000, "9" * 400, "-1", "1e400", "ب٣😀"]
PARAMETERS = [
    ("/api/v1/games/", "status"),
    ("/api/v1/games/", "kind"),
    ("/api/v1/games/", "player"),
    ("/api/v1/games/", "page"),
    ("/api/v1/games/", "page_size"),
    ("/api/v1/games/{game}/moves/", "after"),
    ("/api/v1/games/{game}/moves/", "page"),
    ("/api/v1/games/{game}/moves/", "page_size"),
    ("/api/v1/games/{game}/turns/", "page"),
    ("/api/v1/games/{game}/turns/", "page_size"),
    ("/api/v1/tournaments/", "status"),
    ("/api/v1/tournaments/", "page"),
    ("/api/v1/notifications/", "page"),
    ("/api/v1/me/tokens/", "page"),
    ("/api/v1/leaderboard/scat/", "page"),
]


@pytest.fixture
def game_id(alice_client, bob_client) -> str:
    return started_two_player_game(alice_client, bob_client)["id"]


@pytest.mark.parametrize(("address", "name"), PARAMETERS)
def test_a_hostile_query_parameter_is_a_4xx_or_ignored(alice, game_id, address, name):
    client = client_for(alice)
    client.raise_request_exception = False
    for value in HOSTILE:
        response = client.get(address.format(game=game_id), {name: value})
        assert response.status_code in (200, 400, 404), (value[:20], response.status_code, response.content[:300])
        if response.status_code != 200:
            assert set(response.json()) == {"code", "message", "details"}
