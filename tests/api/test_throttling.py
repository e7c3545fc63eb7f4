from datetime import UTC, datetime, timedelta

import time_machine
from rest_framework.throttling import SimpleRateThrottle

from tests.conftest import client_for


def test_a_client_over_its_rate_gets_429_with_retry_after(alice_client, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "3/minute")
    statuses = [alice_client.get("/api/v1/me/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = alice_client.get("/api/v1/me/")
    assert int(response.headers["Retry-After"]) > 0
    assert response.json()["code"] == "throttled"
    assert "try again in" in response.json()["message"]


def test_each_token_has_its_own_limit(alice, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "token", "2/minute")
    first, second = client_for(alice), client_for(alice)
    assert [first.get("/api/v1/me/").status_code for _ in range(3)] == [200, 200, 429]
    assert second.get("/api/v1/me/").status_code == 200


def test_anonymous_clients_are_limited_by_address(anon_client, monkeypatch, db):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    assert [anon_client.get("/api/v1/games/").status_code for _ in range(3)] == [200, 200, 429]


def test_the_window_slides_over_the_minute_boundary(alice_client, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "4/minute")
    with time_machine.travel(datetime(2026, 3, 2, 9, 0, 50, tzinfo=UTC), tick=False) as clock:
        assert [alice_client.get("/api/v1/me/").status_code for _ in range(4)] == [200] * 4
        clock.move_to(datetime(2026, 3, 2, 9, 1, 10, tzinfo=UTC))
        # A fixed window would start afresh here; five-sixths of the last minute still count.
        assert alice_client.get("/api/v1/me/").status_code == 429
        clock.move_to(datetime(2026, 3, 2, 9, 1, 50, tzinfo=UTC))
        assert alice_client.get("/api/v1/me/").status_code == 200


def test_retry_after_is_when_the_next_request_gets_through(alice_client, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "3/minute")
    start = datetime(2026, 3, 2, 9, 0, 20, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as clock:
        [alice_client.get("/api/v1/me/") for _ in range(3)]
        refused = alice_client.get("/api/v1/me/")
        wait = int(refused.headers["Retry-After"])
        clock.move_to(start + timedelta(seconds=wait))
        assert alice_client.get("/api/v1/me/").status_code == 200
