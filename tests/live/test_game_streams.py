"""A game's event stream, through a real ASGI server: what each viewer receives, in order, and that
it is exactly what the REST API shows that viewer (and so holds no card the rules hide from them)."""

from __future__ import annotations

import random
import time

import pytest

from accounts.models import ApiToken
from games import services
from games.models import Game, Move
from live.feeds import RESUME_LIMIT
from live.leases import MAX_STREAMS
from tests.api.test_secrets import cards_in
from tests.live.helpers import api, play_one, token_of, without_clock

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_players_and_a_spectator_follow_a_game_to_its_end(asgi_server, table, open_stream):
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    streams = {seat: open_stream(url, tokens[seat]) for seat in (0, 1)}
    streams[None] = open_stream(url)
    viewers = {0: clients[0], 1: clients[1], None: api(asgi_server, None)}
    for seat, stream in streams.items():
        first = stream.next()
        assert first.event == "game"
        assert without_clock(first.data) == without_clock(viewers[seat].get(f"/api/v1/games/{game_id}/").json())
        assert stream.status == 200 and stream.content_type.startswith("text/event-stream")

    rng, version, last = random.Random(5), 0, None
    public: set[str] = set()  # what the REST API has shown a spectator
    seen_by: dict = {0: set(), 1: set(), None: set()}  # what it has shown each viewer
    while True:
        last = play_one(clients, game_id, rng)
        version += 1
        answers = {}
        for seat, client in viewers.items():
            shown = client.get(f"/api/v1/games/{game_id}/moves/?after={version - 1}").json()["results"][0]
            detail = client.get(f"/api/v1/games/{game_id}/").json()
            answers[seat] = (shown, detail)
            seen_by[seat] |= cards_in([shown, detail])
        public |= seen_by[None]
        for seat, stream in streams.items():
            event = stream.next()
            shown, detail = answers[seat]
            assert (event.event, event.data["version"]) == ("move", version)
            assert event.data["move"] == shown  # as the REST history shows this viewer, no more
            assert without_clock(event.data["detail"]) == without_clock(detail)
            leaked = cards_in(event.data) & (hidden_from(seat, game_id) - public - seen_by[seat])
            assert not leaked, (seat, leaked)
        if last["status"] != "active":
            break
    for seat in streams:
        assert viewers[seat].get(f"/api/v1/games/{game_id}/").json()["status"] == "finished"


def hidden_from(seat: int | None, game_id: str) -> set[str]:
    """The cards of the other hands and the stock: what the rules hide from this viewer, bar what
    it has been shown."""
    game = Game.objects.get(public_id=game_id)
    if game.state is None or game.status != "active":
        return set()
    hands = game.state["hands"]
    return {card for index, hand in enumerate(hands) if index != seat for card in hand} | set(game.state["stock"])


def test_a_client_that_comes_back_gets_exactly_what_it_missed_then_live_events(asgi_server, table, open_stream):
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    first = open_stream(url, tokens[0]).next()
    missed_from = first.id
    rng = random.Random(9)
    played = [play_one(clients, game_id, rng) for _ in range(3)]

    resumed = open_stream(url, tokens[0], headers={"Last-Event-ID": str(missed_from)})
    events = [resumed.next() for _ in range(3)]
    assert [e.event for e in events] == ["move", "move", "move"]
    assert [e.data["version"] for e in events] == [1, 2, 3]
    assert [e.id for e in events] == sorted({e.id for e in events})
    assert "detail" not in events[0].data and events[-1].data["detail"]["version"] == played[-1]["version"]

    if played[-1]["status"] == "active":
        play_one(clients, game_id, rng)
        live = resumed.next()
        assert (live.event, live.data["version"]) == ("move", 4)


def test_the_query_parameter_resumes_too_and_a_bad_id_is_a_400(asgi_server, table, open_stream):
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    revision = open_stream(url, tokens[0]).next().id
    play_one(clients, game_id, random.Random(1))
    resumed = open_stream(f"{url}?last_event_id={revision}", tokens[0])
    assert resumed.next().data["version"] == 1
    refused = open_stream(f"{url}?last_event_id=yesterday", tokens[0])
    assert refused.status == 400 and refused.next().data["code"] == "bad_last_event_id"


def test_seat_changes_send_the_game_again(asgi_server, alice, bob, open_stream):
    game = services.create_game(creator=alice, kind="scat", num_seats=3)
    stream = open_stream(f"{asgi_server}/api/v1/games/{game.public_id}/stream/", token_of(alice))
    assert stream.next().data["open_seats"] == 2
    services.join_game(game_id=game.public_id, user=bob)
    joined = stream.next()
    assert joined.event == "game" and joined.data["open_seats"] == 1


