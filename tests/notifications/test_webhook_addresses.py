"""Which webhook addresses a player can save: public ones only, whatever form the address takes,
refused with a sentence the player can act on (a 400 from the API, the form again on the page)."""

from __future__ import annotations

import ipaddress

import pytest

from notifications.addresses import (
    NOT_PUBLIC,
    AddressRefused,
    address_problem,
    embedded_ipv4,
    resolve_public,
    url_shape_problem,
    webhook_url_problem,
)
from notifications.models import PlayerPreference
from tests.tasks.wire import Resolver

# Each of these passed as public before; the first is the cloud metadata service.
NOT_PUBLIC_URLS = [
    ("http://100.100.100.200/latest/meta-data/", "100.100.100.200"),
    ("http://100.64.0.1/hook", "100.64.0.1"),
    ("http://192.0.0.8/hook", "192.0.0.8"),
    ("http://[2002:7f00:1::]/hook", "2002:7f00:1::"),
    ("http://192.88.99.1/hook", "192.88.99.1"),
    ("http://[2002:a00:1::]/hook", "2002:a00:1::"),
]

BAD_SHAPES = [
    ("http://user:pw@93.184.216.34/hook", "cannot carry a user name or password"),
    ("http://93.184.216.34:99999/hook", "a port (if any) from 1 to 65535"),
]

LOOPBACK_IN_DISGUISE = [
    "::ffff:127.0.0.1",  # IPv4-mapped
    "2002:7f00:1::",  # 6to4
    "64:ff9b::127.0.0.1",  # NAT64, the well-known prefix
    "::127.0.0.1",  # IPv4-compatible (deprecated)
]

NEVER_RECEIVERS = [
    "0.0.0.0", "10.1.2.3", "100.100.100.200", "127.0.0.1", "169.254.169.254", "172.16.0.1", "192.0.0.8",  # noqa: S104
    "192.0.0.170", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.51.100.1", "203.0.113.1",
    "224.0.0.1", "240.0.0.1", "255.255.255.255",
    "::", "::1", "64:ff9b:1::1", "100::1", "2001::1", "2001:db8::1", "2001:20::1", "2002:5db8:d822::1",
    "3fff::1", "fc00::1", "fd12:3456::1", "fe80::1", "fec0::1", "ff02::1", "4000::1",
]  # fmt: skip

PUBLIC = ["93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700::1111", "2001:4860:4860::8888"]


@pytest.fixture
def production(settings):
    """Private addresses refused, as in production (the tests otherwise run as on a laptop)."""
    settings.WEBHOOK_ALLOW_PRIVATE = False


@pytest.fixture
def resolver(monkeypatch) -> Resolver:
    return Resolver.installed(monkeypatch)


# --- the policy ------------------------------------------------------------------------------


@pytest.mark.parametrize("address", NEVER_RECEIVERS)
def test_it_never_sends_to_a_special_purpose_address(address):
    assert address_problem(ipaddress.ip_address(address)) is not None


@pytest.mark.parametrize("address", LOOPBACK_IN_DISGUISE)
def test_it_unwraps_an_ipv6_form_of_loopback_and_refuses_it_as_loopback(address):
    ip = ipaddress.ip_address(address)
    assert embedded_ipv4(ip) == [ipaddress.ip_address("127.0.0.1")]
    assert address_problem(ip).startswith(f"127.0.0.1 (inside {ip}) is in 127.0.0.0/8")


def test_it_reads_both_ipv4_addresses_of_a_teredo_address():
    # Server 65.54.227.120, client 192.0.2.45 (stored inverted), as in RFC 4380's example.
    ip = ipaddress.ip_address("2001:0:4136:e378:8000:63bf:3fff:fdd2")
    assert embedded_ipv4(ip) == [ipaddress.ip_address("65.54.227.120"), ipaddress.ip_address("192.0.2.45")]
    assert address_problem(ip).startswith("192.0.2.45 (inside")


@pytest.mark.parametrize("address", PUBLIC)
def test_it_accepts_a_public_address(address):
    assert address_problem(ipaddress.ip_address(address)) is None


