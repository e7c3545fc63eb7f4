"""notifications.presence.mark_seen: one upsert for many (user, game) pairs, on either database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from notifications import presence
from notifications.models import Presence

pytestmark = pytest.mark.django_db


def test_marks_new_pairs_and_moves_known_ones_on(alice, bob, django_user_model):
    games = [services.create_game(creator=alice, kind="scat", num_seats=2) for _ in range(3)]
    carol = django_user_model.objects.create_user("carol", password="x")
    earlier = timezone.now() - timedelta(minutes=5)
    presence.mark_seen([(bob.pk, games[0].pk)], now=earlier)

    now = timezone.now()
    pairs = [(user.pk, game.pk) for user in (bob, carol) for game in games]
    presence.mark_seen(reversed(pairs + pairs), now=now)  # repeated and in any order

    seen = {(p.user_id, p.game_id): p.seen_at for p in Presence.objects.all()}
    assert seen == dict.fromkeys(pairs, now)
    assert presence.seen_since(bob.pk, games[0].pk, now - timedelta(seconds=1), now=now)


def test_nothing_to_mark():
    presence.mark_seen([])
    assert not Presence.objects.exists()


def test_the_upsert_names_the_model_s_table_and_columns():
    assert f"INSERT INTO {Presence._meta.db_table} (user_id, game_id, seen_at)" in presence.UPSERT_FROM_ARRAYS
    columns = {field.column for field in Presence._meta.fields}
    assert {"user_id", "game_id", "seen_at"} <= columns