def test_ndjson_on_request(asgi_server, table, open_stream):
    game_id, tokens, _clients = table
    stream = open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[0], ndjson=True)
    assert stream.content_type.startswith("application/x-ndjson")
    assert stream.next().event == "game"
    assert stream.next(skip_keepalives=False).event == "keepalive"  # an empty line, within the second


def test_keepalives_come_while_nothing_happens(asgi_server, table, open_stream):
    game_id, tokens, _clients = table
    stream = open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[0])
    stream.next()
    # LIVE_KEEPALIVE_SECONDS is 1 here: one after each quiet second, not one only.
    for _ in range(3):
        assert stream.next(timeout=3, skip_keepalives=False).event == "keepalive"


def test_a_private_game_is_not_found_for_outsiders(asgi_server, alice, charlie, open_stream):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True)
    url = f"{asgi_server}/api/v1/games/{game.public_id}/stream/"
    for stream in (open_stream(url, token_of(charlie)), open_stream(url)):
        assert stream.status == 404 and stream.next().data["code"] == "not_found"
    assert open_stream(url, token_of(alice)).status == 200


def test_a_revoked_token_closes_its_streams(asgi_server, table, open_stream, alice):
    game_id, tokens, _clients = table
    token = ApiToken.objects.get(key_hash=ApiToken.hash_key(tokens[0]))
    stream = open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[0])
    stream.next()
    from accounts.services import revoke_token

    revoke_token(user=token.user, token_id=token.public_id)
    assert stream.ended.wait(15), "the stream went on after its token was revoked"


def test_a_bad_token_is_a_401(asgi_server, table, open_stream):
    game_id, _tokens, _clients = table
    stream = open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", "not-a-token")
    assert stream.status == 401 and stream.next().data["code"] == "authentication_failed"


def lengthen(game_id: str, moves: int) -> int:
    """Add `moves` draws to the game's history (as a long game leaves it, without playing them);
    returns its revision after them."""
    game = Game.objects.get(public_id=game_id)
    Move.objects.bulk_create(
        Move(game=game, seq=game.version + n, revision=game.revision + n, seat=0, action={"type": "draw_stock"})
        for n in range(1, moves + 1)
    )
    Game.objects.filter(pk=game.pk).update(version=game.version + moves, revision=game.revision + moves)
    return game.revision + moves


def test_a_resume_from_far_back_gets_the_game_afresh_instead_of_the_whole_history(asgi_server, table, open_stream):
    game_id, _tokens, _clients = table
    revision = lengthen(game_id, RESUME_LIMIT * 3)
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    for last_event_id in ("0", str(revision - RESUME_LIMIT - 1)):
        resumed = open_stream(url, headers={"Last-Event-ID": last_event_id})  # anyone may watch a public game
        fresh = resumed.next()
        assert (fresh.id, fresh.event) == (revision, "game")
        assert without_clock(fresh.data) == without_clock(
            api(asgi_server, None).get(f"/api/v1/games/{game_id}/").json()
        )
        assert resumed.next(timeout=3, skip_keepalives=False).event == "keepalive"  # and no move after it


def test_a_resume_within_the_bound_gets_every_move_it_missed(asgi_server, table, open_stream):
    game_id, tokens, _clients = table
    revision = lengthen(game_id, RESUME_LIMIT + 5)
    since = revision - RESUME_LIMIT
    resumed = open_stream(
        f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[0], headers={"Last-Event-ID": str(since)}
    )
    events = [resumed.next() for _ in range(RESUME_LIMIT)]
    assert {e.event for e in events} == {"move"}
    assert [e.id for e in events] == list(range(since + 1, revision + 1))
    assert resumed.next(timeout=3, skip_keepalives=False).event == "keepalive"


def test_an_address_holds_at_most_twenty_streams_without_an_account(asgi_server, table, alice, open_stream):
    game_id, tokens, _clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    held = [open_stream(url) for _ in range(MAX_STREAMS)]
    assert all(stream.status == 200 for stream in held)
    refused = open_stream(url)
    assert refused.status == 429
    error = refused.next().data
    assert error["code"] == "too_many_streams" and set(error) == {"code", "message", "details"}
    assert "log in" in error["message"]
    assert open_stream(url, tokens[0]).status == 200  # a player's streams count against the player
    held[0].close()
    assert held[0].ended.wait(5)
    deadline = time.monotonic() + 10
    while (again := open_stream(url)).status != 200 and time.monotonic() < deadline:
        time.sleep(0.2)  # the lease comes back once the server has seen the stream end
    assert again.status == 200
