"""The installable app: a valid manifest linked from every page, icons at the usual sizes, a service
worker served from the root, and an offline page with nothing of any player's in it."""

from __future__ import annotations

import struct

import pytest
from django.contrib.staticfiles import finders

from games import services


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as file:
        header = file.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_the_manifest_is_valid_and_its_icons_exist(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Slowhand" and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        width, height = png_size(path)
        assert f"{width}x{height}" == icon["sizes"]
        sizes.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes


def test_the_manifest_speaks_the_visitors_language(client):
    client.cookies["django_language"] = "fa"
    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="fa").json()
    assert manifest["lang"] == "fa" and manifest["dir"] == "rtl"


@pytest.mark.parametrize("path", ["/", "/games/", "/accounts/login/", "/leaderboard/"])
def test_every_page_links_the_manifest_and_registers_the_worker(client, path, db):
    html = client.get(path).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'src="/static/frontend/js/app.js"' in html
    assert '<meta name="theme-color"' in html


def test_the_service_worker_is_served_from_the_root_and_never_cached(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/" and answer["Cache-Control"] == "no-cache"
    body = answer.content.decode()
    for listener in ("install", "activate", "fetch", "push", "notificationclick"):
        assert f'addEventListener("{listener}"' in body
    assert '"/offline/"' in body


def test_the_offline_page_holds_nothing_of_the_player(client, alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    client.force_login(alice)
    html = client.get("/offline/").content.decode()
    assert "alice" not in html and "csrf" not in html.lower() and game.public_id not in html
    assert "offline" in html.lower()
