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
