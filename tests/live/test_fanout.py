"""What a move costs the streams: one Redis message per move however many streams follow the game,
rendered for every audience (each seat, the spectators) by the process that made the move when
streams follow the game, so that the streams' processes do not read it; and nothing at all for a
move whose transaction rolls back."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest
import redis
from django.db import transaction

from games import services
from games.models import Game
from live import feeds, hub
from live.publish import game_channel
from tests.conftest import make_user
from tests.live.helpers import play_one, token_of

pytestmark = pytest.mark.django_db(transaction=True)


class Heard:
    """The messages published on one channel, as a separate subscriber hears them."""

    def __init__(self, url: str, channel: str) -> None:
        self.messages: list[str] = []
        self.pubsub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
        self.pubsub.subscribe(channel)
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        try:
            for message in self.pubsub.listen():
                self.messages.append(message["data"].decode())
        except (redis.ConnectionError, ValueError):
            pass  # closed by the test

    def after(self, seconds: float) -> list[str]:
        time.sleep(seconds)
        return list(self.messages)

    def close(self) -> None:
        self.pubsub.close()


@pytest.fixture
def heard(table, redis_url):
    game_id = table[0]
    listener = Heard(redis_url, game_channel(game_id))
    yield listener
    listener.close()


@pytest.fixture
def readings(monkeypatch) -> list[tuple]:
    """Every reading of a game the streams make (the real function, counted)."""
    calls: list[tuple] = []
    render_since = feeds.render_since

    def counted(game_id: str, revision: int):
        calls.append((game_id, revision))
        return render_since(game_id, revision)

    monkeypatch.setattr(feeds, "render_since", counted)
    return calls


def test_one_message_per_move_and_one_reading_per_audience(asgi_server, table, heard, readings, open_stream):
    game_id, tokens, clients = table
    spectators = [token_of(make_user(name)) for name in ("carol", "dave", "erin")]
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    streams = [open_stream(url, token) for token in [tokens[0], tokens[0], tokens[1], *spectators]]
    for stream in streams:
        assert stream.next().event == "game"
    # Once subscribed, the hub wakes every stream to read what it may have missed: not a move's cost.
    deadline = time.monotonic() + 10
    while not any(h.connected.is_set() for h in list(hub._hubs.values())):
        assert time.monotonic() < deadline, "the hub never subscribed"
        time.sleep(0.05)
    time.sleep(0.5)
    readings.clear()

    rng = random.Random(3)
    moves = 3
    for _ in range(moves):
        version = play_one(clients, game_id, rng)["version"]
        for stream in streams:
            assert stream.until(lambda e, v=version: e.event == "move" and e.data["version"] == v)

    messages = heard.after(0.5)
    assert len(messages) == moves  # one message per move, not one per stream
    # The process that made each move rendered it for the three audiences (seat 0, seat 1, the
    # spectators) in that message: the streams' process did not read the game at all.
    assert all(set(json.loads(m)["events"]) == {"0", "1", "s"} for m in messages)
    assert readings == []


def test_a_game_no_stream_follows_is_announced_by_its_revision_alone(table, heard):
    game_id, _, clients = table
    version = play_one(clients, game_id, random.Random(5))["version"]
    assert heard.after(0.5) == [str(Game.objects.get(public_id=game_id).revision)]
    assert version == Game.objects.get(public_id=game_id).version


def test_a_move_rolled_back_announces_nothing(table, heard):
    game_id, _, clients = table
    detail = clients[0].get(f"/api/v1/games/{game_id}/").json()
    mover = clients[detail["to_act"]].get(f"/api/v1/games/{game_id}/").json()
    user = Game.objects.get(public_id=game_id).seats.get(index=detail["to_act"]).user

    class Abandoned(Exception):
        pass

    with pytest.raises(Abandoned), transaction.atomic():
        services.submit_move(game_id=game_id, user=user, action=mover["legal_actions"][0], version=mover["version"])
        raise Abandoned
    assert heard.after(0.5) == []

    services.submit_move(game_id=game_id, user=user, action=mover["legal_actions"][0], version=mover["version"])
    assert len(heard.after(0.5)) == 1
