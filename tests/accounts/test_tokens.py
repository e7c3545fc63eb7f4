"""Personal API tokens: created with a name (key shown once), listed with their last use, revoked."""

from rest_framework.test import APIClient

from accounts.models import ApiToken


def test_alice_creates_a_named_token_whose_key_is_shown_once(alice_client, alice):
    response = alice_client.post("/api/v1/me/tokens/", {"name": "my scat bot"})
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["name"] == "my scat bot"
    assert created["token"].startswith(created["prefix"])
    stored = ApiToken.objects.get(public_id=created["id"])
    assert stored.key_hash == ApiToken.hash_key(created["token"])

    listed = alice_client.get("/api/v1/me/tokens/").json()
    assert created["id"] in [t["id"] for t in listed["results"]]
    assert all("token" not in t for t in listed["results"])
    assert created["token"] not in str(listed)


def test_the_list_shows_when_each_token_was_last_used(alice_client, alice):
    key = alice_client.post("/api/v1/me/tokens/", {"name": "script"}).json()["token"]
    assert (
        next(t for t in alice_client.get("/api/v1/me/tokens/").json()["results"] if t["name"] == "script")[
            "last_used_at"
        ]
        is None
    )

    script = APIClient()
    script.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert script.get("/api/v1/me/").status_code == 200

    listed = script.get("/api/v1/me/tokens/").json()["results"]
    mine = next(t for t in listed if t["name"] == "script")
    assert mine["last_used_at"] is not None
    assert mine["is_current"] is True
    assert next(t for t in listed if t["name"] == "tests")["is_current"] is False


def test_a_revoked_token_is_refused_with_401(alice_client, alice):
    created = alice_client.post("/api/v1/me/tokens/", {"name": "old laptop"}).json()
    old_laptop = APIClient()
    old_laptop.credentials(HTTP_AUTHORIZATION=f"Token {created['token']}")
    assert old_laptop.get("/api/v1/me/").status_code == 200

    response = alice_client.delete(f"/api/v1/me/tokens/{created['id']}/")
    assert response.status_code == 204

    refused = old_laptop.get("/api/v1/me/")
    assert refused.status_code == 401
    assert refused.json()["code"] == "authentication_failed"
    assert created["id"] not in [t["id"] for t in alice_client.get("/api/v1/me/tokens/").json()["results"]]
    assert alice_client.delete(f"/api/v1/me/tokens/{created['id']}/").status_code == 404


def test_bob_cannot_revoke_alices_token(alice_client, bob_client):
    created = alice_client.post("/api/v1/me/tokens/", {"name": "alice's"}).json()
    response = bob_client.delete(f"/api/v1/me/tokens/{created['id']}/")
    assert response.status_code == 404
    assert ApiToken.objects.get(public_id=created["id"]).revoked_at is None


def test_token_ids_are_not_guessable_integers(alice_client, alice):
    created = alice_client.post("/api/v1/me/tokens/", {"name": "x"}).json()
    assert not created["id"].isdigit()
    assert len(created["id"]) >= 12
    token = ApiToken.objects.get(public_id=created["id"])
    assert alice_client.delete(f"/api/v1/me/tokens/{token.pk}/").status_code == 404


def test_a_token_needs_a_name_and_we_say_so(alice_client):
    for body in ({}, {"name": ""}, {"name": "   "}):
        response = alice_client.post("/api/v1/me/tokens/", body)
        assert response.status_code == 400
        assert "Give the token a name" in response.json()["message"]
    long_name = alice_client.post("/api/v1/me/tokens/", {"name": "n" * 61}).json()
    assert "60 characters" in long_name["message"]


def test_an_account_holds_a_bounded_number_of_tokens(alice_client, alice, monkeypatch):
    monkeypatch.setattr("accounts.services.MAX_ACTIVE_TOKENS", 2)
    alice_client.post("/api/v1/me/tokens/", {"name": "second"})
    response = alice_client.post("/api/v1/me/tokens/", {"name": "third"})
    assert response.status_code == 400
    assert "revoke one" in response.json()["message"]


def test_token_management_needs_an_account(anon_client, db):
    assert anon_client.get("/api/v1/me/tokens/").status_code == 401
    assert anon_client.post("/api/v1/me/tokens/", {"name": "x"}).status_code == 401


def test_the_password_exchange_obeys_the_same_cap(anon_client, alice, monkeypatch):
    monkeypatch.setattr("accounts.services.MAX_ACTIVE_TOKENS", 2)
    credentials = {"username": "alice", "password": "alice-pw-1234"}
    assert [anon_client.post("/api/v1/auth/token/", credentials).status_code for _ in range(2)] == [201, 201]
    refused = anon_client.post("/api/v1/auth/token/", credentials)
    assert refused.status_code == 400
    assert refused.json()["code"] == "too_many_tokens"
    assert ApiToken.objects.active().filter(user=alice).count() == 2
