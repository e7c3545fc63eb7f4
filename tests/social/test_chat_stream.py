"""Table talk on the game stream, through a real ASGI server: seated players get each message as an
event "chat" numbered among the moves (so a resume finds it); spectators get nothing of it."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.live.conftest import asgi_server, open_stream, table  # noqa: F401 (fixtures)
from tests.live.helpers import api, play_one

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def say(client, game_id: str, **body) -> dict:
    answer = client.post(f"/api/v1/games/{game_id}/chat/", json=body)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_seated_players_hear_table_talk_live_and_spectators_do_not(asgi_server, table, open_stream, redis_url):  # noqa: F811
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    players = {seat: open_stream(url, tokens[seat]) for seat in (0, 1)}
    spectator = open_stream(url)
    for stream in (*players.values(), spectator):
        assert stream.next().event == "game"

    sent = say(clients[0], game_id, text="good luck, <i>partner</i>")
    for stream in players.values():
        event = stream.next()
        assert event.event == "chat"
        assert event.data["type"] == "chat" and event.data["game"] == game_id
        assert event.data["message"]["id"] == sent["id"]
        assert event.data["message"]["text"] == "good luck, <i>partner</i>"

    play_one(clients, game_id, random.Random(3))
    for stream in players.values():
        assert stream.next().event == "move"
    first_for_spectator = spectator.next()
    assert first_for_spectator.event == "move"  # the message before it never reached the spectator


def test_a_resume_replays_the_messages_it_missed_among_the_moves(asgi_server, table, open_stream):  # noqa: F811
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    start = open_stream(url, tokens[1]).next().id
    play_one(clients, game_id, random.Random(4))
    say(clients[0], game_id, phrase="good_luck")
    play_one(clients, game_id, random.Random(5))

    seat_one = Game.objects.get(public_id=game_id).seats.get(index=1).user
    seat_one.language = "fa"
    seat_one.save(update_fields=["language"])
    resumed = open_stream(url, tokens[1], headers={"Last-Event-ID": str(start)})
    events = [resumed.next() for _ in range(3)]
    assert [e.event for e in events] == ["move", "chat", "move"]
    assert [e.id for e in events] == [start + 1, start + 2, start + 3]
    assert events[1].data["message"]["phrase"] == "good_luck"
    assert events[1].data["message"]["phrase_text"] == "موفق باشید"  # in the reader's own language

    watching = open_stream(url, None, headers={"Last-Event-ID": str(start)})
    seen = [watching.next() for _ in range(2)]
    assert [e.event for e in seen] == ["move", "move"]
    anonymous = api(asgi_server, None).get(f"/api/v1/games/{game_id}/chat/")
    assert anonymous.status_code in (401, 403)
