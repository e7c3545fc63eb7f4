"""Limits that hold one request at a time must also hold when the requests come at once."""

from __future__ import annotations

from functools import partial

import pytest
from django.core import mail
from django.core.cache import cache

from accounts import login_limits
from accounts.models import ApiToken
from accounts.services import MAX_ACTIVE_TOKENS
from games.models import Seat
from games.services import MAX_WAITING_INVITATIONS

from .test_concurrency import at_once, racing_client, statuses

pytestmark = [pytest.mark.concurrency]


@pytest.mark.django_db(transaction=True)
def test_twenty_games_created_at_once_leave_bob_no_more_waiting_invitations_than_the_limit(
    concurrent_database, alice, bob
):
    clients = [racing_client(alice) for _ in range(20)]
    body = {"kind": "scat", "seats": 2, "invite": ["bob"], "is_private": True}

    responses = at_once([partial(c.post, "/api/v1/games/", body, format="json") for c in clients])

    assert set(statuses(responses)) <= {201, 400}
    waiting = Seat.objects.filter(invited_user=bob, user__isnull=True).count()
    assert waiting == MAX_WAITING_INVITATIONS
    assert len([m for m in mail.outbox if m.to == [bob.email]]) <= MAX_WAITING_INVITATIONS


@pytest.mark.django_db(transaction=True)
def test_named_tokens_made_at_once_never_pass_the_cap(concurrent_database, alice):
    for n in range(MAX_ACTIVE_TOKENS - 2):
        ApiToken.issue(user=alice, name=f"existing {n}")
    clients = [racing_client(None) for _ in range(10)]
    for client in clients:
        client.force_authenticate(alice)

    responses = at_once([partial(c.post, "/api/v1/me/tokens/", {"name": "x"}, format="json") for c in clients])

    assert statuses(responses) == [201] * 2 + [400] * 8
    assert ApiToken.objects.active().filter(user=alice).count() == MAX_ACTIVE_TOKENS


def test_password_resets_asked_for_at_once_stay_within_the_hourly_share(settings):
    """Checked on the limit itself, thirty threads at once: through the page the race is as real but
    narrower (each request spends most of its time elsewhere)."""
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 3
    settings.PASSWORD_RESETS_PER_ADDRESS_PER_HOUR = 30
    cache.clear()

    granted = []
    for round_ in range(5):  # a few bursts, each for another email: a race need not show in every one
        ask = partial(login_limits.password_reset_allowed, f"203.0.113.{round_}", f"player{round_}@example.com")
        granted.append(at_once([ask] * 30).count(True))

    assert granted == [3] * 5
