"""Every asset is the site's own, the pages and their scripts are protected by CSRF, every answer
carries a strict Content-Security-Policy that the pages keep to (no inline script or style), and HTTPS
(HSTS, the redirect) is set from the environment, `check --deploy` clean."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, override_settings

from games import services
from games.models import Game
from tournaments import services as tournament_services

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


# --- Content-Security-Policy ------------------------------------------------------------------

STRICT_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def policy_directives(header: str) -> dict[str, str]:
    directives = {}
    for part in header.split(";"):
        name, _, sources = part.strip().partition(" ")
        if name:
            directives[name] = sources
    return directives


def assert_strict_policy(header: str, where: str) -> None:
    """The site's policy: its own scripts and styles only, nothing inline, nothing evaluated."""
    directives = policy_directives(header)
    wrong = {name: directives.get(name) for name, value in STRICT_POLICY.items() if directives.get(name) != value}
    assert not wrong, f"{where}: {wrong} in {header!r}"
    for source in ("'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "http:", "https:"):
        assert source not in header.split(), f"{where} allows {source}"


class InlineCode(HTMLParser):
    """Finds what a strict policy refuses: script elements with code in them, style elements, style
    attributes, event handler attributes and javascript: addresses."""

    DATA_TYPES = {"application/json", "application/ld+json"}

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value}>")
        if tag == "style":
            self.found.append("<style>")
        if tag == "script" and "src" not in attributes and attributes.get("type") not in self.DATA_TYPES:
            self._script = attributes

    def handle_data(self, data: str) -> None:
        if self._script is not None and data.strip():
            self.found.append(f"<script> {data.strip()[:60]}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


@pytest.fixture
def every_page(alice, bob) -> list[str]:
    """Every kind of page the site has, as Alice may open them."""
    finished = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=finished.public_id, user=bob)
    services.resign(game_id=finished.public_id, user=bob)
    tournament = tournament_services.create_tournament(
        creator=alice, name="Friday Scat", kind="scat", format="swiss", table_size=2, rounds=1
    )
    alice.is_staff = alice.is_superuser = True
    alice.save()
    return [
        *pages_to_check(alice, bob),
        f"/games/{finished.public_id}/",
        "/leaderboard/",
        "/users/alice/",
        "/settings/",
        "/tournaments/",
        f"/tournaments/{tournament.public_id}/",
        "/accounts/password/reset/",
        "/accounts/password/reset/sent/",
        "/accounts/password/reset/done/",
        "/offline/",
        "/api/docs/",
        "/admin/",
        "/admin/games/game/",
        f"/admin/games/game/{finished.pk}/change/",
        f"/admin/accounts/user/{alice.pk}/change/",
        "/admin/accounts/user/add/",
    ]


def test_every_page_has_the_strict_policy_and_no_inline_script_or_style(alice, every_page):
    client = Client()
    client.force_login(alice)
    for path in every_page:
        response = client.get(path)
        assert response.status_code == 200, path
        assert_strict_policy(response.get("Content-Security-Policy", ""), path)
        assert inline_code(response.content.decode()) == [], path


@pytest.mark.parametrize("path", ["/sw.js", "/manifest.webmanifest", "/api/schema/", "/api/v1/games/", "/healthz"])
def test_the_worker_the_manifest_and_the_api_have_the_policy_too(client, alice, path):
    client.force_login(alice)
    assert_strict_policy(client.get(path).get("Content-Security-Policy", ""), path)


@pytest.mark.parametrize("path", ["/no-such-page/", "/games/000000000000/", "/users/nobody/"])
def test_the_not_found_pages_have_the_policy(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert_strict_policy(response.get("Content-Security-Policy", ""), path)
    assert inline_code(response.content.decode()) == []


def test_the_api_docs_start_up_script_is_a_file_of_its_own(client, db):
    html = client.get("/api/docs/").content.decode()
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert any("swagger-ui-bundle" in source for source in sources)
    start_up = next(source for source in sources if "script" in source.split("?", 1)[-1])
    response = client.get(start_up.replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in response.content.decode()


def test_only_the_api_docs_take_data_images(client, db):
    """Swagger UI's stylesheet draws its icons as data: images; no other page needs them."""
    assert policy_directives(client.get("/")["Content-Security-Policy"])["img-src"] == "'self'"
    assert policy_directives(client.get("/api/docs/")["Content-Security-Policy"])["img-src"] == "'self' data:"


def test_a_form_sent_without_its_csrf_cookie_gets_the_sites_own_page(db):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"username": "a", "password": "b"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "That form could not be sent" in html
    assert "frontend/site.css" in html
    assert inline_code(html) == []
    assert_strict_policy(response["Content-Security-Policy"], "the CSRF failure page")


def test_the_csrf_failure_page_speaks_the_readers_language(db):
    client = Client(enforce_csrf_checks=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    html = client.post("/accounts/login/", {"username": "a", "password": "b"}).content.decode()
    assert 'dir="rtl"' in html and "فرم فرستاده نشد" in html


def test_the_templates_hold_no_inline_script_or_style():
    """Also the templates no test above renders (email bodies are not pages, and sw.js is a script)."""
    roots = [Path(settings.BASE_DIR) / app for app in ("frontend", "accounts", "tournaments", "notifications", "games")]
    templates = [path for root in roots for path in root.rglob("templates/**/*.html") if "email" not in path.parts]
    assert len(templates) > 20
    for path in templates:
        assert inline_code(path.read_text(encoding="utf-8")) == [], path


# --- HTTPS ------------------------------------------------------------------------------------


@override_settings(
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
    SECURE_SSL_REDIRECT=True,
)
def test_https_answers_carry_hsts_and_plain_http_is_redirected_but_the_health_check(db):
    client = Client()
    response = client.get("/accounts/login/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    redirected = client.get("/accounts/login/?next=/games/")
    assert redirected.status_code == 301
    assert redirected["Location"] == "https://testserver/accounts/login/?next=/games/"
    assert client.get("/healthz").status_code in (200, 503)  # answered over http, not redirected


def check_deploy(**environment: str) -> subprocess.CompletedProcess:
    """`manage.py check --deploy` in a production environment, with the given variables on top."""
    vapid = subprocess.run(
        [sys.executable, "manage.py", "generate_vapid_keys"], cwd=settings.BASE_DIR, capture_output=True, text=True
    )
    keys = dict(line.split("=", 1) for line in vapid.stdout.split() if line.startswith("VAPID_"))
    production = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "VAPID_", "PUSH_", "WEBHOOK_"))
    }
    production.update(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="slowhand.example",
        VAPID_SUBJECT="mailto:ops@slowhand.example",
        **keys,
        **environment,
    )
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=production,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_https_set_from_the_environment():
    checked = check_deploy(
        DJANGO_SECURE_HSTS_SECONDS="31536000",
        DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        DJANGO_SECURE_HSTS_PRELOAD="1",
        DJANGO_SECURE_SSL_REDIRECT="1",
    )
    assert checked.returncode == 0, checked.stderr + checked.stdout
    assert "System check identified no issues" in checked.stdout


def test_check_deploy_names_what_https_lacks_when_the_environment_leaves_it_out():
    checked = check_deploy(DJANGO_SECURE_HSTS_SECONDS="3600")
    assert checked.returncode != 0
    report = checked.stderr + checked.stdout
    for warning in ("security.W005", "security.W008", "security.W021"):  # subdomains, redirect, preload
        assert warning in report, report
    assert "security.W004" not in report  # the seconds were read
