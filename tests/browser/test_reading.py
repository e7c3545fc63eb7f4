"""Every page as a Persian and a Turkish reader sees it, signed in with games, a tournament, a replay
and a review: Persian pages write every number in Persian digits and every date in the Solar Hijri
calendar; Turkish pages leave no English; a date reads the same whether the server or the page
wrote it."""

# ruff: noqa: RUF001 - the Persian and Turkish phrases are meant

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.models import ApiToken
from config import solar_hijri
from games import advice, services
from games.models import Game
from tests.browser.test_languages import log_in
from tests.browser.test_live import play
from tests.conftest import make_user
from tests.frontend.catalogues import LANGUAGES, catalogue_paths, read_catalogue
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = [pytest.mark.services]

# The text a reader meets: rendered text nodes and the names assistive technology reads out, leaving
# out code (keys, addresses), the language switcher (each language's name in itself), the time
# zones' IANA names, which are identifiers, and the cards' printed faces (pictures of a deck, whose
# indices read 10, 9, ... A in Tehran as in Istanbul; the cards' names and labels are text).
VISIBLE_TEXT = """() => {
  const skipped = "code, script, style, noscript, .languages, #id_time_zone, .face";
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const element = walker.currentNode.parentElement;
    if (!element || element.closest(skipped)) continue;
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    parts.push(walker.currentNode.nodeValue);
  }
  for (const element of document.body.querySelectorAll("[aria-label]")) {
    if (!element.closest(skipped) && element.checkVisibility({ visibilityProperty: true })) {
      parts.push(element.getAttribute("aria-label"));
    }
  }
  return parts.join("\\n");
}"""

# The Gregorian months as Persian and English write them.
GREGORIAN_MONTHS = (
    "ژانویه|فوریه|مارس|آوریل|مه|ژوئن|ژوئیه|اوت|سپتامبر|اکتبر|نوامبر|دسامبر|"
    "January|February|March|April|May|June|July|August|September|October|November|December|"
    "Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
SOLAR_HIJRI_MONTHS = "فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند"
NAMES = {"alice", "bob", "charlie", "Yalda", "Nowruz"}  # the players' and tournaments' names


def english_words() -> set[str]:
    """Words of the site's English texts that neither translation uses: seeing one on a Turkish or
    Persian page means a text was left in English."""

    def words(text: str) -> set[str]:
        text = re.sub(r"%\(\w+\)[sd]|<[^>]+>|&\w+;", " ", text)
        return {word.lower() for word in re.findall(r"[A-Za-z]{2,}", text)}

    english, translated = set(), set()
    for language in LANGUAGES:
        for path in catalogue_paths(language):
            for entry in read_catalogue(path):
                english |= words(entry.msgid) | words(entry.msgid_plural or "")
                for text in entry.msgstrs:
                    translated |= words(text)
    return english - translated - {name.lower() for name in NAMES}


def english_left(texts: dict[str, str]) -> dict[str, list[str]]:
    """Page -> the English words on it (not in the games' ids: "qpee7On_dlF0" says no "On")."""
    english = english_words()
    ids = re.compile("|".join(re.escape(i) for i in Game.objects.values_list("public_id", flat=True)) or "(?!)")
    found = {
        path: sorted({w for w in re.findall(r"[A-Za-z]{2,}", ids.sub(" ", text)) if w.lower() in english})
        for path, text in texts.items()
    }
    return {path: words for path, words in found.items() if words}


def latin_numbers(text: str) -> list[str]:
    """Words with a Latin digit and no Latin letter: numbers (an identifier such as SHA-256 or a
    game's id has letters, and is no number to translate)."""
    return [word for word in text.split() if re.search(r"[0-9]", word) and not re.search(r"[A-Za-z]", word)]


@pytest.fixture
def world(transactional_db):
    """Alice's account with something on every page: games finished, running and open, an invitation,
    a tournament running and one to come, notifications, a rating, a token and a review."""
    alice, bob, charlie = make_user("alice"), make_user("bob"), make_user("charlie")
    # A finished, rated Scat game (a rating and its chart, a replay, a review): Alice plays first.
    finished = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=finished.public_id, user=bob)
    play(finished, alice, lambda action: action["type"] == "draw_stock")
    play(finished, alice, lambda action: action["type"] == "discard")
    play(finished, bob, lambda action: action["type"] == "draw_stock")
    play(finished, bob, lambda action: action["type"] == "discard")
    services.resign(game_id=finished.public_id, user=bob)
    finished.refresh_from_db()
    review, _created = advice.review_for(finished, list(finished.seats.all()), alice)
    while advice.review_step(review.pk):
        pass
    # Running: a Scat game on Alice's turn, a Scattle game on Bob's.
    scat = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=scat.public_id, user=charlie)
    scattle = services.create_game(creator=bob, kind="scattle", num_seats=2, options={"first_player": 1})
    services.join_game(game_id=scattle.public_id, user=alice)
    # Open: a table of four looking for players, and Charlie's invitation to Alice.
    services.create_game(creator=bob, kind="scat", num_seats=4)
    services.create_game(creator=charlie, kind="scattle", num_seats=3, invite=["alice"])
    # A tournament running (three players at tables of two: a bye) and one that starts later.
    running = tournaments.create_tournament(
        creator=alice, name="Nowruz", kind="scat", format="swiss", table_size=2, rounds=2
    )
    for player in (bob, charlie):
        tournaments.join_tournament(tournament_id=running.public_id, user=player)
    tournaments.start_tournament(tournament_id=running.public_id, user=alice)
    later = tournaments.create_tournament(
        creator=alice,
        name="Yalda",
        kind="scattle",
        format="swiss",
        table_size=3,
        rounds=3,
        max_players=1000,
        starts_at=timezone.now() + dt.timedelta(days=40, hours=3),
    )
    ApiToken.issue(user=alice, name="laptop")
    return {
        "finished": Game.objects.get(pk=finished.pk),
        "scat": scat,
        "scattle": scattle,
        "running": running,
        "later": later,
    }


