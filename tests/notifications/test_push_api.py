"""The push API: the site's key, and a player's devices. Hostile input is a 400 in the API's error
shape; a device is its owner's alone."""

from __future__ import annotations

import pytest

from notifications import devices, vapid
from notifications.models import PushSubscription
from notifications.vapid import b64url
from tests.conftest import client_for

from .push_service import Browser, unb64url

ENDPOINT = "https://push.example.com/send/abc"


@pytest.fixture
def browser() -> Browser:
    return Browser(ENDPOINT)


@pytest.fixture
def public_push_service(monkeypatch, settings):
    """push.example.com resolves to a public address; nothing is sent in these tests."""
    import socket

    settings.PUSH_ALLOW_PRIVATE = False
    real = socket.getaddrinfo

    def getaddrinfo(host, *args, **kwargs):
        if host == "push.example.com":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", 443))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)


def test_anyone_may_read_the_sites_public_key(anon_client):
    answer = anon_client.get("/api/v1/push/key/")
    assert answer.status_code == 200
    key = unb64url(answer.json()["public_key"])
    assert len(key) == 65 and key[0] == 4  # an uncompressed P-256 point, as PushManager.subscribe takes
    assert answer.json()["public_key"] == vapid.public_key()


def test_a_device_is_subscribed_listed_and_removed(public_push_service, alice, browser):
    client = client_for(alice)
    created = client.post("/api/v1/me/push-subscriptions/", browser.as_json("Alice's phone"), format="json")
    assert created.status_code == 201
    device = created.json()
    assert device["name"] == "Alice's phone" and device["endpoint_host"] == "push.example.com"
    assert "keys" not in device and "endpoint" not in device  # the browser's secrets stay with us

    again = client.post("/api/v1/me/push-subscriptions/", browser.as_json("Alice's phone"), format="json")
    assert again.status_code == 200 and again.json()["id"] == device["id"]  # the same browser, renewed

    assert [d["id"] for d in client.get("/api/v1/me/push-subscriptions/").json()] == [device["id"]]
    assert client.delete(f"/api/v1/me/push-subscriptions/{device['id']}/").status_code == 204
    assert client.get("/api/v1/me/push-subscriptions/").json() == []


