"""The settings page: profile edit, password change, API tokens; and password reset by email."""

import re

from django.core import mail

from accounts.models import ApiToken, User


def profile_form(**changes):
    return {"display_name": "", "email": "alice@example.com", "time_zone": "UTC", "language": "en", **changes}


def test_settings_need_a_login(client, db):
    response = client.get("/settings/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_the_settings_page_has_every_section(client, alice):
    client.force_login(alice)
    html = client.get("/settings/").content.decode()
    for anchor in ('id="profile"', 'id="password"', 'id="tokens"'):
        assert anchor in html
    assert '<label for="id_time_zone">Time zone</label>' in html


def test_alice_saves_her_profile_and_her_language_follows(client, alice):
    client.force_login(alice)
    response = client.post(
        "/settings/profile/", profile_form(display_name="Alice", time_zone="Asia/Tehran", language="fa")
    )
    assert response.status_code == 302
    assert response["Location"] == "/settings/?saved=profile#profile"
    assert response.cookies["django_language"].value == "fa"
    alice.refresh_from_db()
    assert (alice.display_name, alice.time_zone, alice.language) == ("Alice", "Asia/Tehran", "fa")


def test_profile_errors_say_what_to_fix(client, alice):
    client.force_login(alice)
    response = client.post(
        "/settings/profile/",
        profile_form(display_name="x" * 61, email="alice-at-home", time_zone="Mars/Olympus", language="de"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Shorten the display name to 60 characters or fewer." in html
    assert "such as alice@example.com" in html
    assert "Mars/Olympus" in html and "is not a time zone we know" in html
    assert "is not a language of this site" in html
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"
    assert "x" * 61 not in html.split("<main")[0]  # the header still shows the saved name


def test_an_empty_email_is_refused_with_a_reason(client, alice):
    client.force_login(alice)
    html = client.post("/settings/profile/", profile_form(email="")).content.decode()
    assert "it is how you reset a forgotten password" in html


def test_alice_changes_her_password_and_stays_logged_in(client, alice):
    client.force_login(alice)
    response = client.post(
        "/settings/password/",
        {"old_password": "alice-pw-1234", "new_password1": "a-Fresh-pass-77", "new_password2": "a-Fresh-pass-77"},
    )
    assert response.status_code == 302
    assert client.get("/settings/").status_code == 200
    alice.refresh_from_db()
    assert alice.check_password("a-Fresh-pass-77")


def test_a_wrong_current_password_or_a_mismatch_is_explained(client, alice):
    client.force_login(alice)
    html = client.post(
        "/settings/password/",
        {"old_password": "nope", "new_password1": "a-Fresh-pass-77", "new_password2": "another-pass-77"},
    ).content.decode()
    assert "Your current password is not right; type it again." in html
    html = client.post(
        "/settings/password/",
        {"old_password": "alice-pw-1234", "new_password1": "a-Fresh-pass-77", "new_password2": "another-pass-77"},
    ).content.decode()
    assert "Type the same new password in both fields." in html


def test_a_token_made_on_the_page_is_shown_once_and_then_listed(client, alice):
    client.force_login(alice)
    response = client.post("/settings/tokens/", {"name": "my scat bot"})
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    key = re.search(r'id="new-token-key">([0-9a-f]{40})<', response.content.decode()).group(1)
    token = ApiToken.objects.get(user=alice, name="my scat bot")
    assert token.key_hash == ApiToken.hash_key(key)

    again = client.get("/settings/").content.decode()
    assert key not in again
    assert "my scat bot" in again and f"{token.prefix}…" in again and "never" in again


def test_a_token_without_a_name_is_refused_on_the_page(client, alice):
    client.force_login(alice)
    html = client.post("/settings/tokens/", {"name": ""}).content.decode()
    assert "Give the token a name" in html
    assert not ApiToken.objects.filter(user=alice).exists()


def test_revoking_on_the_page_locks_the_token_out(client, alice):
    token, key = ApiToken.issue(user=alice, name="old laptop")
    client.force_login(alice)
    response = client.post(f"/settings/tokens/{token.public_id}/revoke/")
    assert response.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/me/").status_code == 401


def test_bob_cannot_revoke_alices_token_from_his_page(client, alice, bob):
    token, _key = ApiToken.issue(user=alice, name="alice's")
    client.force_login(bob)
    assert client.post(f"/settings/tokens/{token.public_id}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_password_reset_mails_a_link_that_sets_a_new_password(client, alice):
    assert "/accounts/password/reset/" in client.get("/accounts/login/").content.decode()
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert "Your username is alice." in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    set_password_url = form.redirect_chain[-1][0]
    done = client.post(set_password_url, {"new_password1": "a-Fresh-pass-77", "new_password2": "a-Fresh-pass-77"})
    assert done.status_code == 302

    client.logout()
    login = client.post("/accounts/login/", {"username": "alice", "password": "a-Fresh-pass-77"})
    assert login.status_code == 302
    # The link works once.
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_password_reset_does_not_reveal_whether_an_address_has_an_account(client, db):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []
    assert User.objects.count() == 0