def test_it_refuses_a_name_when_any_of_its_addresses_is_private(resolver):
    resolver.answer("mixed.example.test", ["93.184.216.34", "10.0.0.7"])
    with pytest.raises(AddressRefused, match=r"10\.0\.0\.7"):
        resolve_public("mixed.example.test", 443)


def test_a_name_with_only_public_addresses_is_a_webhook_address(production, resolver):
    resolver.answer("hooks.example.test", ["93.184.216.34", "2606:4700::1111"])
    addresses = resolve_public("hooks.example.test", 443)
    assert addresses == [ipaddress.ip_address("93.184.216.34"), ipaddress.ip_address("2606:4700::1111")]
    assert resolver.lookups == ["hooks.example.test"]
    assert webhook_url_problem("https://hooks.example.test/hook") is None


def test_an_unknown_name_and_a_private_one_get_the_same_sentence(production, resolver):
    # Otherwise the answer would tell which names our own network knows.
    resolver.answer("nowhere.example.test", None)
    resolver.answer("redis.example.test", ["10.0.0.5"])
    assert webhook_url_problem("https://nowhere.example.test/hook") == NOT_PUBLIC.format(host="nowhere.example.test")
    assert webhook_url_problem("https://redis.example.test/hook") == NOT_PUBLIC.format(host="redis.example.test")


@pytest.mark.parametrize(
    "url",
    ["ftp://example.com/x", "https:///hook", "http://example.com:0/", "http://[::1/", "http://a b/",
     "https://example.com/" + "x" * 500],
)  # fmt: skip
def test_it_refuses_an_address_of_the_wrong_shape_even_on_a_laptop(url):
    assert url_shape_problem(url) is not None


# --- saving an address -----------------------------------------------------------------------


def patch_webhook(client, url: str):
    return client.patch("/api/v1/me/notification-settings/", {"webhook_url": url}, format="json")


@pytest.mark.parametrize(("url", "host"), NOT_PUBLIC_URLS)
def test_the_api_refuses_an_address_that_is_not_public(production, bob_client, bob, url, host):
    response = patch_webhook(bob_client, url)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert body["details"] == {"webhook_url": [NOT_PUBLIC.format(host=host)]}
    assert NOT_PUBLIC.format(host=host) in body["message"]
    assert not PlayerPreference.objects.filter(user=bob).exclude(webhook_url="").exists()


def test_the_api_refuses_a_name_that_resolves_to_the_metadata_service(production, bob_client, resolver):
    resolver.answer("metadata.example.test", ["100.100.100.200"])
    response = patch_webhook(bob_client, "https://metadata.example.test/latest/meta-data/")
    assert response.status_code == 400
    assert response.json()["details"]["webhook_url"] == [NOT_PUBLIC.format(host="metadata.example.test")]


@pytest.mark.parametrize("allow_private", [False, True])
@pytest.mark.parametrize(("url", "says"), BAD_SHAPES)
def test_the_api_refuses_credentials_and_a_bad_port_with_a_400(settings, bob_client, bob, allow_private, url, says):
    settings.WEBHOOK_ALLOW_PRIVATE = allow_private
    response = patch_webhook(bob_client, url)
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "details"}
    assert says in body["details"]["webhook_url"][0]
    assert not PlayerPreference.objects.filter(user=bob).exclude(webhook_url="").exists()


@pytest.mark.parametrize(("url", "host"), NOT_PUBLIC_URLS)
def test_the_settings_page_refuses_an_address_that_is_not_public(production, client, alice, url, host):
    client.force_login(alice)
    response = client.post("/settings/webhook/", {"webhook_url": url})
    assert response.status_code == 200
    assert NOT_PUBLIC.format(host=host) in response.content.decode()
    assert not PlayerPreference.objects.filter(user=alice).exclude(webhook_url="").exists()


@pytest.mark.parametrize("allow_private", [False, True])
def test_the_settings_page_refuses_credentials(settings, client, alice, allow_private):
    settings.WEBHOOK_ALLOW_PRIVATE = allow_private
    client.force_login(alice)
    response = client.post("/settings/webhook/", {"webhook_url": "http://user:pw@93.184.216.34/hook"})
    assert response.status_code == 200
    assert "cannot carry a user name or password" in response.content.decode()
    assert not PlayerPreference.objects.filter(user=alice).exclude(webhook_url="").exists()
