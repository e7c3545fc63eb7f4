from accounts.models import ApiToken


def test_alice_trades_her_password_for_a_token_that_works(anon_client, alice):
    response = anon_client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-pw-1234"})
    assert response.status_code == 201
    key = response.json()["token"]

    anon_client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    me = anon_client.get("/api/v1/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"


def test_tokens_are_stored_hashed(anon_client, alice):
    key = anon_client.post("/api/v1/auth/token/", {"username": "alice", "password": "alice-pw-1234"}).json()["token"]
    token = ApiToken.objects.get(user=alice)
    assert token.key_hash == ApiToken.hash_key(key)
    assert key not in (token.key_hash, token.prefix)


def test_a_wrong_password_gets_a_clear_400(anon_client, alice):
    response = anon_client.post("/api/v1/auth/token/", {"username": "alice", "password": "nope"})
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert "password" in body["message"]


def test_a_missing_field_is_named(anon_client, db):
    response = anon_client.post("/api/v1/auth/token/", {"username": "alice"})
    assert response.status_code == 400
    assert "password" in response.json()["details"]


def test_me_without_credentials_is_401_with_json(anon_client, db):
    response = anon_client.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_a_revoked_token_no_longer_works(alice_client, alice):
    ApiToken.objects.filter(user=alice).update(revoked_at="2026-01-01T00:00:00Z")
    response = alice_client.get("/api/v1/me/")
    assert response.status_code == 401


def test_an_unknown_api_address_is_a_json_404(alice_client):
    response = alice_client.get("/api/v1/nothing-here/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
