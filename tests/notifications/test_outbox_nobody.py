"""The one-statement outbox sends nothing when nobody is to be told."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications import outbox
from notifications.models import Notification, PlayerPreference


def test_no_statement_goes_out_when_every_recipient_has_turned_the_event_off(postgres, alice, bob):
    preferences = [PlayerPreference.objects.create(user=user, channels={"your_turn": []}) for user in (alice, bob)]

    with CaptureQueriesContext(connection) as captured:
        written = outbox.notify("your_turn", [(alice.pk, None, {}), (bob.pk, None, {})], preferences=preferences)

    assert written == []
    assert len(captured) == 0, [q["sql"][:80] for q in captured]
    assert not Notification.objects.exists()
