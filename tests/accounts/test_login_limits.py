"""Password guessing is limited per (username, client address); password-reset mail per address and email."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from accounts import login_limits
from accounts.login_limits import wait_text
from accounts.models import ApiToken

TOKEN_URL = "/api/v1/auth/token/"
LOGIN_URL = "/accounts/login/"
RESET_URL = "/accounts/password/reset/"
RIGHT = "alice-pw-1234"
ADDRESS_A = "203.0.113.10"
ADDRESS_B = "198.51.100.20"
NOON = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def ask_for_token(client: APIClient, password: str, username: str = "alice", **extra):
    return client.post(TOKEN_URL, {"username": username, "password": password}, **extra)


def fail_logins(client: APIClient, times: int, username: str = "alice", **extra) -> None:
    for _ in range(times):
        assert ask_for_token(client, "wrong", username, **extra).status_code in (400, 429)


def retry_after_in_message(response) -> int:
    return int(re.search(r"try again in (\d+) seconds", response.json()["message"]).group(1))


# --- the token endpoint ------------------------------------------------------------------------


def test_150_wrong_passwords_with_a_rotating_forwarded_for_leave_the_right_one_refused(anon_client, alice):
    for n in range(150):
        ask_for_token(anon_client, f"guess-{n}", HTTP_X_FORWARDED_FOR=f"10.0.{n // 250}.{n % 250}")

    response = ask_for_token(anon_client, RIGHT, HTTP_X_FORWARDED_FOR="10.9.9.9")

    assert response.status_code == 429
    assert response.json()["code"] == "too_many_failed_logins"
    assert set(response.json()) == {"code", "message", "details"}
    assert not ApiToken.objects.filter(user=alice).exists()


def test_the_lock_message_and_retry_after_name_the_same_second(anon_client, alice):
    fail_logins(anon_client, 5)
    response = ask_for_token(anon_client, RIGHT)
    assert response.status_code == 429
    assert retry_after_in_message(response) == int(response.headers["Retry-After"]) == 60


def test_with_one_trusted_proxy_two_forwarded_clients_are_limited_separately(anon_client, alice, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    fail_logins(anon_client, 5, HTTP_X_FORWARDED_FOR=ADDRESS_A)

    assert ask_for_token(anon_client, RIGHT, HTTP_X_FORWARDED_FOR=ADDRESS_A).status_code == 429
    assert ask_for_token(anon_client, RIGHT, HTTP_X_FORWARDED_FOR=ADDRESS_B).status_code == 201


def test_without_trusted_proxies_the_forwarded_for_header_is_ignored(anon_client, alice, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    fail_logins(anon_client, 5, HTTP_X_FORWARDED_FOR=ADDRESS_A)

    assert ask_for_token(anon_client, RIGHT, HTTP_X_FORWARDED_FOR=ADDRESS_B).status_code == 429


def test_a_lock_on_alice_from_one_address_does_not_lock_her_out_from_another(anon_client, alice):
    fail_logins(anon_client, 5, REMOTE_ADDR=ADDRESS_A)

    assert ask_for_token(anon_client, RIGHT, REMOTE_ADDR=ADDRESS_A).status_code == 429
    assert ask_for_token(anon_client, RIGHT, REMOTE_ADDR=ADDRESS_B).status_code == 201


def test_a_lock_on_alice_does_not_lock_bob_at_the_same_address(anon_client, alice, bob):
    fail_logins(anon_client, 5)
    assert ask_for_token(anon_client, RIGHT).status_code == 429
    assert ask_for_token(anon_client, "bob-pw-1234", "bob").status_code == 201


def test_the_username_is_counted_without_regard_to_case(anon_client, alice):
    for spelling in ("ALICE", "Alice", " alice", "aLiCe", "alice"):
        ask_for_token(anon_client, "wrong", spelling)
    assert ask_for_token(anon_client, RIGHT).status_code == 429


def test_unknown_usernames_are_limited_like_known_ones(anon_client, alice):
    with time_machine.travel(NOON, tick=False):
        fail_logins(anon_client, 5, "alice")
        fail_logins(anon_client, 5, "nobody")
        known, unknown = ask_for_token(anon_client, "wrong", "alice"), ask_for_token(anon_client, "wrong", "nobody")

    assert known.status_code == unknown.status_code == 429
    assert known.json() == unknown.json()


def test_a_success_clears_the_failures_before_it(anon_client, alice):
    fail_logins(anon_client, 4)
    assert ask_for_token(anon_client, RIGHT).status_code == 201
    fail_logins(anon_client, 4)
    assert ask_for_token(anon_client, RIGHT).status_code == 201
    fail_logins(anon_client, 5)  # five in a row, though, do lock
    assert ask_for_token(anon_client, RIGHT).status_code == 429


def test_the_lock_doubles_with_each_further_failure_and_ends_on_time(anon_client, alice):
    with time_machine.travel(NOON, tick=False) as traveller:
        fail_logins(anon_client, 5)
        waits = []
        for _ in range(3):
            locked = ask_for_token(anon_client, RIGHT)
            assert locked.status_code == 429
            waits.append(int(locked.headers["Retry-After"]))
            traveller.shift(waits[-1] - 1)
            assert ask_for_token(anon_client, RIGHT).status_code == 429  # a second early: still locked
            traveller.shift(1)
            assert ask_for_token(anon_client, "wrong").status_code == 400  # checked, and wrong again
        assert waits == [60, 120, 240]

        traveller.shift(480)
        assert ask_for_token(anon_client, RIGHT).status_code == 201


def test_the_lock_stops_growing_at_an_hour():
    assert [login_limits.lock_seconds(failures) for failures in range(4, 13)] == [
        0,
        60,
        120,
        240,
        480,
        960,
        1920,
        3600,
        3600,
    ]


def test_a_burst_of_parallel_attempts_gets_no_more_password_checks_than_the_limit():
    checks, refusals = 0, 0
    for _ in range(20):  # all started before any of them has finished its check
        try:
            login_limits.start_login_attempt("alice", ADDRESS_A)
            checks += 1
        except login_limits.LoginLocked:
            refusals += 1
    assert (checks, refusals) == (5, 15)


def test_limits_are_not_enforced_while_redis_is_away(anon_client, alice, settings):
    # Pins the degradation of config/cache.py: no lock, and above all no 500.
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 0.05, "socket_timeout": 0.05},
        }
    }
    fail_logins(anon_client, 6)
    assert ask_for_token(anon_client, RIGHT).status_code == 201


# --- the HTML login ----------------------------------------------------------------------------


def test_80_wrong_passwords_on_the_login_page_leave_the_right_one_refused(client: Client, alice):
    for n in range(80):
        client.post(LOGIN_URL, {"username": "alice", "password": f"guess-{n}"})

    response = client.post(LOGIN_URL, {"username": "alice", "password": RIGHT})

    assert response.status_code == 200
    assert "Too many failed logins for this username from your address" in response.content.decode()
    assert "Try again in" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert client.get("/settings/").status_code == 302  # still sent to the login page


def test_the_login_page_and_the_api_share_one_count(client: Client, anon_client, alice):
    for _ in range(5):
        client.post(LOGIN_URL, {"username": "alice", "password": "wrong"})
    assert ask_for_token(anon_client, RIGHT).status_code == 429


def test_the_login_page_logs_alice_in_from_another_address_while_one_is_locked(client: Client, alice):
    for _ in range(5):
        client.post(LOGIN_URL, {"username": "alice", "password": "wrong"}, REMOTE_ADDR=ADDRESS_A)

    refused = client.post(LOGIN_URL, {"username": "alice", "password": RIGHT}, REMOTE_ADDR=ADDRESS_A)
    accepted = client.post(LOGIN_URL, {"username": "alice", "password": RIGHT}, REMOTE_ADDR=ADDRESS_B)

    assert "Too many failed logins" in refused.content.decode()
    assert accepted.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_admin_login_is_limited_too(client: Client, alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    for _ in range(5):
        client.post("/admin/login/", {"username": "alice", "password": "wrong"})

    response = client.post("/admin/login/?next=/admin/", {"username": "alice", "password": RIGHT})

    assert response.status_code == 200
    assert "Too many failed logins" in response.content.decode()
    assert "_auth_user_id" not in client.session


# --- password reset ----------------------------------------------------------------------------


def ask_for_reset(client: Client, email: str, **extra):
    return client.post(RESET_URL, {"email": email}, **extra)


def test_a_fourth_reset_for_one_email_within_the_hour_sends_nothing(client: Client, alice):
    responses = [ask_for_reset(client, "alice@example.com", REMOTE_ADDR=f"10.0.0.{n}") for n in range(1, 5)]

    assert len(mail.outbox) == 3
    assert {r.status_code for r in responses} == {302}
    assert {r["Location"] for r in responses} == {"/accounts/password/reset/sent/"}


def test_the_email_limit_ignores_case(client: Client, alice):
    for n, spelling in enumerate(["alice@example.com", "ALICE@example.com", "Alice@Example.com", "alice@EXAMPLE.COM"]):
        ask_for_reset(client, spelling, REMOTE_ADDR=f"10.0.0.{n}")
    assert len(mail.outbox) == 3


def test_one_address_gets_five_resets_an_hour_and_another_address_more(client: Client, alice, bob):
    for n in range(4):
        ask_for_reset(client, f"nobody-{n}@example.com", REMOTE_ADDR=ADDRESS_A)
    ask_for_reset(client, "alice@example.com", REMOTE_ADDR=ADDRESS_A)
    assert len(mail.outbox) == 1

    over = ask_for_reset(client, "bob@example.com", REMOTE_ADDR=ADDRESS_A)
    assert over.status_code == 302 and over["Location"] == "/accounts/password/reset/sent/"
    assert len(mail.outbox) == 1

    ask_for_reset(client, "bob@example.com", REMOTE_ADDR=ADDRESS_B)
    assert [message.to for message in mail.outbox] == [["alice@example.com"], ["bob@example.com"]]


def test_the_reset_limit_lifts_after_an_hour(client: Client, alice):
    with time_machine.travel(NOON, tick=False) as traveller:
        for n in range(4):
            ask_for_reset(client, "alice@example.com", REMOTE_ADDR=f"10.0.0.{n}")
        assert len(mail.outbox) == 3
        traveller.shift(3601)
        ask_for_reset(client, "alice@example.com", REMOTE_ADDR="10.0.1.1")
        assert len(mail.outbox) == 4


@pytest.mark.parametrize("seconds, text", [(1, "1 second"), (59, "59 seconds"), (60, "1 minute"), (61, "2 minutes")])
def test_the_page_says_the_wait_in_seconds_or_whole_minutes_rounded_up(seconds, text):
    assert wait_text(seconds) == text
