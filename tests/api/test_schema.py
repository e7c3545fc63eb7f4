"""The OpenAPI schema, and schemathesis against it: no 5xx, and every response matches its schema."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import ApiToken
from config.wsgi import application
from tests.conftest import make_user

# The event streams never end, and WSGI would buffer them: tests/live reads them under ASGI.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).exclude(path_regex=r"/stream/$")


@pytest.fixture(autouse=True)
def keep_the_test_transaction():
    """Calling the WSGI app directly fires the request signals that close the database connection
    at the end of a request, which would end the test's transaction; Django's test client avoids
    this the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def alice_token(db) -> str:
    user = make_user("alice")
    make_user("bob")
    return ApiToken.issue(user=user, name="schemathesis")[1]


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_honours_its_schema(case, alice_token):
    case.call_and_validate(
        headers={"Authorization": f"Token {alice_token}"},
        checks=[not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance],
    )


def test_the_schema_documents_every_contract_endpoint(client, db):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in [
        "/api/v1/auth/token/",
        "/api/v1/me/",
        "/api/v1/games/",
        "/api/v1/games/{game_id}/",
        "/api/v1/games/{game_id}/join/",
        "/api/v1/games/{game_id}/leave/",
        "/api/v1/games/{game_id}/start/",
        "/api/v1/games/{game_id}/moves/",
        "/api/v1/games/{game_id}/resign/",
        "/api/v1/games/{game_id}/stream/",
        "/api/v1/stream/",
    ]:
        assert path in paths, path


def test_every_request_body_is_declared_as_json_only(client, db):
    """The API parses JSON only; a body also declared as form data or multipart makes generated
    clients send those (openapi-python-client even writes modules that do not import)."""
    paths = client.get("/api/schema/?format=json").json()["paths"]
    bodies = {
        f"{method.upper()} {path}": sorted(operation["requestBody"]["content"])
        for path, operations in paths.items()
        for method, operation in operations.items()
        if "requestBody" in operation
    }
    assert bodies, "no operation takes a body"
    assert {operation: types for operation, types in bodies.items() if types != ["application/json"]} == {}


def test_the_interactive_docs_are_served_without_a_cdn(client, db):
    html = client.get("/api/docs/").content.decode()
    assert "swagger" in html.lower()
    assert "cdn" not in html.lower() and "unpkg" not in html.lower()
