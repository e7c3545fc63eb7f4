"""Streams that open at the same moment are authenticated together (live.views.opened_together): one
query for all their API tokens and one for their players' logs, whatever their number, with the same
answers each would have alone."""

from __future__ import annotations

import json
import uuid

from django.test import RequestFactory
from rest_framework.throttling import SimpleRateThrottle

from live.views import opened_together
from tests.conftest import make_user
from tests.live.helpers import token_of


def stream_request(token: str | None = None, header: str | None = None):
    headers = {"HTTP_AUTHORIZATION": header or f"Token {token}"} if (token or header) else {}
    return RequestFactory().get("/api/v1/games/x/stream/", **headers)


def test_a_crowd_of_tokens_costs_two_queries_and_each_gets_its_own_answer(db, django_assert_num_queries):
    players = [make_user(f"crowd{i}") for i in range(30)]
    tokens = [token_of(player) for player in players]
    requests = [stream_request(token) for token in tokens + tokens[:5]]  # five players open a second stream
    requests += [stream_request("not-a-token"), stream_request(header="Token two parts"), stream_request()]
    opened_together(requests[:1])  # every token's use is noted once a minute: not part of the count
    opened_together([stream_request(token) for token in tokens])
    with django_assert_num_queries(2):  # the tokens with their players, then the players' logs
        answers = opened_together(requests)
    for answer, player in zip(answers[:35], players + players[:5], strict=True):
        drf, credentials = answer
        assert drf.user == player and credentials.user_id == player.pk and credentials.token_id == drf.auth.pk
    bad_token, bad_header, anonymous = answers[35:]
    assert bad_token.status_code == 401 and json.loads(bad_token.content)["code"] == "authentication_failed"
    assert bad_header.status_code == 401 and "should not contain spaces" in json.loads(bad_header.content)["message"]
    drf, credentials = anonymous
    assert not drf.user.is_authenticated and credentials.user_id is None


def test_a_crowd_is_counted_against_the_rate_limits_each_request_once(db, monkeypatch, settings, redis_url):
    backend = "django.core.cache.backends.redis.RedisCache"
    settings.CACHES = {"default": {"BACKEND": backend, "LOCATION": redis_url, "KEY_PREFIX": uuid.uuid4().hex}}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", {"user": "3/minute", "token": "100/minute"})
    token = token_of(make_user("eager"))
    answers = opened_together([stream_request(token) for _ in range(5)])
    assert [isinstance(answer, tuple) for answer in answers] == [True, True, True, False, False]
    assert answers[3].status_code == 429 and int(answers[3]["Retry-After"]) >= 1
