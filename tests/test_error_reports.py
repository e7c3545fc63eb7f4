"""Error reports leave out a Scat state's latest deal, which holds every player's dealt cards."""

from __future__ import annotations

from config.error_reports import holds_game_secrets
from games.engine import get_rules


def test_error_reports_treat_the_latest_deal_as_a_secret(db) -> None:
    deal = get_rules("scat").new_game(2, None, "report")["latest_deal_events"]
    assert holds_game_secrets({"latest_deal_events": "…"})
    assert holds_game_secrets(repr({"latest_deal_events": deal[0]["type"]}))
