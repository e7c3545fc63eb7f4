"""A NUL in a query parameter of the admin's pages is a 400: PostgreSQL refuses NUL in text, and the
admin's list filters passed theirs to it (a 500). The site's own pages and the API check each of their
parameters (tests/frontend and tests/api, test_query_parameters.py)."""

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
        "/admin/games/game/?x%00=1",
    ],
)
def test_a_nul_in_an_admin_pages_query_is_a_bad_request(staff_client, url):
    assert staff_client.get(url).status_code == 400


def test_the_admins_pages_still_filter(staff_client):
    assert staff_client.get("/admin/games/game/?status__exact=active&q=a").status_code == 200
