"""The table in Turkish and Persian: card names, buttons and game events in the reader's language."""

from __future__ import annotations

import re

import pytest

from games import services
from tests.conftest import make_user

pytestmark = [pytest.mark.services]

# One of every event the engines report, as a seated viewer (seat 0) receives them.
SAMPLE_EVENTS = [
    {"type": "deal", "hand_no": 2, "dealer": 1, "hands": [["QS", "TH", "AD"], None], "cards_held": [3, 3],
     "up_card": "7C", "stock_count": 45},
    {"type": "deal", "first_player": 0, "hands": [["QS"], None], "hand_sizes": [5, 5], "up_card": "7C",
     "stock_count": 41},
    {"type": "draw_stock", "seat": 0, "card": "QS"},
    {"type": "draw_stock", "seat": 1, "card": None},
    {"type": "draw_discard", "seat": 1, "card": "TH"},
    {"type": "discard", "seat": 1, "card": "AD"},
    {"type": "knock", "seat": 1},
    {"type": "stand", "seat": 1},
    {"type": "throw_down", "seat": 1},
    {"type": "stock_rebuilt", "cards": 20, "order": "shuffle", "rebuilds": 1},
    {"type": "thirty_one", "seat": 1, "cards": ["AS", "KS", "QS"], "on_deal": False, "lives_lost": [1, 0]},
    {"type": "thirty_one", "seat": 0, "cards": ["AS", "KS", "QS"], "on_deal": True, "lives_lost": [0, 1]},
    {"type": "showdown", "knocker": 1, "thrown_down": False, "hands": [["QS"], ["TH"]], "values": [21, 30.5],
     "lowest": 21, "lives_lost": [1, 0]},
    {"type": "life_lost", "seat": 1, "lives": 2, "tokens": 0, "on_the_county": True},
    {"type": "eliminated", "seat": 1, "reason": "lives"},
    {"type": "hand_void", "reason": "stock_exhausted"},
    {"type": "hand_void", "reason": "everyone_would_be_out"},
    {"type": "resigned", "seat": 1},
    {"type": "meld", "seat": 1, "meld": 0, "kind": "run", "cards": ["3H", "4H", "5H"], "points": 3, "score": 3},
    {"type": "lay_off", "seat": 0, "card": "6H", "meld": 0, "cards": ["3H", "4H", "5H", "6H"], "points": 4,
     "gained": 1, "score": 4},
    {"type": "scattle", "seat": 1},
    {"type": "refill", "seat": 0, "cards": ["2C", "9D"], "count": 2},
    {"type": "refill", "seat": 1, "cards": None, "count": 2},
    {"type": "stock_rebuilt", "count": 12, "rebuilds": 2, "order": "turn_over"},
    {"type": "game_over", "reason": "last_player", "places": [2, 1], "winners": [1], "tokens": [0, 5]},
    {"type": "game_over", "reason": "stalemate", "scores": [3, 3], "places": [1, 1], "winners": [0, 1]},
]  # fmt: skip

DESCRIBE_ALL = """async (events) => {
  const { describeEvent } = await import('/static/frontend/js/events.js');
  return events.map((event) => describeEvent(event, { viewer: 0, nameOf: (seat) => ['alice', 'bob'][seat] }));
}"""

HAND_NAMES = "els => els.map(e => e.getAttribute('aria-label'))"


def log_in(page, base_url: str, username: str, language: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])
    page.goto(f"{base_url}/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(f"{username}-pw-1234")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(f"{base_url}/")


@pytest.fixture
def scat_game(transactional_db):
    alice, bob = make_user("alice"), make_user("bob")
    # Seat 1 deals, so Alice (seat 0) plays first.
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    return game


@pytest.mark.parametrize("language", ["en", "tr", "fa"])
def test_every_event_has_a_sentence(new_page, live_server, scat_game, language):
    page = new_page()
    log_in(page, live_server.url, "alice", language)
    page.goto(f"{live_server.url}/games/{scat_game.public_id}/")
    sentences = page.evaluate(DESCRIBE_ALL, SAMPLE_EVENTS)
    for event, sentence in zip(SAMPLE_EVENTS, sentences, strict=True):
        assert sentence, event
        assert "%(" not in sentence and "undefined" not in sentence, sentence
    if language == "en":
        assert sentences[2] == "You drew the queen of spades from the stock."
        assert sentences[3] == "bob drew from the stock."
        assert sentences[6] == "bob knocked."
    else:
        # Nothing left in English: the translated sentences share no English verb.
        english = re.compile(r"\b(drew|knocked|discarded|melded|resigned|wins|stock)\b")
        assert not [s for s in sentences if english.search(s)]


def test_the_table_in_turkish(new_page, live_server, scat_game, artifacts_dir):
    page = new_page()
    log_in(page, live_server.url, "alice", "tr")
    page.goto(f"{live_server.url}/games/{scat_game.public_id}/")
    page.get_by_role("button", name="Çekme destesinden çek").click()
    discard = page.get_by_role("button", name=re.compile(r"^At: "))
    discard.first.wait_for()
    assert discard.count() == 4
    # On the player's turn to discard, the cards are toggles: a tap selects the one to throw away.
    names = page.locator("#hand .card-toggle").evaluate_all(HAND_NAMES)
    assert len(names) == 4
    for name in names:
        assert re.fullmatch(r"(maça|kupa|karo|sinek) \w+", name), name
    page.locator("#latest").get_by_text(re.compile(r"Çekme destesinden çektiniz: ")).wait_for()
    page.screenshot(path=str(artifacts_dir / "scat-table-tr-desktop.png"), full_page=True)


def test_the_table_in_persian_reads_right_to_left(new_page, live_server, scat_game, artifacts_dir):
    page = new_page(width=360, height=780)
    log_in(page, live_server.url, "bob", "fa")
    page.goto(f"{live_server.url}/games/{scat_game.public_id}/")
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert page.locator("html").get_attribute("lang") == "fa"
    names = page.locator("#hand .card-img").evaluate_all(HAND_NAMES)
    for name in names:
        assert re.fullmatch(r"\S+ (پیک|دل|خشت|گشنیز)", name), name
    # Waiting for Alice, in Persian; the players' list starts at the right edge.
    assert page.locator("#status").get_by_text(re.compile("در انتظار alice")).count() == 1
    first_seat = page.locator("#players .seat").first.bounding_box()
    assert first_seat["x"] + first_seat["width"] > 300
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1
    page.screenshot(path=str(artifacts_dir / "scat-table-fa-360px.png"), full_page=True)
