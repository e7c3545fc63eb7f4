from __future__ import annotations

from accounts.models import User
from games import services
from games.engine import get_rules
from games.models import Game
from notifications.models import PlayerPreference


def subscribe_webhook(user: User, url: str, events: list[str] | None = None) -> PlayerPreference:
    preference, _ = PlayerPreference.objects.get_or_create(user=user)
    preference.webhook_url = url
    preference.webhook_secret = "s3cret"
    if events is not None:
        preference.channels = {event: ["in_app", "webhook"] for event in events}
    preference.save()
    return preference


def play_one_turn(game_id: str) -> Game:
    """The player to act draws from the stock and discards the first card they may."""
    game = Game.objects.get(public_id=game_id)
    rules = get_rules(game.kind)
    seat = game.to_act_seat
    user = game.seats.get(index=seat).user
    services.submit_move(game_id=game_id, user=user, action={"type": "draw_stock"}, version=game.version)
    game.refresh_from_db()
    discard = next(a for a in rules.legal_actions(rules.from_json(game.state), seat) if a["type"] == "discard")
    services.submit_move(game_id=game_id, user=user, action=discard, version=game.version)
    game.refresh_from_db()
    return game
