"""Opening streams cheaply (config.direct_asgi, live.openings), through a real ASGI server: an open stream
holds no thread, the answers to a refused stream are what they were, and streams that come back
together with Last-Event-ID get every move they missed, once, in order, then live ones."""

from __future__ import annotations

import random
import socket
import threading
import time

import pytest
from django.utils import timezone
from rest_framework.throttling import SimpleRateThrottle

from accounts.models import ApiToken
from games import services
from tests.live.helpers import play_one, token_of

pytestmark = pytest.mark.django_db(transaction=True)


def raw_stream(base: str, path: str, token: str) -> socket.socket:
    """A game stream read on a bare socket (no client thread), once its first bytes have come."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=10)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Token {token}\r\n"
        "Accept: text/event-stream\r\n\r\n".encode()
    )
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(65536)
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return sock


def test_an_open_stream_holds_no_thread(asgi_server, table, django_user_model):
    """Under Django's own ASGI handler every stream kept a thread of its own for its whole life (its
    thread-sensitive context's); 40 open streams now add no more threads than the shared pool's."""
    game_id, _tokens, _clients = table
    path = f"/api/v1/games/{game_id}/stream/"
    viewers = [token_of(django_user_model.objects.create_user(f"viewer{i}", password="x")) for i in range(3)]
    warm = raw_stream(asgi_server, path, viewers[0])  # the pools and the hub start with the first stream
    time.sleep(0.5)
    before = threading.active_count()
    streams = [raw_stream(asgi_server, path, viewers[i % 3]) for i in range(40)]
    time.sleep(0.5)
    during = threading.active_count()
    for sock in [warm, *streams]:
        sock.close()
    assert during - before <= 6, f"{during - before} threads more with 40 streams open"


def test_refusals_answer_as_before(asgi_server, alice, charlie, open_stream, monkeypatch, django_user_model):
    """The stream's own checks, past the middleware, in the API's error shape and with its headers."""
    game = services.create_game(creator=alice, kind="scat", num_seats=2, is_private=True)
    url = f"{asgi_server}/api/v1/games/{game.public_id}/stream/"
    cases = [
        (open_stream(url, "not-a-token"), 401, "authentication_failed"),
        (open_stream(f"{asgi_server}/api/v1/stream/"), 401, "not_authenticated"),
        (open_stream(url, token_of(charlie)), 404, "not_found"),
        (open_stream(url), 404, "not_found"),
    ]
    revoked = token_of(alice)
    ApiToken.objects.filter(key_hash=ApiToken.hash_key(revoked)).update(revoked_at=timezone.now())
    cases.append((open_stream(url, revoked), 401, "authentication_failed"))
    charlie.is_active = False
    charlie.save(update_fields=["is_active"])
    cases.append((open_stream(url, token_of(charlie)), 401, "authentication_failed"))
    for stream, status, code in cases:
        assert (stream.status, stream.next().data["code"]) == (status, code)
        assert stream.content_type.startswith("application/json")

    opened = open_stream(url, token_of(alice))
    assert opened.status == 200 and opened.next().event == "game"

    # The API's rate limit counts the streams too (a public game: the limit comes before the lease).
    public = services.create_game(creator=alice, kind="scat", num_seats=2)
    url = f"{asgi_server}/api/v1/games/{public.public_id}/stream/"
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "token", "2/minute")
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "2/minute")
    key = token_of(django_user_model.objects.create_user("dora", password="x"))
    answers = [open_stream(url, key) for _ in range(3)]
    assert [a.status for a in answers] == [200, 200, 429]
    assert answers[2].next().data["code"] == "throttled"


def test_security_headers_as_the_middleware_gives_them(asgi_server, table):
    import httpx

    game_id, tokens, _clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    with httpx.Client(timeout=10) as client:
        for token in (tokens[0], "not-a-token"):
            with client.stream("GET", url, headers={"Authorization": f"Token {token}"}) as answer:
                assert answer.headers["x-content-type-options"] == "nosniff"
                assert answer.headers["x-frame-options"] == "DENY"
                assert "content-security-policy" in answer.headers


def test_streams_that_come_back_together_get_every_move_they_missed_once(
    asgi_server, table, open_stream, django_user_model
):
    """Three viewers (both players and a spectator) cut at different revisions come back at once, the
    moves going on: each gets every move after its Last-Event-ID, once and in order, and the live
    ones after; one that missed nothing gets nothing until the next move."""
    game_id, tokens, clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    rng = random.Random(28)
    spectator = token_of(django_user_model.objects.create_user("watcher", password="x"))
    viewers = [tokens[0], tokens[1], spectator]
    start = open_stream(url, tokens[0]).next().id
    cut_at = {tokens[0]: start}
    played = [play_one(clients, game_id, rng)]
    cut_at[tokens[1]] = start + 1
    played += [play_one(clients, game_id, rng) for _ in range(2)]
    cut_at[spectator] = start + 3  # missed nothing

    back = {}
    opening = [
        threading.Thread(
            target=lambda v=v: back.__setitem__(v, open_stream(url, v, headers={"Last-Event-ID": str(cut_at[v])}))
        )
        for v in viewers
    ]
    for thread in opening:
        thread.start()
    for thread in opening:
        thread.join(20)
    played.append(play_one(clients, game_id, rng))

    for viewer in viewers:
        events = back[viewer].until(lambda e: e.event == "move" and e.id == start + 4)
        moves = [e.id for e in events if e.event == "move"]
        assert moves == list(range(cut_at[viewer] + 1, start + 5)), (viewer == spectator, moves)
        assert not [e for e in events if e.event == "game"]
        assert events[-1].data["detail"]["version"] == played[-1]["version"]


def test_an_unsafe_method_is_refused_by_the_csrf_check_as_before(asgi_server, table):
    """Django's CSRF middleware refused a POST to a stream before its view ran (the token or not);
    served past the middleware, the stream makes the same check."""
    import httpx

    game_id, tokens, _clients = table
    answer = httpx.post(
        f"{asgi_server}/api/v1/games/{game_id}/stream/", headers={"Authorization": f"Token {tokens[0]}"}, timeout=10
    )
    assert answer.status_code == 403 and answer.json()["code"] == "permission_denied"


def test_each_stream_that_opens_counts_toward_freezing_its_objects(asgi_server, table, open_stream, monkeypatch):
    from config import collector, direct_asgi

    counted = collector.Tenure()
    monkeypatch.setattr(direct_asgi, "tenure", counted)
    game_id, tokens, _clients = table
    answers = [open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[seat]) for seat in (0, 1)]
    refused = open_stream(f"{asgi_server}/api/v1/games/nosuchgame/stream/", tokens[0])
    assert [a.status for a in answers] == [200, 200]
    assert refused.status == 404
    assert counted.since_freeze == 2


def test_a_reading_no_longer_kept_is_freed_without_waiting_for_a_collection(alice, bob):
    """A game's reading is a reference cycle (the prefetched seats refer back to the game); frozen out
    of the collections (config.collector) it would stay until the hourly review."""
    import gc
    import weakref

    from live.openings import read_opening

    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"initial_tokens": 1})
    services.join_game(game_id=game.public_id, user=bob)
    gc.disable()
    try:
        opening = read_opening(game.public_id)
        gone = weakref.ref(opening.game)
        opening.let_go()
        del opening
        assert gone() is None
    finally:
        gc.enable()

    opening = read_opening(game.public_id)
    before = opening.render(None).data
    opening.let_go()
    assert opening.render(None).data == before, "a stream still rendering it reads the seats again"
