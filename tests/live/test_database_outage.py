"""The streams while PostgreSQL cannot be reached, through a real ASGI server: an open stream stays open
(keep-alives go on) when the news it hears cannot be read, and sends it once the database is back;
a stream opened meanwhile is told to come back (503, Retry-After, the error shape).

What happened just as the database went away is written with a connection of the test's own, which
still reaches it (the site's connections are refused), and announced on Redis as the site would."""

from __future__ import annotations

import psycopg
import pytest
import redis
from django.db import connection

from accounts.models import ApiToken
from live.publish import game_channel, keys_channel, user_channel
from tests.api.test_database_outage import database_unreachable
from tests.conftest import require_service
from tests.live.helpers import token_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def sql(asgi_server, redis_url):
    require_service(
        connection.vendor == "postgresql", f"this test needs PostgreSQL, and the database is {connection.vendor}"
    )
    params = {k: v for k, v in connection.get_connection_params().items() if k != "cursor_factory"}
    with psycopg.connect(**params, autocommit=True) as own:
        yield own


def announce(redis_url: str, channel: str, message: str = "1") -> None:
    redis.Redis.from_url(redis_url).publish(channel, message)


def log_event(sql, user_id: int, kind: str) -> None:
    """An entry of the player's stream log, numbered as live.userlog numbers them."""
    sql.execute(
        "WITH c AS (INSERT INTO live_streamcursor (user_id, last_seq) VALUES (%(user)s, 1)"
        " ON CONFLICT (user_id) DO UPDATE SET last_seq = live_streamcursor.last_seq + 1 RETURNING last_seq)"
        " INSERT INTO live_streamevent (user_id, seq, kind, created_at)"
        " SELECT %(user)s, last_seq, %(kind)s, now() FROM c",
        {"user": user_id, "kind": kind},
    )


def keepalives(stream, count: int) -> None:
    for _ in range(count):
        assert stream.next(timeout=5, skip_keepalives=False).event == "keepalive"


def test_a_game_stream_waits_out_the_database_and_sends_what_it_missed(asgi_server, table, open_stream, sql, redis_url):
    game_id, tokens, _clients = table
    url = f"{asgi_server}/api/v1/games/{game_id}/stream/"
    stream = open_stream(url, tokens[0])
    opened = stream.next()
    keepalives(stream, 1)  # the stream has settled: its first look at the game is done
    with database_unreachable():
        revision = sql.execute(
            "UPDATE games_game SET revision = revision + 1 WHERE public_id = %s RETURNING revision", [game_id]
        ).fetchone()[0]
        announce(redis_url, game_channel(game_id), str(revision))
        keepalives(stream, 3)
        refused = open_stream(url, tokens[1])
        assert refused.status == 503
        assert refused.next().data["code"] == "database_unavailable"
    caught_up = stream.next(timeout=10)
    assert (caught_up.event, caught_up.id) == ("game", opened.id + 1)
    assert not stream.ended.is_set()


def test_a_players_stream_waits_out_the_database_and_sends_what_it_missed(
    asgi_server, bob, open_stream, sql, redis_url
):
    stream = open_stream(f"{asgi_server}/api/v1/stream/", token_of(bob))
    keepalives(stream, 1)
    with database_unreachable():
        log_event(sql, bob.pk, "notifications_read")
        announce(redis_url, user_channel(bob.pk))
        keepalives(stream, 3)
    caught_up = stream.next(timeout=10)
    assert (caught_up.event, caught_up.id) == ("notifications_read", 1)
    assert caught_up.data["unread_count"] == 0


def test_a_revoked_token_still_closes_its_streams_once_the_database_is_back(
    asgi_server, table, open_stream, sql, redis_url
):
    game_id, tokens, _clients = table
    stream = open_stream(f"{asgi_server}/api/v1/games/{game_id}/stream/", tokens[0])
    stream.next()
    keepalives(stream, 1)
    token = ApiToken.objects.get(key_hash=ApiToken.hash_key(tokens[0]))
    with database_unreachable():
        sql.execute("UPDATE accounts_apitoken SET revoked_at = now() WHERE id = %s", [token.pk])
        log_event(sql, token.user_id, "credentials")
        announce(redis_url, keys_channel(token.user_id))
        keepalives(stream, 2)
    assert stream.ended.wait(15), "the stream of a revoked token went on after the database came back"
