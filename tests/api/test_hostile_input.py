"""Requests built to break the API answer a 4xx in its error shape, never a 500 or an HTML page."""

from __future__ import annotations

import itertools
import logging

import pytest
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.urls import include, path

from config.urls import handler400, handler403, handler404, handler500  # noqa: F401  (for this URLconf)
from tests.conftest import client_for

from .helpers import create_game

pytestmark = pytest.mark.django_db

NESTED_5000 = "[" * 5000 + "]" * 5000
GAME_ADDRESSES = [
    ("get", "/api/v1/games/{}/"),
    ("get", "/api/v1/games/{}/moves/"),
    ("post", "/api/v1/games/{}/moves/"),
    ("get", "/api/v1/games/{}/turns/"),
    ("get", "/api/v1/games/{}/verify/"),
    ("post", "/api/v1/games/{}/join/"),
    ("post", "/api/v1/games/{}/leave/"),
    ("post", "/api/v1/games/{}/start/"),
    ("post", "/api/v1/games/{}/decline/"),
    ("post", "/api/v1/games/{}/resign/"),
    ("post", "/api/v1/games/{}/invitations/"),
]

BODY_ADDRESSES = [
    ("post", "/api/v1/games/"),
    ("post", "/api/v1/auth/token/"),
    ("post", "/api/v1/notifications/read/"),
    ("patch", "/api/v1/me/notification-settings/"),
    ("post", "/api/v1/games/nope/moves/"),
]


def assert_error_shape(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"code", "message", "details"}, body
    assert body["message"]
    return body


@pytest.fixture(params=["anonymous", "signed in"])
def any_client(request, alice):
    return client_for(None if request.param == "anonymous" else alice)


# --- ids out of range ------------------------------------------------------------------------


def test_it_refuses_a_notification_id_beyond_the_id_column(postgres, anon_client, alice_client, bob_client):
    create_game(alice_client, seats=2, invite=["bob"])
    assert_error_shape(anon_client.post("/api/v1/notifications/read/", {"ids": [10**20]}, format="json"), 401)
    for too_big in (10**20, 2**63):
        response = bob_client.post("/api/v1/notifications/read/", {"ids": [too_big]}, format="json")
        body = assert_error_shape(response, 400)
        assert "ids" in body["details"]
    assert bob_client.get("/api/v1/notifications/").json()["unread_count"] == 1
    # The largest id the column holds is still an id (of nothing here).
    response = bob_client.post("/api/v1/notifications/read/", {"ids": [2**63 - 1]}, format="json")
    assert response.status_code == 200
    assert response.json()["marked"] == 0


# --- a NUL or a foreign character in a path id -----------------------------------------------


@pytest.mark.parametrize(("method", "address"), GAME_ADDRESSES)
@pytest.mark.parametrize("game_id", ["a%00b", "%00", "abc%00"])
def test_a_game_id_that_cannot_be_one_is_not_found(postgres, any_client, method, address, game_id):
    response = getattr(any_client, method)(address.format(game_id), {}, format="json")
    assert_error_shape(response, 404)


def test_a_nul_in_a_player_or_token_id_is_not_found(postgres, any_client):
    for method, address in [
        ("get", "/api/v1/users/a%00b/"),
        ("delete", "/api/v1/me/blocks/a%00b/"),
        ("delete", "/api/v1/me/tokens/a%00b/"),
    ]:
        assert_error_shape(getattr(any_client, method)(address), 404)


def test_a_nul_in_a_game_id_is_not_found_with_debug_on(postgres, alice_client):
    with override_settings(DEBUG=True):
        assert_error_shape(alice_client.get("/api/v1/games/a%00b/"), 404)
        assert_error_shape(alice_client.post("/api/v1/games/a%00b/join/", {}, format="json"), 404)


# --- bodies ----------------------------------------------------------------------------------


def test_it_refuses_json_nested_5000_deep_when_signed_in(postgres, alice):
    for client, (method, address) in itertools.product([client_for(alice), session_client(alice)], BODY_ADDRESSES):
        response = getattr(client, method)(address, NESTED_5000, content_type="application/json")
        body = assert_error_shape(response, 400)
        assert body["code"] == "parse_error", address
        assert "nested too deeply" in body["message"]
        assert body["details"] == {"max_depth": 64}


def test_it_refuses_json_nested_5000_deep_anonymously(postgres, anon_client):
    response = anon_client.post("/api/v1/auth/token/", NESTED_5000, content_type="application/json")
    assert assert_error_shape(response, 400)["code"] == "parse_error"
    # Creating a game needs an account first: refused before the body is read.
    assert_error_shape(anon_client.post("/api/v1/games/", NESTED_5000, content_type="application/json"), 401)


