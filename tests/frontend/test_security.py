"""Every asset is the site's own, and the pages and their scripts are protected by CSRF."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "frontend" / "static"
FOREIGN_URL = re.compile(r"""(?:src|href|action)\s*=\s*["']?\s*(?:https?:)?//""", re.I)
CSS_FOREIGN_URL = re.compile(r"""url\(\s*["']?\s*(?:https?:)?//|@import\s+["']?(?:https?:)?//""", re.I)


def pages_to_check(alice, bob) -> list[str]:
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    waiting = services.create_game(creator=alice, kind="scattle", num_seats=2)
    return [
        "/",
        "/games/",
        "/games/new/",
        f"/games/{game.public_id}/",
        f"/games/{waiting.public_id}/",
        "/notifications/",
        "/accounts/login/",
        "/accounts/signup/",
    ]


def test_no_page_loads_anything_from_another_site(alice, bob):
    client = Client()
    client.force_login(alice)
    for path in pages_to_check(alice, bob):
        for language in ("en", "fa"):
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
            response = client.get(path)
            assert response.status_code == 200, path
            html = response.content.decode()
            assert not FOREIGN_URL.search(html), f"{path} points to another site: {FOREIGN_URL.search(html)}"
            assert not CSS_FOREIGN_URL.search(html), path


def test_the_static_files_fetch_nothing_from_elsewhere():
    files = [p for p in STATIC.rglob("*") if p.suffix in {".css", ".js", ".svg"}]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"http://www\.w3\.org/2000/svg", "", text)  # the SVG namespace, not a download
        assert "http://" not in text and "https://" not in text, path
        assert not CSS_FOREIGN_URL.search(text), path
        if path.suffix == ".js":
            for module in re.findall(r"""^import .* from ["']([^"']+)["']""", text, re.M):
                assert module.startswith("./"), f"{path.name} imports {module}"


def test_the_scripts_and_styles_are_the_apps_own_static_files(client):
    # whitenoise serves them (from collectstatic's output in production).
    for name in ("frontend/site.css", "frontend/js/table.js", "frontend/js/new_game.js", "frontend/cards.svg"):
        assert finders.find(name), name
    assert client.get("/jsi18n/").status_code == 200


def test_forms_refuse_a_post_without_the_csrf_token(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/games/new/", {"kind": "scat"}).status_code == 403
    assert client.post("/notifications/", {"all": "1"}).status_code == 403
    assert not Game.objects.exists()


def test_the_tables_script_needs_the_pages_csrf_token(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = client.get(f"/games/{game.public_id}/").content.decode()
    token = re.search(r'<meta name="csrf-token" content="([^"]+)">', html).group(1)
    body = {"action": {"type": "draw_stock"}, "version": 0}
    url = f"/api/v1/games/{game.public_id}/moves/"
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403
    accepted = client.post(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert accepted.status_code == 201, accepted.content
