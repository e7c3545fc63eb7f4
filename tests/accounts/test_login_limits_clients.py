"""The login limit counts per (username, client), and an IPv6 client is its /64: one attacker cannot
spread guesses over the addresses of a subscriber's block. And an open session's guesses at the
current password count too."""

from __future__ import annotations

from django.test import Client
from rest_framework.throttling import SimpleRateThrottle

from .test_login_limits import RIGHT, ask_for_token, fail_logins


def test_addresses_of_one_ipv6_64_are_one_client_to_the_login_limit(anon_client, alice):
    for n in range(10):
        fail_logins(anon_client, 4, REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}")

    response = ask_for_token(anon_client, RIGHT, REMOTE_ADDR="2001:db8:1:2::ffff")

    assert response.status_code == 429


def test_addresses_of_one_ipv6_64_share_the_anonymous_rate(db, monkeypatch):
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "anon", "2/minute")
    client = Client()
    answers = [client.get("/api/v1/games/", REMOTE_ADDR=f"2001:db8:1:2::{n + 1:x}").status_code for n in range(3)]
    assert answers == [200, 200, 429]


def test_an_open_session_cannot_guess_the_current_password_without_end(client, alice):
    """The email change counts its password check against the login limits; the password change, whose
    current password is the same prize (it then sets a new one), must count too."""
    client.force_login(alice)
    new = "a-Fresh-pass-77"
    for n in range(6):
        client.post("/settings/password/", {"old_password": f"guess-{n}", "new_password1": new, "new_password2": new})

    client.post("/settings/password/", {"old_password": RIGHT, "new_password1": new, "new_password2": new})

    alice.refresh_from_db()
    assert alice.check_password(RIGHT), "the sixth wrong guess locked the pair; the right one then waits too"
