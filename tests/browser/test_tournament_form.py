"""The new-tournament form says what is wrong beside the field at fault, in the reader's language."""

from __future__ import annotations

import pytest

from tests.browser.axe import axe_violations
from tests.browser.test_languages import log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.services]


@pytest.mark.parametrize(
    ("language", "create", "no_name", "pairs"),
    [
        ("en", "Create tournament", "Give the tournament a name.", "round robin is played at tables of two"),
        ("fa", None, None, None),
    ],
)
def test_a_refused_field_says_why_beside_itself(
    transactional_db, new_page, live_server, language, create, no_name, pairs
):
    make_user("alice")
    page = new_page(width=390, height=844)
    log_in(page, live_server.url, "alice", language)
    page.goto(f"{live_server.url}/tournaments/")
    page.locator("#new-tournament button[type=submit]").click()
    name_error = page.locator("#t-name-error")
    name_error.wait_for()
    assert page.locator("#t-name").get_attribute("aria-invalid") == "true"
    assert "This field may not be blank" not in page.content()
    if no_name:
        assert name_error.inner_text() == no_name
    # A round robin at tables of three is refused with the reason beside the table size; the format stays.
    page.locator("#t-name").fill("Spring")
    page.locator("#t-format").select_option("round_robin")
    page.locator("#t-table-size").fill("3")
    page.locator("#new-tournament button[type=submit]").click()
    size_error = page.locator("#t-table-size-error")
    size_error.wait_for()
    assert page.locator("#t-name-error").count() == 0
    if pairs:
        assert pairs in size_error.inner_text()
    assert page.locator("#t-format").input_value() == "round_robin"
    assert axe_violations(page) == []
    assert page.errors == []
