"""Error reports (the technical 500 page with DEBUG, the admins' emails) never show a game's hands,
stock or seed; and a page handed ids that cannot be ids answers a 4xx, never a 500."""

from __future__ import annotations

import html
import logging
import re
import secrets

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils.log import AdminEmailHandler
from rest_framework.test import APIClient

from accounts.models import ApiToken
from games import services
from games.engine import get_rules
from games.models import Game
from notifications.models import Notification

pytestmark = pytest.mark.django_db

FORCED = "forced failure after the state was loaded"


def fail(*args, **kwargs):
    raise RuntimeError(FORCED)


@pytest.fixture
def running_game(alice, bob, monkeypatch) -> Game:
    """Alice (seat 0) to draw in a Scat game with a seed no page could show by chance (and whose deal
    gives nobody a 31, which would move the first turn on: about one deal in 450)."""
    options = {"first_dealer": 1}
    rules = get_rules("scat")
    seed = next(
        seed
        for seed in (f"seed-{secrets.token_hex(16)}" for _ in range(100))
        if rules.to_act(rules.new_game(2, rules.validate_options(options), seed)) == 0
    )
    monkeypatch.setattr(services, "new_seed", lambda: seed)
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options=options)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    assert game.status == "active" and game.to_act_seat == 0
    return game


@pytest.fixture
def admin_emails(settings):
    """The admins' error emails: Django's logging sends the text report when DEBUG is off (its
    mail_admins handler); this handler, the same class, sends it with the technical page in HTML
    (as `include_html` does in production), in every mode."""
    settings.ADMINS = [("Operations", "ops@example.com")]
    handler = AdminEmailHandler(include_html=True)
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield lambda: [message for message in mail.outbox if message.to == ["ops@example.com"]]
    logger.removeHandler(handler)


def assert_shows_no_secret_of(game: Game, report: str) -> None:
    """No card of any hand or of the stock (quoted, as any printed value shows a card), no seed."""
    text = html.unescape(report)
    state = game.state
    hidden = {card for hand in state["hands"] for card in hand} | set(state["stock"])
    assert len(hidden) > 20
    shown = sorted(card for card in hidden if re.search(rf"""['"]{card}['"]""", text))
    assert not shown, f"the report shows {shown}"
    assert state["secret"]["seed"] not in text
    assert game.seed not in text


def stored(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("failing", ["the engine's apply", "recording the move"])
@pytest.mark.parametrize("flow", ["the table page's script", "an API client"])
@pytest.mark.parametrize("debug", [True, False])
def test_a_move_that_fails_reports_no_cards_and_no_seed(
    alice, running_game, admin_emails, monkeypatch, failing, flow, debug
):
    if failing == "the engine's apply":
        monkeypatch.setattr(type(get_rules("scat")), "apply", fail)
    else:
        monkeypatch.setattr(services, "record_move", fail)
    url = f"/api/v1/games/{running_game.public_id}/moves/"
    body = {"action": {"type": "draw_stock"}, "version": running_game.version}
    if flow == "the table page's script":
        client = Client(enforce_csrf_checks=True, raise_request_exception=False)
        client.force_login(alice)
        page = client.get(f"/games/{running_game.public_id}/").content.decode()
        headers = {"HTTP_X_CSRFTOKEN": re.search(r'<meta name="csrf-token" content="([^"]+)">', page).group(1)}
    else:
        client = APIClient(raise_request_exception=False)
        client.credentials(HTTP_AUTHORIZATION=f"Token {ApiToken.issue(user=alice, name='tests')[1]}")
        headers = {}

    with override_settings(DEBUG=debug):
        response = client.post(url, body, content_type="application/json", **headers)

    # The player sees the API's error shape, the technical page never.
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
    game = stored(running_game)
    assert game.version == running_game.version, "the failed move was rolled back"
    assert_shows_no_secret_of(game, response.content.decode())
    # The admins get the full report, the technical page included, without the secrets.
    emails = admin_emails()
    [technical_page] = [content for email in emails for content, _type in email.alternatives]
    for report in [email.body for email in emails] + [technical_page]:
        assert "RuntimeError" in report and FORCED in report
        assert_shows_no_secret_of(game, report)
    # What the player sent is no secret, and still shows among the frames' variables.
    assert "draw_stock" in technical_page
    assert "submit_move" in technical_page


def test_the_technical_500_page_of_a_table_shows_no_cards_and_no_seed(alice, running_game, monkeypatch):
    # The engine fails while building Alice's view of the game, with the whole state in hand.
    monkeypatch.setattr(type(get_rules("scat")), "view", fail)
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    with override_settings(DEBUG=True):
        response = client.get(f"/games/{running_game.public_id}/", {"note": "kept"})
    assert response.status_code == 500
    page = response.content.decode()
    assert "Traceback" in page and "RuntimeError" in page and FORCED in page
    assert_shows_no_secret_of(stored(running_game), page)
    assert "kept" in page, "the request's own data still shows"


def test_the_technical_500_page_still_hides_settings_that_look_secret(alice, running_game, monkeypatch, settings):
    monkeypatch.setattr(type(get_rules("scat")), "view", fail)
    settings.EMAIL_HOST_PASSWORD = "hunter2-mail-password"
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    with override_settings(DEBUG=True):
        page = client.get(f"/games/{running_game.public_id}/").content.decode()
    assert "hunter2-mail-password" not in page
    assert_shows_no_secret_of(stored(running_game), page)


# --- ids that cannot be ids ------------------------------------------------------------------


def test_the_notifications_page_ignores_ids_that_cannot_be_ids(alice, bob):
    services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    invitation = Notification.objects.get(user=bob)
    client = Client()
    client.force_login(bob)
    junk = ["\u00b2", "1" * 30, str(10**20), str(2**63), "-1", "0", "", "\u0661", "12\x00"]
    response = client.post("/notifications/", {"ids": [*junk, str(invitation.pk)]})
    assert response.status_code == 302
    invitation.refresh_from_db()
    assert invitation.read_at is not None, "the real id among the junk is still marked read"
    for only_junk in (["\u00b2"], ["1" * 30]):
        assert client.post("/notifications/", {"ids": only_junk}).status_code == 302


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_nul_in_a_pages_id_is_not_found(postgres, alice, signed_in):
    client = Client()
    if signed_in:
        client.force_login(alice)
    for debug in (False, True):
        with override_settings(DEBUG=debug):
            assert client.get("/games/a%00b/").status_code == 404
            assert client.post("/games/a%00b/", {"operation": "join"}).status_code == 404
            assert client.post("/settings/tokens/a%00b/revoke/").status_code == 404
