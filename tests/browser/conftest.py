"""Chromium (Debian's package) driven by Playwright against the site served as ASGI by uvicorn (the
pages follow event streams, which Django's WSGI live server would buffer)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.test import override_settings

from tests.asgi import close_server_connections, requests_in_flight, serve_asgi
from tests.conftest import require_service

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


def playwright_missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the browser tests need the playwright package (pip install -e '.[dev]')"
    if not CHROMIUM.exists():
        return "the browser tests need Chromium at /usr/bin/chromium (apt-get install chromium)"
    return None


@pytest.fixture(scope="package")
def browser() -> Iterator:
    reason = playwright_missing()
    require_service(reason is None, reason or "")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in the test's thread, which Django takes
    # for async code; the ORM calls the tests make between browser steps are blocking all the same.
    # The browser ends with this package, so the tests elsewhere keep Django's check.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            # Tests run as root in CI, where Chromium's sandbox cannot start.
            chromium = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
            )
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


class AsgiLiveServer:
    """Stands in for pytest-django's live_server (its helper enables these settings per test)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._live_server_modified_settings = override_settings()


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker) -> Iterator[AsgiLiveServer]:
    with serve_asgi() as url:
        yield AsgiLiveServer(url)
    with django_db_blocker.unblock():
        close_server_connections()


@pytest.fixture
def transactional_db(transactional_db, browser):
    """The test's database, flushed only once its pages are closed and the server has answered their
    last requests: a request still running holds locks the flush waits for (a deadlock) or finds the
    database gone, and a table page keeps asking (its stream, chat, notes and orders)."""
    yield
    for context in browser.contexts:
        context.close()
    assert requests_in_flight.wait_until_none("requests"), "the server was still answering the closed pages"
    requests_in_flight.wait_until_none("streams", timeout=5)  # they read nothing the flush locks


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def new_page(browser, live_server):
    """Pages in separate browser contexts (separate cookies): one per player."""
    contexts = []

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
