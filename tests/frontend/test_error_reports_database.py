"""A database error inside a move must not carry the game's secrets into an error report either: on
PostgreSQL a NOT NULL or CHECK violation says "Failing row contains (...)", every column of the row,
the seed and the start of the state (hands) among them, in the exception's own message."""

from __future__ import annotations

import logging
import re
import secrets

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils.log import AdminEmailHandler

from games import services
from games.models import Game

pytestmark = pytest.mark.django_db


def break_the_games_row(monkeypatch) -> None:
    """A bug of the kind a constraint catches: a negative version written with the game's row."""
    original = services._after_state_change

    def with_a_bad_column(game, *args, **kwargs):
        game.version = -1
        return original(game, *args, **kwargs)

    monkeypatch.setattr(services, "_after_state_change", with_a_bad_column)


@pytest.fixture
def admin_emails(settings):
    """The admins' error emails with the technical page in HTML, as in tests/frontend/test_error_pages.py."""
    settings.ADMINS = [("Operations", "ops@example.com")]
    handler = AdminEmailHandler(include_html=True)
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield lambda: [message for message in mail.outbox if message.to == ["ops@example.com"]]
    logger.removeHandler(handler)


@pytest.fixture
def open_game(alice, monkeypatch) -> Game:
    monkeypatch.setattr(services, "new_seed", lambda: f"seed-{secrets.token_hex(16)}")
    return services.create_game(creator=alice, kind="scat", num_seats=2)


@pytest.mark.parametrize("debug", [True, False])
def test_a_constraint_violation_in_the_start_of_a_game_reports_no_seed(
    postgres, bob, open_game, admin_emails, monkeypatch, debug, caplog
):
    break_the_games_row(monkeypatch)
    client = Client(raise_request_exception=False)
    client.force_login(bob)

    with override_settings(DEBUG=debug):
        page = client.post(f"/games/{open_game.public_id}/", {"operation": "join"})

    assert page.status_code == 500
    game = Game.objects.get(pk=open_game.pk)
    assert game.status == "open", "the failed join was rolled back"
    # The seed the failed start drew was rolled back with it: look for its shape and the row dump.
    reports = [page.content.decode()] + [e.body for e in admin_emails()]
    reports += [content for e in admin_emails() for content, _type in e.alternatives]
    # And the log line, as the console handler's filter leaves it.
    handler_filter = __import__("config.error_reports", fromlist=["RedactGameSecrets"]).RedactGameSecrets()
    for record in caplog.records:
        handler_filter.filter(record)
        reports.append(record.getMessage() + (record.exc_text or ""))
    for report in reports:
        assert re.search(r"Failing row contains \((?!…)", report) is None  # the line stays, the row does not
        assert "seed-" not in report
