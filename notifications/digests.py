"""The daily digest: one email in each player's local morning listing the games that wait for them."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Game

from .models import NotificationKind, PlayerPreference
from .outbox import notify
from .timing import player_zone


@transaction.atomic
def create_digests(now=None) -> int:
    """Write the daily digest for every player whose local morning hour has come."""
    now = now or timezone.now()
    created = 0
    preferences = PlayerPreference.objects.select_for_update(skip_locked=True, of=("self",))
    for preference in preferences.filter(digest_enabled=True).select_related("user"):
        local = now.astimezone(player_zone(preference))
        if local.hour < preference.digest_hour or preference.last_digest_on == local.date():
            continue
        preference.last_digest_on = local.date()
        preference.save(update_fields=["last_digest_on"])
        waiting = list(
            Game.objects.filter(status="active", seats__user_id=preference.user_id, seats__index=F("to_act_seat"))
            .order_by("deadline")
            .values_list("public_id", flat=True)
        )
        if waiting:
            notify(NotificationKind.DIGEST, [(preference.user_id, None, {"games": waiting})])
            created += 1
    return created
