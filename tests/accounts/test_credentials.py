"""A token cannot take over an account: changing the email needs the password, and a new password
ends whatever the old one opened (API tokens, other sessions, the webhook's signing secret)."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client

from accounts.models import ApiToken
from notifications.models import PlayerPreference
from tests.conftest import client_for

NEW_PASSWORD = "a-Fresh-pass-77"


def logged_in(user) -> Client:
    client = Client()
    assert client.post("/accounts/login/", {"username": user.username, "password": f"{user.username}-pw-1234"})
    return client


def test_a_password_change_revokes_every_token_and_ends_other_sessions(alice):
    api = client_for(alice)
    PlayerPreference.objects.create(user=alice, webhook_url="https://hooks.example.com/", webhook_secret="old-secret")
    here, elsewhere = logged_in(alice), logged_in(alice)
    assert api.get("/api/v1/me/").status_code == 200

    changed = here.post(
        "/settings/password/",
        {"old_password": "alice-pw-1234", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert changed.status_code == 302
    assert api.get("/api/v1/me/").status_code == 401
    assert not ApiToken.objects.active().filter(user=alice).exists()
    assert here.get("/settings/").status_code == 200  # this session stays
    assert elsewhere.get("/settings/").status_code == 302  # the other one is sent to the login page
    assert PlayerPreference.objects.get(user=alice).webhook_secret not in ("", "old-secret")


def test_a_password_reset_revokes_every_token(client, alice):
    api = client_for(alice)
    client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert api.get("/api/v1/me/").status_code == 401
    assert not ApiToken.objects.active().filter(user=alice).exists()


def test_a_failed_password_change_revokes_nothing(alice):
    api, here = client_for(alice), logged_in(alice)
    here.post(
        "/settings/password/", {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert api.get("/api/v1/me/").status_code == 200


def test_a_token_alone_cannot_change_the_email(alice_client, alice):
    missing = alice_client.patch("/api/v1/me/", {"email": "mallory@example.com"}, format="json")
    assert missing.status_code == 400
    assert missing.json()["details"]["current_password"]
    wrong = alice_client.patch(
        "/api/v1/me/", {"email": "mallory@example.com", "current_password": "guess"}, format="json"
    )
    assert wrong.status_code == 400
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_the_password_lets_the_email_change(alice_client, alice):
    changed = alice_client.patch(
        "/api/v1/me/", {"email": "alice@new.example.com", "current_password": "alice-pw-1234"}, format="json"
    )
    assert changed.status_code == 200
    assert "current_password" not in changed.json()
    alice.refresh_from_db()
    assert alice.email == "alice@new.example.com"


def test_other_fields_and_the_same_email_need_no_password(alice_client):
    same = alice_client.patch("/api/v1/me/", {"email": "ALICE@example.com", "time_zone": "Europe/Istanbul"})
    assert same.status_code == 200


def test_guessing_the_password_through_the_email_change_is_limited(alice_client):
    for _ in range(5):
        alice_client.patch("/api/v1/me/", {"email": "m@example.com", "current_password": "guess"}, format="json")
    locked = alice_client.patch(
        "/api/v1/me/", {"email": "m@example.com", "current_password": "alice-pw-1234"}, format="json"
    )
    assert locked.status_code == 429
    assert locked.json()["code"] == "too_many_failed_logins"


def test_the_settings_page_asks_for_the_password_to_change_the_email(alice):
    here = logged_in(alice)
    profile = {"display_name": "", "email": "mallory@example.com", "time_zone": "UTC", "language": "en"}
    refused = here.post("/settings/profile/", profile)
    assert refused.status_code == 200
    assert "Type your current password to change your email address." in refused.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"

    saved = here.post("/settings/profile/", {**profile, "current_password": "alice-pw-1234"})
    assert saved.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "mallory@example.com"


def test_the_email_cannot_move_to_an_address_another_account_uses(alice_client, alice, bob):
    taken = alice_client.patch(
        "/api/v1/me/", {"email": "BOB@example.com", "current_password": "alice-pw-1234"}, format="json"
    )
    assert taken.status_code == 400
    assert taken.json()["details"]["email"] == ["Another account uses that email address."]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"
