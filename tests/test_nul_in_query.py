"""A NUL in any query parameter is a 400 on every page, the admin's included: PostgreSQL refuses NUL in
text, and a reader that did not check its parameter answered 500 (the admin's list filters)."""

from __future__ import annotations

import pytest

from tests.conftest import make_user


@pytest.fixture
def staff_client(client, db):
    staff = make_user("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    client.force_login(staff)
    client.raise_request_exception = False
    return client


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/game/?status__exact=%00",
        "/admin/games/game/?q=a%00b",
        "/admin/accounts/user/?is_staff__exact=%00",
        "/games/?status=%00",
        "/?x%00=1",
    ],
)
def test_a_nul_in_a_pages_query_is_a_bad_request(staff_client, url):
    assert staff_client.get(url).status_code == 400


def test_a_nul_in_an_api_query_is_a_bad_request_in_the_error_shape(staff_client):
    response = staff_client.get("/api/v1/games/?unknown=%00")
    assert response.status_code == 400
    assert response.json()["code"] == "bad_request"
