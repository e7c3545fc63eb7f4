"""Hostile input the hardening missed: a body that makes the nesting check itself run for minutes, and a
NUL in the one header that reaches the database."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from config.parsers import MAX_JSON_DEPTH, json_nesting_depth
from tests.conftest import client_for

from .helpers import started_two_player_game
from .test_hostile_input import assert_error_shape

pytestmark = pytest.mark.django_db

# More brackets than the bound (so the string scan runs), then a string that never closes and is
# made of escaped quotes: every quote starts a string the scan follows to the end of the body.
UNCLOSED_ESCAPES = "[" * (MAX_JSON_DEPTH + 1) + '"' + '\\"' * 30_000


def test_measuring_the_nesting_of_an_unclosed_string_of_escaped_quotes_takes_linear_time():
    started = time.perf_counter()
    json_nesting_depth(UNCLOSED_ESCAPES)
    # 60 kB: about 10 s when each quote starts a scan to the end of the text, a millisecond when not.
    assert time.perf_counter() - started < 0.5


def test_an_anonymous_body_of_unclosed_escaped_quotes_is_a_quick_400(anon_client):
    client = APIClient(raise_request_exception=False)
    started = time.perf_counter()
    response = client.post("/api/v1/auth/token/", UNCLOSED_ESCAPES, content_type="application/json")
    assert time.perf_counter() - started < 1
    assert assert_error_shape(response, 400)["code"] == "parse_error"


def test_the_depth_counted_is_the_depth_the_json_module_would_reach():
    cases = [
        # Brackets after a string that never closes are inside it, as the json module reads them.
        ("[" * 70 + '"unclosed' + "[" * 500, 70),
        # The rest must stay as they were: an escaped backslash closes nothing, an escaped quote is
        # text, a trailing backslash ends the text.
        ("[" * 70 + '"\\\\"' + "[" * 5 + "]" * 75, 75),
        ("[" * 70 + '"\\"[[[["' + "]" * 70, 70),
        ("[" * 70 + '"' + "\\", 70),
    ]
    assert [json_nesting_depth(text) for text, _depth in cases] == [depth for _text, depth in cases]


def test_a_nul_in_the_idempotency_key_is_a_400_not_a_database_error(postgres, alice, bob):
    detail = started_two_player_game(client_for(alice), client_for(bob))
    mover = client_for((alice, bob)[detail["to_act"]])
    mover.raise_request_exception = False

    response = mover.post(
        f"/api/v1/games/{detail['id']}/moves/",
        {"action": {"type": "draw_stock"}, "version": detail["version"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="retry\x00-1",
    )

    assert assert_error_shape(response, 400)["code"] == "bad_idempotency_key"
