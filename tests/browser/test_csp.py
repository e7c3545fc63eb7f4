"""The Content-Security-Policy in Chromium: every page of the site comes with the strict policy, loads
and works under it (the table deals the hand, forms submit, the API docs list the operations, the
admin's scripts run), and nothing on it breaks a rule: no `securitypolicyviolation` event, no error in
the console. Also the error pages, the service worker's offline page and the manifest."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from accounts.models import User
from games import advice, services
from games.models import Game, Review
from tests.accounts.signing_up import link_in, mails_to
from tests.browser.test_languages import log_in
from tests.browser.test_live import play
from tests.conftest import make_user
from tests.frontend.test_security import assert_strict_policy
from tournaments import services as tournament_services

pytestmark = [pytest.mark.services]

# Reports every violation to the test, from every document the page loads (the binding outlives
# navigations; an array in the page would not).
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) => {
  window.reportPolicyViolation(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile || document.location.pathname}:${event.lineNumber}`);
});"""
# What Chromium logs for an answer of 4xx or 5xx: expected on the error pages, nowhere else.
ERROR_STATUS = re.compile(r"^Failed to load resource: the server responded with a status of (403|404|500)")


@pytest.fixture
def watched(new_page):
    """A page whose policy violations, console errors and uncaught exceptions are kept."""

    def open_page(**kwargs):
        page = new_page(**kwargs)
        page.violations = []
        page.console_errors = []
        page.expose_function("reportPolicyViolation", lambda text: page.violations.append(text))
        page.add_init_script(REPORT_VIOLATIONS)
        page.on("console", lambda message: message.type == "error" and page.console_errors.append(message.text))
        return page

    return open_page


def visit(page, url: str, status: int = 200):
    response = page.goto(url)
    assert response.status == status, f"{url}: {response.status}"
    assert_strict_policy(response.headers.get("content-security-policy", ""), url)
    return response


def assert_clean(page, *, error_page: bool = False) -> None:
    # Violations are reported a moment after they happen: give the last page that moment.
    page.wait_for_timeout(300)
    console = [text for text in page.console_errors if not (error_page and ERROR_STATUS.match(text))]
    assert page.violations == [], page.violations
    assert console == [], console
    assert page.errors == [], page.errors


@pytest.fixture
def cast(transactional_db):
    """Alice and Bob play a running Scat game (Alice to draw) and have finished a rated one; Alice
    runs a tournament; Root is the site's administrator."""
    alice, bob = make_user("alice"), make_user("bob")
    finished = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=finished.public_id, user=bob)
    play(finished, alice, lambda action: action["type"] == "draw_stock")
    play(finished, alice, lambda action: action["type"] == "discard")
    services.resign(game_id=finished.public_id, user=bob)
    for review in Review.objects.filter(game=finished):
        while advice.review_step(review.pk):
            pass
    running = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=running.public_id, user=bob)
    tournament = tournament_services.create_tournament(
        creator=alice, name="Friday Scat", kind="scat", format="swiss", table_size=2, rounds=1
    )
    User.objects.create_superuser(username="root", email="root@example.com", password="root-pw-1234")
    return {
        "running": Game.objects.get(pk=running.pk),
        "finished": Game.objects.get(pk=finished.pk),
        "tournament": tournament,
    }


