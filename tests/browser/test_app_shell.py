"""The installable app in Chromium: the manifest and the service worker load, the worker registers
for the whole site, and "Notify me on this device" is there, named for screen readers, on the settings
page and at the card table. (Chromium here cannot reach a real push service, so subscribing itself
is tested with a subscription the test makes: tests/notifications/test_push.py.)"""

from __future__ import annotations

import pytest

from tests.browser.test_languages import log_in
from tests.browser.test_table import players, started  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.services]


def test_the_manifest_and_the_worker_load_and_the_worker_registers(new_page, live_server, players):  # noqa: F811
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    page.goto(f"{live_server.url}/settings/")
    manifest_url = page.locator('link[rel="manifest"]').get_attribute("href")
    manifest = page.request.get(f"{live_server.url}{manifest_url}")
    assert manifest.ok and manifest.json()["display"] == "standalone"
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == f"{live_server.url}/"
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith("/sw.js")
    assert page.errors == []


def test_the_subscribe_control_is_on_the_settings_page_and_the_table(new_page, live_server, players):  # noqa: F811
    alice, bob = players
    game = started(alice, bob, "scat", {"first_dealer": 1})
    page = new_page()
    log_in(page, live_server.url, "bob", "en")
    for path in ("/settings/", f"/games/{game.public_id}/"):
        page.goto(f"{live_server.url}{path}")
        button = page.get_by_role("button", name="Notify me on this device")
        button.wait_for()
        assert button.is_enabled()
        assert button.get_attribute("aria-describedby") == "push-status"
        assert page.locator("#push-status").get_attribute("role") == "status"
    assert page.errors == []
