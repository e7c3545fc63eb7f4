"""The How-to-play page says how each game is played and how it ends, in every language; the new-game
form offers Scat's hand limit, named in the reader's language, and creates games with it."""

# ruff: noqa: RUF001 - the Turkish phrases are meant

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

from .test_pages import new_game_form_data, page_client

pytestmark = pytest.mark.django_db

ENDINGS = {
    "en": (
        "A game of Scat ends when only one player has lives left, who wins, or after 60 hands",
        "A game of Scattle ends when a player reaches the target score and wins",
    ),
    "tr": ("Bir Scat oyunu, yalnızca bir oyuncunun canı kaldığında", "60 elden sonra biter", "Bir Scattle oyunu"),
    "fa": ("بازی اسکات وقتی تمام می‌شود", "پس از ۶۰ دست", "بازی اسکاتل وقتی تمام می‌شود", "بن‌بست"),
}


@pytest.mark.parametrize("language", ["en", "tr", "fa"])
def test_how_to_play_says_how_each_game_ends_in_the_readers_language(language):
    client = Client()
    client.cookies["django_language"] = language
    response = client.get("/how-to-play/")
    assert response.status_code == 200
    html = response.content.decode()
    for sentence in ENDINGS[language]:
        assert sentence in html
    assert 'data-game-end="scat"' in html and 'data-game-end="scattle"' in html


def test_every_page_links_to_how_to_play(client):
    assert 'href="/how-to-play/"' in client.get("/").content.decode()
    assert 'href="/how-to-play/"' in client.get("/games/").content.decode()


@pytest.mark.parametrize(
    ("language", "label"), [("en", "Hands per game"), ("tr", "Oyun başına el"), ("fa", "دست در هر بازی")]
)
def test_the_new_game_form_offers_the_hand_limit(alice, language, label):
    client = page_client(alice)
    client.cookies["django_language"] = language
    html = client.get("/games/new/").content.decode()
    assert label in html and 'name="scat-max_hands"' in html


def test_a_game_made_by_the_form_keeps_the_hand_limit_chosen(alice):
    response = page_client(alice).post("/games/new/", new_game_form_data("scat", **{"scat-max_hands": "12"}))
    assert response.status_code == 302, response.context["form"].errors
    assert Game.objects.get(creator=alice).options["max_hands"] == 12
    response = page_client(alice).post("/games/new/", new_game_form_data("scat", **{"scat-max_hands": ""}))
    assert response.status_code == 302, response.context["form"].errors
    assert Game.objects.filter(creator=alice).latest("pk").options["max_hands"] is None


def test_how_to_play_says_standing_orders_are_fair_in_rated_games(client):
    page = client.get("/how-to-play/").content.decode()
    assert "Standing orders are allowed in rated games" in page
    assert "for unrated games only" in page


SUMMARIES = {
    "en": {"scat": "You hold three cards.", "scattle": "You hold five cards."},
    "tr": {"scat": "Elinizde üç kart vardır.", "scattle": "Elinizde beş kart vardır."},
    "fa": {"scat": "سه کارت در دست دارید.", "scattle": "پنج کارت در دست دارید."},
}


@pytest.mark.parametrize("language", ["en", "tr", "fa"])
@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_each_game_has_its_page_with_a_summary_in_the_readers_language_and_the_full_rules(language, kind):
    client = Client()
    client.cookies["django_language"] = language
    html = client.get(f"/how-to-play/{kind}/").content.decode()
    assert SUMMARIES[language][kind] in html
    # The illustrations are cards the page draws, each row named for screen readers.
    assert html.count('class="card-img row example" role="img" aria-label=') == 2
    # The full rules, in English, headings and tables included, their text escaped.
    assert '<div lang="en" dir="ltr">' in html and "<h3>" in html and '<table class="data">' in html
    assert "<script" not in html.split('<div lang="en" dir="ltr">')[1].split("</div>")[0]


def test_an_unknown_game_has_no_page(client):
    assert client.get("/how-to-play/poker/").status_code == 404


def test_each_game_page_is_reachable_from_the_index_the_form_and_the_table(alice, bob):
    index = Client().get("/how-to-play/").content.decode()
    form = page_client(alice).get("/games/new/").content.decode()
    for kind in ("scat", "scattle"):
        assert f'href="/how-to-play/{kind}/"' in index and f'href="/how-to-play/{kind}/"' in form
    from games import services

    game = services.create_game(creator=alice, kind="scattle", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    assert 'href="/how-to-play/scattle/"' in page_client(alice).get(f"/games/{game.public_id}/").content.decode()


def test_the_summary_starts_a_game_of_its_kind(alice):
    html = page_client(alice).get("/games/new/?kind=scattle").content.decode()
    assert '<option value="scattle" selected>' in html
