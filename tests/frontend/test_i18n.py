"""Languages: English by default, Turkish and Persian complete and compiled, Persian right to left."""

# ruff: noqa: RUF001 - the Turkish and Persian phrases are meant

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games import services

from .catalogues import all_catalogue_paths, read_catalogue, relative

pytestmark = pytest.mark.django_db


def po_entries(path: Path) -> list[dict[str, str]]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr / msgstr[n], flags."""
    entries, entry, key = [], {}, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry:
                entries.append(entry)
            entry, key = {}, None
        elif line.startswith("#,"):
            entry["flags"] = line
        elif line.startswith("#"):
            continue
        elif match := re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line):
            key = match.group(1)
            entry[key] = match.group(2)
        elif line.startswith('"') and key:
            entry[key] += line[1:-1]
    return [e for e in entries if e.get("msgid")]


def unescape(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


@pytest.mark.parametrize("path", all_catalogue_paths(), ids=relative)
def test_every_string_is_translated(path):
    entries = read_catalogue(path)
    assert entries
    untranslated = [e.msgid for e in entries if not all(e.msgstrs) or "fuzzy" in e.flags]
    assert not untranslated, f"{relative(path)}: {untranslated[:10]}"


def test_english_is_the_default(client):
    html = client.get("/").content.decode()
    assert '<html lang="en" dir="ltr" ' in html


@pytest.mark.parametrize(
    ("language", "direction", "phrase"),
    [("tr", "ltr", "Yazışmalı kart oyunları"), ("fa", "rtl", "بازی‌های کارتی مکاتبه‌ای")],
)
def test_the_language_switcher_remembers_the_choice(client, language, direction, phrase):
    response = client.post("/i18n/setlang/", {"language": language, "next": "/games/"})
    assert response.status_code == 302
    assert response["Location"] == "/games/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == language
    html = client.get("/").content.decode()
    assert f'<html lang="{language}" dir="{direction}" ' in html
    assert phrase in html


def test_the_switcher_is_on_every_page_and_names_each_language_in_itself(client):
    html = client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in html
    for code, name in (("en", "English"), ("tr", "Türkçe"), ("fa", "فارسی")):
        assert re.search(rf'value="{code}" lang="{code}"[^>]*>{name}</button>', html)


def test_the_browsers_language_is_honoured(db):
    html = Client(HTTP_ACCEPT_LANGUAGE="fa-IR,fa;q=0.9").get("/").content.decode()
    assert 'dir="rtl"' in html


def test_the_login_page_keeps_its_english_labels_and_translates(client):
    html = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username">Username</label>' in html
    assert ">Log in</button>" in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    html = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username">Kullanıcı adı</label>' in html
    assert ">Giriş yap</button>" in html


def test_the_new_game_form_is_translated(alice):
    client = Client()
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    html = client.get("/games/new/").content.decode()
    assert "جان‌ها" in html  # "Lives"
    assert "ساختن بازی" in html  # "Create game"


def test_the_script_catalog_carries_card_names_and_buttons(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    script = client.get("/jsi18n/").content.decode()
    for text in ("\\u00c7ekme destesinden \\u00e7ek", "Pas", "ma\\u00e7a", "k\\u0131z\\u0131"):
        assert text in script, text


def test_service_refusals_are_translated(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    client = Client()
    client.force_login(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "tr"
    html = client.post(f"/games/{game.public_id}/", {"operation": "start"}, follow=True).content.decode()
    assert "Bunu yalnızca oyunu kuran yapabilir." in html
