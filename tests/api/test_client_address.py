"""One reading of the client's address for every limit: X-Forwarded-For only as far as our proxies vouch."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory, override_settings
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle

from accounts.throttles import ApiRateThrottle
from config.client_address import client_address


def request_from(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


@pytest.mark.parametrize(
    "trusted, forwarded, expected",
    [
        (0, None, "10.0.0.1"),
        (0, "203.0.113.7", "10.0.0.1"),  # nobody vouches for the header
        (1, None, "10.0.0.1"),
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # the client wrote 6.6.6.6; our proxy wrote the rest
        (2, "6.6.6.6, 203.0.113.7, 10.0.0.9", "203.0.113.7"),
        (2, "203.0.113.7", "10.0.0.1"),  # shorter than our chain of proxies
        (1, "not-an-address", "10.0.0.1"),
        (1, "203.0.113.7:4711", "10.0.0.1"),
        (1, "", "10.0.0.1"),
        (1, "2001:DB8:0:0::1", "2001:db8::/64"),  # an IPv6 client is its /64, in one spelling
        (1, "2001:db8::ffff:1", "2001:db8::/64"),
        (1, "::ffff:203.0.113.9", "203.0.113.9"),  # IPv4 written as IPv6 is that IPv4 address
    ],
)
def test_the_client_is_the_address_our_last_trusted_proxy_saw(settings, trusted, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = trusted
    assert client_address(request_from("10.0.0.1", forwarded)) == expected


def test_the_api_throttles_trust_as_many_proxies_as_the_setting(settings):
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXY_COUNT == 0


CHAIN = "6.6.6.6, 203.0.113.7, 10.0.0.9"


# Where they differ (a header shorter than our chain of proxies, or an entry that is no address)
# DRF takes whatever the client wrote, and client_address falls back to REMOTE_ADDR.
@pytest.mark.parametrize(
    "trusted, forwarded",
    [(0, None), (0, "203.0.113.7"), (0, CHAIN), (1, None), (1, "203.0.113.7"), (1, CHAIN), (2, None), (2, CHAIN)],
)
def test_drf_with_num_proxies_from_the_setting_agrees_on_well_formed_headers(settings, trusted, forwarded):
    settings.TRUSTED_PROXY_COUNT = trusted
    request = request_from("10.0.0.1", forwarded)
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": trusted}):
        assert api_settings.NUM_PROXIES == trusted
        drf = BaseThrottle().get_ident(request)
    request.user = AnonymousUser()
    assert ApiRateThrottle.counted(request) == [("anon", client_address(request))]
    assert client_address(request) == drf


def test_a_rotating_forwarded_for_does_not_escape_the_anonymous_limit(anon_client, monkeypatch, db):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    statuses = [anon_client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR=f"10.1.0.{n}").status_code for n in range(3)]
    assert statuses == [200, 200, 429]


def test_behind_one_trusted_proxy_forwarded_clients_have_their_own_anonymous_limits(
    anon_client, monkeypatch, settings, db
):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    first = [anon_client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code for _ in range(2)]
    # The same client, prefixing addresses of its own: our proxy's entry is still 203.0.113.7.
    spoofed = anon_client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7").status_code
    other = anon_client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="198.51.100.20").status_code
    assert (first, spoofed, other) == ([200, 200], 429, 200)


def test_the_throttle_message_and_retry_after_name_the_same_second(alice_client, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "1/minute")
    alice_client.get("/api/v1/me/")
    response = alice_client.get("/api/v1/me/")
    assert response.status_code == 429
    said = int(re.search(r"try again in (\d+) seconds", response.json()["message"]).group(1))
    assert said == int(response.headers["Retry-After"])