def test_bob_cannot_see_or_remove_alices_device(public_push_service, alice, bob, browser):
    device = client_for(alice).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json").json()
    bobs = client_for(bob)
    assert bobs.get("/api/v1/me/push-subscriptions/").json() == []
    answer = bobs.delete(f"/api/v1/me/push-subscriptions/{device['id']}/")
    assert answer.status_code == 404 and answer.json()["code"] == "no_such_device"
    assert PushSubscription.objects.filter(public_id=device["id"]).exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"endpoint": "http://push.example.com/send/abc"}, "endpoint"),  # not https
        ({"endpoint": "https://127.0.0.1/push"}, "endpoint"),  # our own machine
        ({"endpoint": "https://169.254.169.254/latest/"}, "endpoint"),  # cloud metadata
        ({"endpoint": "https://user:pw@push.example.com/x"}, "endpoint"),
        ({"endpoint": "https://push.example.com/" + "a" * 1000}, "endpoint"),
        ({"endpoint": "not a url"}, "endpoint"),
        ({"keys": {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": b64url(b"x" * 16)}}, "keys"),  # off the curve
        ({"keys": {"p256dh": "!!!", "auth": b64url(b"x" * 16)}}, "keys"),
        ({"keys": {"auth": b64url(b"x" * 16)}}, "keys"),
        ({"name": "x" * 81}, "name"),
        ({"keys": "text"}, "keys"),
    ],
)
def test_a_bad_subscription_is_a_400_that_says_what_is_wrong(public_push_service, alice, browser, change, field):
    body = {**browser.as_json(), **change}
    answer = client_for(alice).post("/api/v1/me/push-subscriptions/", body, format="json")
    assert answer.status_code == 400, answer.json()
    assert field in str(answer.json()), answer.json()
    assert not PushSubscription.objects.exists()


def test_a_player_holds_at_most_twenty_devices(public_push_service, alice):
    client = client_for(alice)
    for n in range(devices.MAX_DEVICES):
        answer = client.post("/api/v1/me/push-subscriptions/", Browser(f"{ENDPOINT}/{n}").as_json(), format="json")
        assert answer.status_code == 201
    answer = client.post("/api/v1/me/push-subscriptions/", Browser(f"{ENDPOINT}/last").as_json(), format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "too_many_devices"


def test_a_browser_subscribed_again_by_another_account_moves_to_it(public_push_service, alice, bob, browser):
    client_for(alice).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
    answer = client_for(bob).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
    assert answer.status_code == 200
    assert PushSubscription.objects.get().user == bob
    alice.preference.refresh_from_db()
    assert "push" not in alice.preference.channels_for("your_turn")


def test_an_endpoint_of_another_account_is_refused_without_that_browsers_keys(public_push_service, alice, bob, browser):
    """Bob learnt Alice's endpoint (not her browser's keys): his registration of it with keys of his
    own is refused, and her device, its keys and her push settings stay as they were."""
    client_for(alice).post("/api/v1/me/push-subscriptions/", browser.as_json("Alice's phone"), format="json")
    stolen = Browser(ENDPOINT)  # the same address, other keys
    half_stolen = {**browser.as_json(), "keys": {**browser.keys, "auth": stolen.keys["auth"]}}
    answers = [
        client_for(bob).post("/api/v1/me/push-subscriptions/", body, format="json")
        for body in (stolen.as_json("mine now"), half_stolen)
    ]
    for answer in answers:
        assert answer.status_code == 409, answer.content
        assert set(answer.json()) == {"code", "message", "details"}
        assert answer.json()["code"] == "endpoint_in_use"
        assert "alice" not in answer.content.decode()
    assert answers[0].json() == answers[1].json()  # nothing said about which key differed
    device = PushSubscription.objects.get()
    assert (device.user, device.name) == (alice, "Alice's phone")
    assert (device.p256dh, device.auth) == (browser.keys["p256dh"], browser.keys["auth"])
    alice.preference.refresh_from_db()
    assert "push" in alice.preference.channels_for("your_turn")
    assert client_for(bob).get("/api/v1/me/push-subscriptions/").json() == []


def test_subscribing_adds_push_to_the_turn_events_only(public_push_service, alice, browser):
    client_for(alice).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
    settings_now = client_for(alice).get("/api/v1/me/notification-settings/").json()
    assert "push" in settings_now["channels"]["your_turn"]
    assert "push" in settings_now["channels"]["time_running_out"]
    assert "game_over" not in settings_now["channels"] or "push" not in settings_now["channels"]["game_over"]


def test_a_password_change_removes_every_device(public_push_service, alice, browser):
    from accounts import services as account_services

    client_for(alice).post("/api/v1/me/push-subscriptions/", browser.as_json(), format="json")
    account_services.password_changed(user=alice)
    assert not PushSubscription.objects.filter(user=alice).exists()


def test_quiet_hours_and_the_follow_up_delay_are_settings_of_the_api(alice):
    client = client_for(alice)
    answer = client.patch(
        "/api/v1/me/notification-settings/",
        {"quiet_hours_start": "22:00", "quiet_hours_end": "07:30", "follow_up_after": None},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["quiet_hours_start"] == "22:00:00" and answer.json()["follow_up_after"] is None
    one_end = client.patch("/api/v1/me/notification-settings/", {"quiet_hours_start": None}, format="json")
    assert one_end.status_code == 400 and "quiet_hours_end" in str(one_end.json())
    too_short = client.patch("/api/v1/me/notification-settings/", {"follow_up_after": 5}, format="json")
    assert too_short.status_code == 400


def test_quiet_hours_are_a_time_of_day_without_a_zone(alice):
    client = client_for(alice)
    for sent in ("06:49:48.1-01:48", "22:00+03:00", "22:00:00.5", "25:00"):
        answer = client.patch(
            "/api/v1/me/notification-settings/",
            {"quiet_hours_start": sent, "quiet_hours_end": "07:00"},
            format="json",
        )
        assert answer.status_code == 400, sent
        assert "quiet_hours_start" in answer.json()["details"]
    night = {"quiet_hours_start": "22:15:30", "quiet_hours_end": "07:00"}
    kept = client.patch("/api/v1/me/notification-settings/", night, format="json")
    assert (kept.json()["quiet_hours_start"], kept.json()["quiet_hours_end"]) == ("22:15:30", "07:00:00")