def test_a_visitors_pages_work_under_the_policy(watched, live_server, cast):
    base = live_server.url
    page = watched()
    for path in ("/", "/games/", "/how-to-play/", "/leaderboard/", "/users/alice/", "/accounts/login/", "/offline/"):
        visit(page, f"{base}{path}")
    assert page.locator(".rating-chart svg").count() == 0  # the login page; the profile had it:
    visit(page, f"{base}/users/alice/")
    page.locator(".rating-chart svg polyline.line").first.wait_for(state="attached")

    # The tournament pages fill themselves from the API.
    visit(page, f"{base}/tournaments/")
    page.locator('[data-list="open"]').get_by_text("Friday Scat").wait_for()
    visit(page, f"{base}/tournaments/{cast['tournament'].public_id}/")
    page.locator("#status").get_by_text("Loading…").wait_for(state="detached")
    assert page.locator("#status").inner_text().strip()

    # A spectator's table: the players and the stock drawn by the scripts, no controls.
    visit(page, f"{base}/games/{cast['running'].public_id}/")
    page.get_by_text("You are watching this game.").wait_for()
    assert page.locator("#players .seat").count() == 2
    assert page.locator("#actions button").count() == 0

    # The API docs: Swagger UI's own scripts and its start-up script build the list of operations.
    visit(page, f"{base}/api/docs/")
    page.locator(".opblock").first.wait_for(timeout=30_000)
    assert page.locator(".opblock").count() > 20
    page.locator(".opblock-summary").first.click()
    page.get_by_role("button", name="Try it out").first.wait_for()

    # Signing up: the form, the mailed link's page, the password (which signs the new player in).
    visit(page, f"{base}/accounts/signup/")
    page.locator("input[name=username]").fill("dora")
    page.locator("input[name=email]").fill("dora@example.com")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(f"{base}/accounts/signup/sent/")
    [message] = mails_to("dora@example.com")
    visit(page, f"{base}{link_in(message)}")
    page.locator("input[name=password1]").fill("dora-pw-1234-long")
    page.locator("input[name=password2]").fill("dora-pw-1234-long")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(f"{base}/")
    assert User.objects.filter(username="dora").exists()
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(re.compile(r"/accounts/logout/$|/$"))
    assert_clean(page)


def test_password_reset_pages_work_under_the_policy(watched, live_server, cast, mailoutbox):
    base = live_server.url
    page = watched()
    visit(page, f"{base}/accounts/password/reset/")
    page.locator("input[name=email]").fill("alice@example.com")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(f"{base}/accounts/password/reset/sent/")
    link = re.search(r"https?://[^/\s]+(/accounts/password/reset/\S+/)", mailoutbox[-1].body).group(1)
    visit(page, f"{base}{link}")
    page.locator("input[name=new_password1]").fill("alice-new-pw-5678")
    page.locator("input[name=new_password2]").fill("alice-new-pw-5678")
    page.locator("form.stacked button[type=submit]").click()
    page.wait_for_url(f"{base}/accounts/password/reset/done/")
    assert_clean(page)


def test_a_players_pages_work_under_the_policy(watched, live_server, cast):
    base = live_server.url
    page = watched()
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, base, "alice", "en")  # the login form
    for path in ("/", "/games/", "/notifications/", "/leaderboard/"):
        visit(page, f"{base}{path}")

    # The card table deals her hand, and her move goes through.
    running = cast["running"]
    visit(page, f"{base}/games/{running.public_id}/")
    page.locator("#hand .card-img").nth(2).wait_for()
    page.get_by_role("button", name="Draw from stock").click()
    page.get_by_role("button", name=re.compile(r"^Discard ")).first.wait_for()
    assert Game.objects.get(pk=running.pk).version == running.version + 1

    # The finished game: its replay steps through the moves, its review lists her decisions.
    visit(page, f"{base}/games/{cast['finished'].public_id}/")
    page.get_by_role("heading", name="Final ranking").wait_for()
    page.get_by_role("button", name="Replay the moves").click()
    page.get_by_role("button", name="Next move").click()
    page.get_by_text(re.compile(r"After move 1 of \d+")).wait_for()
    page.get_by_role("button", name="Close replay").click()
    page.locator("#review-section .review-list li").nth(1).wait_for()  # her draw and her discard

    # A new game from the form, whose script shows the chosen game's options.
    visit(page, f"{base}/games/new/")
    page.get_by_label("Game", exact=True).select_option("scattle")
    page.locator("fieldset[data-kind=scattle]").wait_for()
    assert page.locator("fieldset[data-kind=scat]").is_hidden()
    page.get_by_label("Seats", exact=True).fill("2")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url(re.compile(r"/games/[\w-]+/$"))
    page.get_by_role("heading", name="Waiting for players").wait_for()

    # Her profile and settings: the chart, the calendar address the script fetches, a form saved.
    visit(page, f"{base}/users/alice/")
    page.locator(".rating-chart svg polyline.line").first.wait_for(state="attached")
    visit(page, f"{base}/settings/")
    # (A predicate as a function: Playwright evaluates a bare expression with eval, which the policy refuses.)
    page.wait_for_function("() => document.getElementById('calendar-url').value.endsWith('.ics')")
    assert page.get_by_role("button", name="Notify me on this device").is_enabled()
    page.locator("#profile form button[type=submit]").click()
    page.get_by_text("Your profile is saved.").wait_for()

    # A new tournament from its form on the list, then its page.
    visit(page, f"{base}/tournaments/")
    page.locator("#t-name").fill("Sunday Scattle")
    page.get_by_role("button", name="Create tournament").click()
    page.wait_for_url(re.compile(r"/tournaments/[\w-]+/$"))
    page.get_by_role("heading", name="Sunday Scattle").wait_for()
    page.get_by_role("button", name="Leave").wait_for()  # its creator is entered

    visit(page, f"{base}/api/docs/")
    page.locator(".opblock").first.wait_for(timeout=30_000)
    visit(page, f"{base}/")
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(re.compile(r"/$"))
    assert_clean(page)


