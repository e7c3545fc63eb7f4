"""A player's own stream: notifications and summaries of their games, numbered by their own log, a
resume that misses nothing, a reset when the log no longer reaches back, and the limit of streams."""

from __future__ import annotations

import html
import re
import time
from datetime import timedelta

import httpx
import pytest
from django.utils import timezone

from accounts.models import ApiToken
from games import services
from live.leases import MAX_STREAMS
from live.models import StreamEvent
from notifications import outbox

pytestmark = pytest.mark.django_db(transaction=True)


def token_of(user) -> str:
    return ApiToken.issue(user=user, name="stream tests")[1]


def test_an_invitation_and_the_start_of_the_game_reach_the_players_own_stream(asgi_server, alice, bob, open_stream):
    stream = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob))
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])

    invited = stream.until(lambda e: e.event == "notification")
    assert invited[-1].data["kind"] == "invitation" and invited[-1].data["game"] == game.public_id
    services.join_game(game_id=game.public_id, user=bob)
    summary = stream.until(lambda e: e.event == "game_summary" and e.data["status"] == "active")[-1]
    assert set(summary.data) == {"type", "game", "version", "status", "is_your_turn", "deadline"}
    assert summary.data["game"] == game.public_id
    ids = [e.id for e in invited] + [summary.id]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_the_ids_are_the_players_own_numbers_without_gaps(asgi_server, alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    services.join_game(game_id=game.public_id, user=bob)
    assert list(StreamEvent.objects.filter(user=bob).order_by("seq").values_list("seq", flat=True)) == list(
        range(1, StreamEvent.objects.filter(user=bob).count() + 1)
    )


def test_a_resume_sends_what_was_missed(asgi_server, alice, bob, open_stream):
    token = token_of(bob)
    url = f"{asgi_server}/api/v1/stream/"
    game = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    last = StreamEvent.objects.filter(user=bob).order_by("seq").last().seq
    services.join_game(game_id=game.public_id, user=bob)  # while bob's client is away
    resumed = open_stream(url, token, headers={"Last-Event-ID": str(last)})
    missed = resumed.until(lambda e: e.event == "game_summary")
    assert all(e.id > last for e in missed)
    assert missed[-1].data["status"] == "active"


def test_a_pages_stream_takes_up_where_the_page_was_rendered(asgi_server, alice, bob, open_stream, client):
    services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    client.force_login(bob)
    page = client.get("/").content.decode()
    assert re.search(r'data-unread="1"', page)
    stream_url = re.search(r'data-stream-url="(/api/v1/stream/[^"]*)"', page).group(1)
    # News between the page and its stream: the badge above does not count it, the stream brings it.
    second = services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    stream = open_stream(f"{asgi_server}{html.unescape(stream_url)}", token_of(bob))
    brought = stream.until(lambda e: e.event == "notification")
    assert [e.data["game"] for e in brought] == [second.public_id]


def test_a_resume_older_than_the_log_gets_a_reset(asgi_server, alice, bob, open_stream):
    services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    StreamEvent.objects.filter(user=bob).update(created_at=timezone.now() - timedelta(days=3))
    from live.feeds import prune_logs

    assert prune_logs() > 0
    services.create_game(creator=alice, kind="scat", num_seats=3, invite=["bob"])
    stream = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob), headers={"Last-Event-ID": "0"})
    assert stream.next().event == "reset"


def test_reading_notifications_tells_every_stream_of_the_player(asgi_server, alice, bob, open_stream):
    first = services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    services.create_game(creator=alice, kind="scat", num_seats=2, invite=["bob"])
    stream = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob))
    outbox.mark_read(bob, game=first.public_id)
    read = stream.until(lambda e: e.event == "notifications_read")[-1]
    assert (read.data["unread_count"], read.data["unread_games"]) == (1, 1)  # the badge counts games
    outbox.mark_read(bob, everything=True)
    read = stream.until(lambda e: e.event == "notifications_read")[-1]
    assert (read.data["unread_count"], read.data["unread_games"]) == (0, 0)


def test_the_own_stream_needs_an_account(asgi_server, open_stream, db):
    stream = open_stream(f"{asgi_server}/api/v1/stream/")
    assert stream.status == 401 and stream.next().data["code"] == "not_authenticated"


def test_a_player_holds_at_most_twenty_streams(asgi_server, bob, open_stream):
    token = token_of(bob)
    url = f"{asgi_server}/api/v1/stream/"
    held = [open_stream(url, token) for _ in range(MAX_STREAMS)]
    assert all(stream.status == 200 for stream in held)
    refused = open_stream(url, token)
    assert refused.status == 429 and refused.next().data["code"] == "too_many_streams"
    held[0].close()
    assert held[0].ended.wait(5)
    deadline = time.monotonic() + 10
    while (again := open_stream(url, token)).status != 200 and time.monotonic() < deadline:
        time.sleep(0.2)  # the lease comes back once the server has seen the stream end
    assert again.status == 200


def test_a_password_change_closes_the_players_streams(asgi_server, bob, open_stream):
    stream = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob))
    bob.set_password("a-Fresh-pass-77")
    bob.save()
    from accounts.services import password_changed

    password_changed(user=bob)
    assert stream.ended.wait(15)


def session_of(user, client) -> dict[str, str]:
    """The cookies of a session the test client opened for `user`, with a CSRF cookie for forms."""
    client.force_login(user)
    client.get("/")  # sets the CSRF cookie
    return {name: morsel.value for name, morsel in client.cookies.items()}


def test_logging_out_closes_that_sessions_streams_and_no_others(asgi_server, alice, bob, open_stream, client):
    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    cookies = session_of(bob, client)
    cookie_header = "; ".join(f"{name}={value}" for name, value in cookies.items())
    own = open_stream(f"{asgi_server}/api/v1/stream/", headers={"Cookie": cookie_header})
    watched = open_stream(f"{asgi_server}/api/v1/games/{game.public_id}/stream/", headers={"Cookie": cookie_header})
    by_token = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob))
    assert own.status == watched.status == by_token.status == 200
    assert watched.next().event == "game"

    with httpx.Client(base_url=asgi_server, cookies=cookies) as browser:
        answer = browser.post("/accounts/logout/", headers={"X-CSRFToken": cookies["csrftoken"]})
    assert answer.status_code == 302

    assert own.ended.wait(15), "the player's own stream went on after its session logged out"
    assert watched.ended.wait(15), "the game's stream went on after its session logged out"
    assert not by_token.ended.is_set(), "a stream of the player's API token closed with the session"
    assert by_token.next(timeout=5, skip_keepalives=False).event == "keepalive"