def page_for(browser, live_server, language: str):
    context = browser.new_context(locale={"fa": "fa-IR", "tr": "tr-TR"}.get(language, "en-US"), timezone_id="UTC")
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    return context, page


def visit(page, base: str, path: str, ready: str | None = None) -> str:
    page.goto(base + path)
    if ready:
        page.locator(ready).first.wait_for()
    page.wait_for_load_state("networkidle")
    return page.evaluate(VISIBLE_TEXT)


def pages_of(world) -> list[tuple[str, str | None]]:
    """(path, a selector that appears once the page's script has drawn it) for every page."""
    finished, running = world["finished"], world["running"]
    return [
        ("/", None),
        ("/games/", None),
        ("/games/new/", None),
        (f"/games/{world['scat'].public_id}/", "#countdown"),
        (f"/games/{world['scattle'].public_id}/", "#players .seat"),
        (f"/games/{finished.public_id}/", "#review .review-list li"),
        ("/users/alice/", None),
        ("/leaderboard/", None),
        ("/settings/", None),
        ("/notifications/", None),
        ("/tournaments/", "[data-list='running'] li a"),
        (f"/tournaments/{running.public_id}/", "#standings table"),
        (f"/tournaments/{world['later'].public_id}/", "#status p:not(.help)"),
    ]


SIGNED_OUT_PAGES = ["/accounts/login/", "/accounts/signup/", "/accounts/password/reset/", "/games/", "/tournaments/"]


def read_every_page(page, base: str, world) -> dict[str, str]:
    texts = {}
    for path, ready in pages_of(world):
        texts[path] = visit(page, base, path, ready)
        if path == f"/games/{world['finished'].public_id}/":
            # The replay, stepped once.
            page.locator('[data-replay="open"]').click()
            page.locator('[data-replay="next"]').click()
            page.locator(".replay-board").first.wait_for()
            texts[path + "#replay"] = page.evaluate(VISIBLE_TEXT)
    return texts


def read_site(browser, live_server, world, language: str, screenshot: Path) -> dict[str, str]:
    """Page -> its text, for every page as Alice sees it, then the pages a visitor sees."""
    context, page = page_for(browser, live_server, language)
    log_in(page, live_server.url, "alice", language)
    texts = read_every_page(page, live_server.url, world)
    page.goto(f"{live_server.url}/games/{world['scattle'].public_id}/")
    page.locator("#players .seat").first.wait_for()
    page.screenshot(path=str(screenshot), full_page=True)
    assert page.errors == []
    context.close()
    context, page = page_for(browser, live_server, language)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    texts |= {f"signed out {path}": visit(page, live_server.url, path) for path in SIGNED_OUT_PAGES}
    context.close()
    return texts