def test_the_admin_works_under_the_policy(watched, live_server, cast):
    base = live_server.url
    page = watched()
    visit(page, f"{base}/admin/login/")
    page.locator("input[name=username]").fill("root")
    page.locator("input[name=password]").fill("root-pw-1234")
    page.locator("input[type=submit]").click()
    page.wait_for_url(f"{base}/admin/")
    visit(page, f"{base}/admin/")

    # The list's scripts: "select all" ticks every row and counts them.
    visit(page, f"{base}/admin/games/game/")
    page.locator("#action-toggle").check()
    games = Game.objects.count()
    page.locator(".action-counter").get_by_text(f"{games} of {games} selected", exact=True).wait_for()
    page.locator("#searchbar").fill("nothing-matches")
    page.locator("#changelist-search input[type=submit]").click()
    page.wait_for_url(re.compile(r"\?q=nothing-matches"))

    # A change form with the admin's widgets (dates, the password link, related objects).
    alice = User.objects.get(username="alice")
    visit(page, f"{base}/admin/accounts/user/{alice.pk}/change/")
    page.locator("#id_date_joined_0").wait_for()
    page.locator(".datetimeshortcuts a", has_text="Today").first.click()
    visit(page, f"{base}/admin/accounts/user/add/")
    page.locator("#nav-sidebar").wait_for(state="attached")
    page.locator("#logout-form button").click()
    page.wait_for_url(f"{base}/")  # LOGOUT_REDIRECT_URL
    assert_clean(page)


def test_the_error_pages_keep_to_the_policy(watched, live_server, cast):
    base = live_server.url
    page = watched()
    visit(page, f"{base}/no-such-page/", status=404)
    visit(page, f"{base}/games/{'0' * 12}/", status=404)

    # A form sent without the CSRF cookie: the site's own page says why (Django's has inline styles).
    visit(page, f"{base}/accounts/login/")
    page.context.clear_cookies()
    page.locator("input[name=username]").fill("alice")
    page.locator("input[name=password]").fill("alice-pw-1234")
    page.locator("form.stacked button[type=submit]").click()
    page.get_by_role("heading", name="That form could not be sent").wait_for()
    assert page.locator("header.site .brand").is_visible()  # the site's stylesheet and header

    with override_settings(ROOT_URLCONF="tests.browser.failing_urls"):
        visit(page, f"{base}/failing-page/", status=500)
    assert_clean(page, error_page=True)


def test_the_service_worker_and_the_manifest_keep_to_the_policy(watched, live_server, cast):
    base = live_server.url
    page = watched()
    log_in(page, base, "bob", "en")
    visit(page, f"{base}/settings/")
    worker = page.request.get(f"{base}/sw.js")
    assert_strict_policy(worker.headers.get("content-security-policy", ""), "/sw.js")
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith("/sw.js")

    # The manifest, fetched by Chromium as for an installation (manifest-src).
    session = page.context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"] == f"{base}/manifest.webmanifest"
    assert manifest["errors"] == [], manifest["errors"]
    assert '"standalone"' in manifest["data"]

    # Offline, the worker answers a navigation with the offline page it keeps, styled by site.css.
    page.reload()
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    try:
        page.goto(f"{base}/games/")
        page.get_by_role("heading", name="You are offline").wait_for()
        background = page.evaluate("getComputedStyle(document.querySelector('header.site')).backgroundColor")
        assert background not in ("", "rgba(0, 0, 0, 0)")
    finally:
        page.context.set_offline(False)
    assert_clean(page)