def test_it_refuses_nesting_past_the_bound_and_nothing_else(alice_client):
    def answer(body: str) -> dict:
        return assert_error_shape(alice_client.post("/api/v1/games/", body, content_type="application/json"), 400)

    # 65 levels: deep enough to refuse, shallow enough for Python's json module.
    too_deep = answer('{"kind": "scat", "options": ' + '{"a": ' * 64 + "1" + "}" * 64 + "}")
    assert too_deep["code"] == "parse_error" and "nested too deeply" in too_deep["message"]
    # 64 levels are parsed, and refused for what they say.
    deepest = answer('{"kind": "scat", "seats": 2, "options": ' + "[" * 63 + "]" * 63 + "}")
    assert deepest["code"] != "parse_error" and "options" in deepest["details"]
    # Brackets inside a string are text, not nesting.
    in_string = answer('{"kind": "' + "[{" * 3000 + '", "seats": 2}')
    assert in_string["code"] != "parse_error" and "kind" in in_string["details"]
    broken = answer('{"kind": ')
    assert broken["code"] == "parse_error" and broken["message"].startswith("JSON parse error")


@pytest.mark.parametrize("debug", [False, True])
def test_it_refuses_a_body_larger_than_the_upload_limit(postgres, any_client, debug):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    envelope = '{"username": "", "password": "x"}'
    at_limit = '{"username": "' + "a" * (limit - len(envelope)) + '", "password": "x"}'
    with override_settings(DEBUG=debug):
        over = any_client.post("/api/v1/auth/token/", at_limit + " ", content_type="application/json")
        at = any_client.post("/api/v1/auth/token/", at_limit, content_type="application/json")
    answer = assert_error_shape(over, 400)
    assert answer["code"] == "body_too_large"
    assert str(limit) in answer["message"]
    assert answer["details"] == {"max_bytes": limit}
    assert assert_error_shape(at, 400)["code"] != "body_too_large"


@pytest.mark.parametrize(
    ("address", "form"),
    [
        ("/api/v1/games/", {"kind": "scat", "seats": "2"}),
        ("/api/v1/notifications/read/", {"all": "true"}),
        ("/api/v1/auth/token/", {"username": "alice", "password": "alice-pw-1234"}),
    ],
)
@pytest.mark.parametrize("content_type", ["multipart", "urlencoded"])
def test_form_bodies_are_refused_as_not_json(alice, address, form, content_type):
    for client in (client_for(alice), session_client(alice)):
        if content_type == "multipart":
            response = client.post(address, form, format="multipart")
        else:
            encoded = "&".join(f"{k}={v}" for k, v in form.items())
            response = client.post(address, encoded, content_type="application/x-www-form-urlencoded")
        body = assert_error_shape(response, 415)
        assert body["code"] == "unsupported_media_type"


def session_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- addresses the API does not have ---------------------------------------------------------


@pytest.mark.parametrize("address", ["/api/v1/nothing/", "/api/", "/api/v1/games/abc/nothing/", "/api/v2/games/"])
def test_an_unknown_api_address_answers_a_json_404_with_debug_on_and_off(any_client, address):
    for debug in (True, False):
        with override_settings(DEBUG=debug):
            assert_error_shape(any_client.get(address), 404)
            assert_error_shape(any_client.post(address, {}, format="json"), 404)
            page = any_client.get("/nothing-here/")
        # A page's 404 stays a page.
        assert page.status_code == 404 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("debug", [False, True])
def test_an_api_address_without_its_slash_is_a_json_404_not_a_redirect(alice_client, debug):
    with override_settings(DEBUG=debug):
        assert_error_shape(alice_client.post("/api/v1/games", {"kind": "scat", "seats": 2}, format="json"), 404)
        assert_error_shape(alice_client.get("/api/v1/me"), 404)
        # The pages keep Django's redirect to the address with the slash.
        assert alice_client.get("/games").status_code == 301


# --- what Django answers on its own, under /api/ ---------------------------------------------
# Every API view is DRF's, which never reads request.body (config.parsers reads the stream); a
# plain Django view under /api/ shows what the middleware and the handlers do with Django's errors.


def plain_body_reader(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"length": len(request.body)})


def plain_crash(request: HttpRequest) -> JsonResponse:
    raise RuntimeError("a bug in a plain view")


urlpatterns = [
    path("api/plain/body/", plain_body_reader),
    path("api/plain/crash/", plain_crash),
    path("", include("config.urls")),
]


@pytest.mark.parametrize("debug", [False, True])
def test_django_refusing_a_large_body_answers_in_the_error_shape(debug):
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    with override_settings(DEBUG=debug, ROOT_URLCONF=__name__):
        response = Client().post("/api/plain/body/", "x" * (limit + 1), content_type="text/plain")
    body = assert_error_shape(response, 400)
    assert body["code"] == "body_too_large"
    assert str(limit) in body["message"]


def test_an_uncaught_exception_answers_a_json_500_and_is_logged_with_debug_on_and_off(caplog):
    for debug in (True, False):
        caplog.clear()
        with override_settings(DEBUG=debug, ROOT_URLCONF=__name__), caplog.at_level(logging.ERROR, "django.request"):
            response = Client(raise_request_exception=False).get("/api/plain/crash/")
        body = assert_error_shape(response, 500)
        assert body["code"] == "server_error"
        assert "a bug in a plain view" not in response.content.decode()
        logged = [r for r in caplog.records if r.name == "django.request" and r.exc_info]
        assert len(logged) == 1 and logged[0].exc_info[0] is RuntimeError
        assert logged[0].status_code == 500 and logged[0].request.path == "/api/plain/crash/"
