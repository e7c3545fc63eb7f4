"""Each game's How to play page on a phone, in English and Persian: its cards drawn, nothing sideways, no axe
violation."""

from __future__ import annotations

import pytest

from tests.browser.axe import axe_violations

pytestmark = [pytest.mark.services]


@pytest.mark.parametrize("kind", ["scat", "scattle"])
@pytest.mark.parametrize("language", ["en", "fa"])
def test_a_games_page_reads_well_on_a_phone(transactional_db, new_page, live_server, artifacts_dir, kind, language):
    page = new_page(width=390, height=844)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/how-to-play/{kind}/")
    examples = page.locator(".example")
    assert examples.count() == 2
    # The cards are drawn: each face has its size and its suit from the sprite.
    box = examples.first.locator(".face").first.bounding_box()
    assert box and box["width"] > 20 and box["height"] > 30
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 1
    assert axe_violations(page) == []
    page.screenshot(path=str(artifacts_dir / f"how-to-play-{kind}-{language}-phone.png"))
    assert not page.errors, page.errors