def test_every_page_in_persian_writes_persian_digits_and_solar_hijri_dates(browser, live_server, world, artifacts_dir):
    texts = read_site(browser, live_server, world, "fa", artifacts_dir / "reading-fa-scattle.png")
    latin = {path: latin_numbers(text) for path, text in texts.items() if latin_numbers(text)}
    assert not latin, latin
    gregorian = {
        path: months
        for path, text in texts.items()
        if (months := re.findall(rf"(?<!\w)({GREGORIAN_MONTHS})(?!\w)", text))
    }
    assert not gregorian, gregorian
    # The numbers are there, in Persian digits: the table's clock, the profile's dates.
    assert re.search(r"[۰-۹]{2}:[۰-۹]{2}:[۰-۹]{2}", texts[f"/games/{world['scat'].public_id}/"])
    assert re.search(rf"[۰-۹]+ ({SOLAR_HIJRI_MONTHS}) ۱۴[۰-۹]{{2}}", texts["/users/alice/"])
    assert not english_left(texts)


def test_every_page_in_turkish_leaves_no_english(browser, live_server, world, artifacts_dir):
    texts = read_site(browser, live_server, world, "tr", artifacts_dir / "reading-tr-scattle.png")
    assert {"the", "stock", "knock", "rating", "your"} <= english_words()  # the check has words to look for
    assert not english_left(texts)
    assert not [path for path, text in texts.items() if re.search(r"(?<!\w)(Dur|Puanlı)(?!\w)", text)]


@pytest.mark.parametrize("language", ["en", "tr", "fa"])
def test_a_date_reads_the_same_from_the_server_and_from_the_page(browser, live_server, world, language):
    # The tournament's start: written by the server in its settings, by the page's script in its status.
    context, page = page_for(browser, live_server, language)
    log_in(page, live_server.url, "alice", language)
    page.goto(f"{live_server.url}/tournaments/{world['later'].public_id}/")
    page.locator("#status p:not(.help)").first.wait_for()
    by_server = page.locator("dl.option-list dd").nth(7).inner_text().strip()  # "Start", the eighth setting
    by_page = page.locator("#status").inner_text()
    context.close()
    assert by_server and by_server in by_page, (by_server, by_page)
    if language == "fa":
        assert re.fullmatch(r"[۰-۹]+ \S+ ۱۴[۰-۹]{2}، [۰-۹]+:[۰-۹]{2}", by_server), by_server


def test_a_persian_reader_types_persian_digits_into_the_tournament_form(browser, live_server, world):
    context, page = page_for(browser, live_server, "fa")
    log_in(page, live_server.url, "alice", "fa")
    page.goto(f"{live_server.url}/tournaments/")
    assert page.locator("#t-table-size").input_value() == "۳"
    page.locator("#t-name").fill("Shab-e Yalda")
    page.locator("#t-table-size").fill("۴")
    page.locator("#t-max-players").fill("۱۲")
    page.locator("#new-tournament button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/[\w-]+/$"))
    created = Tournament.objects.get(name="Shab-e Yalda")
    context.close()
    assert (created.table_size, created.max_players) == (4, 12)


def test_the_reading_tests_see_a_latin_number_and_an_english_word():
    assert latin_numbers("۵ جای خالی · 5 جای خالی · SHA-256 · ۴۲٪") == ["5"]
    assert "stock" in english_words() and "deste" not in english_words()


INTL_SOLAR_HIJRI = """(days) => {
  const numeric = { year: "numeric", month: "numeric", day: "numeric", timeZone: "UTC" };
  const format = new Intl.DateTimeFormat("fa-u-ca-persian-nu-latn", numeric);
  return days.map((day) => {
    let parts = format.formatToParts(new Date(`${day}T12:00:00Z`));
    parts = Object.fromEntries(parts.map((p) => [p.type, p.value]));
    return [Number(parts.year), Number(parts.month), Number(parts.day)];
  });
}"""


def test_the_server_keeps_the_browsers_solar_hijri_calendar(browser):
    # Every Nowruz from 1990 to 2090 (the days around it, where a leap year shows) and a day a week
    # between them: the server's conversion gives the date the browser's Intl gives.
    days = [dt.date(year, 3, 17) + dt.timedelta(days=n) for year in range(1990, 2091) for n in range(8)]
    days += [dt.date(1990, 1, 1) + dt.timedelta(weeks=n) for n in range(0, 100 * 52)]
    page = browser.new_page()
    by_browser = page.evaluate(INTL_SOLAR_HIJRI, [day.isoformat() for day in days])
    page.close()
    by_server = [list(solar_hijri.from_gregorian(day)) for day in days]
    differing = [
        (day, server, shown) for day, server, shown in zip(days, by_server, by_browser, strict=True) if server != shown
    ]
    assert not differing, differing[:5]
