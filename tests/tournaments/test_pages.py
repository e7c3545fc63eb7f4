"""The tournament pages, in the three languages; the settings page's calendar section."""

# ruff: noqa: RUF001 - the Turkish and Persian phrases are meant

from __future__ import annotations

import gettext
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tournaments import services

pytestmark = pytest.mark.usefixtures("postgres")


def page(path: str, language: str = "en", user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


@pytest.mark.parametrize(("language", "heading"), [("en", "Tournaments"), ("tr", "Turnuvalar"), ("fa", "مسابقه‌ها")])
def test_the_tournament_list_page_in_each_language(alice, language, heading):
    html = page("/tournaments/", language, alice)
    assert f"<h1>{heading}</h1>" in html
    assert 'data-api-url="/api/v1/tournaments/"' in html
    assert "tournaments/tournaments.js" in html


def test_a_tournament_page_shows_the_time_control_and_vacation_policy_before_joining(alice, bob):
    tournament = services.create_tournament(
        creator=alice, name="Spring", kind="scat", format="swiss", table_size=3, rounds=2, move_time_limit=172800
    )
    html = page(f"/tournaments/{tournament.public_id}/", "en", bob)
    assert "2 days a move" in html
    assert "The round does not wait for a player on vacation" in html
    assert f'data-api-url="/api/v1/tournaments/{tournament.public_id}/"' in html
    assert "Persian" not in html
    assert "بازیکن در مرخصی" in page(f"/tournaments/{tournament.public_id}/", "fa", bob)


def test_an_unknown_tournament_page_is_a_404(client, db):
    assert client.get("/tournaments/nosuchthing/").status_code == 404


def test_the_nav_links_to_the_tournaments(client, db):
    assert 'href="/tournaments/"' in client.get("/").content.decode()


def test_the_settings_page_has_the_calendar_section(alice):
    html = page("/settings/", "en", alice)
    assert 'id="calendar"' in html and "tournaments/calendar_settings.js" in html


@pytest.mark.parametrize("language", ["tr", "fa"])
@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_tournament_string_is_translated_and_compiled(language, domain):
    from tests.frontend.test_i18n import po_entries, unescape

    directory = Path(__file__).resolve().parents[2] / "tournaments" / "locale" / language / "LC_MESSAGES"
    entries = po_entries(directory / f"{domain}.po")
    assert entries
    with (directory / f"{domain}.mo").open("rb") as mo:
        catalog = gettext.GNUTranslations(mo)
    for entry in entries:
        assert all(v for k, v in entry.items() if k.startswith("msgstr")), entry["msgid"]
        key = (unescape(entry["msgid"]), 0) if "msgid_plural" in entry else unescape(entry["msgid"])
        wanted = entry.get("msgstr[0]", entry.get("msgstr"))
        assert catalog._catalog.get(key) == unescape(wanted), f"compile the catalog again ({entry['msgid']})"


def test_the_script_catalog_carries_the_tournament_strings(client, db):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    assert "Kay\\u0131tlar a\\u00e7\\u0131k" in client.get("/jsi18n/").content.decode()
