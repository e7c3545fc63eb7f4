"""The per-viewer rendering of a game's events (live.feeds), without a server."""

from __future__ import annotations

from games import selectors, services
from games.models import Game
from live import feeds


def test_events_never_run_ahead_of_the_game_they_were_read_with(alice, bob):
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    read = Game.objects.get(pk=game.pk)
    seats = list(read.seats.all())
    # A move commits after the stream read the game and before it reads the moves.
    action = selectors.game_detail(read, alice)["legal_actions"][0]
    services.submit_move(game_id=game.public_id, user=alice, action=action, version=read.version)

    assert feeds.moves_between(read, read.revision) == []
    assert feeds.events_for_seat(read, seats, 0, read.revision, []) == []
    fresh = Game.objects.get(pk=game.pk)
    moves = feeds.moves_between(fresh, read.revision)
    events = feeds.events_for_seat(fresh, list(fresh.seats.all()), 0, read.revision, moves)
    assert [(e.event, e.data["version"]) for e in events] == [("move", 1)]
    assert events[-1].data["detail"]["version"] == 1


def one_move(alice, bob) -> tuple[Game, int]:
    """A started two-seat game in which alice has made the first move; and its revision before it."""
    game = services.create_game(creator=alice, kind="scat", num_seats=2, options={"first_dealer": 1})
    services.join_game(game_id=game.public_id, user=bob)
    before = Game.objects.get(pk=game.pk).revision
    action = selectors.game_detail(Game.objects.get(pk=game.pk), alice)["legal_actions"][0]
    services.submit_move(game_id=game.public_id, user=alice, action=action, version=game.version)
    return game, before


def test_one_reading_renders_each_seat_and_the_spectators_their_own(alice, bob):
    game, before = one_move(alice, bob)

    rendered = feeds.render_since(game.public_id, before)
    fresh = Game.objects.get(pk=game.pk)
    assert set(rendered.events) == {None, 0, 1}
    for seat, user in ((0, alice), (1, bob), (None, None)):
        assert rendered.events[seat][-1].data["detail"] == selectors.game_detail(fresh, user)
    assert rendered.seats_of == {alice.pk: 0, bob.pk: 1}


def test_a_change_sent_between_processes_streams_the_same_bytes_as_one_read_from_the_database(alice, bob):
    from live.streams import NDJSON, SSE, Encoder

    game, before = one_move(alice, bob)
    fresh = Game.objects.get(pk=game.pk)
    seats = list(fresh.seats.all())

    read = feeds.render_since(game.public_id, before)
    since, sent = feeds.from_message(
        feeds.as_message(feeds.rendered(fresh, seats, before, list(fresh.moves.all())), before)
    )
    assert since == before and sent.revision == read.revision == fresh.revision
    assert sent.seats_of == read.seats_of and sent.members == read.members
    for encoder in (Encoder(SSE), Encoder(NDJSON)):
        for seat in (0, 1, None):
            assert sent.encoded(seat, encoder) == read.encoded(seat, encoder)
    # Each audience sees its own hand only.
    assert sent.encoded(0, Encoder(SSE)) != sent.encoded(1, Encoder(SSE))


def test_changes_received_one_after_another_stream_as_one_reading_of_them_all(alice, bob, django_assert_num_queries):
    """A stream back from a cut that missed two moves is sent them from the two changes the process
    received as they were published, without reading the game: the same bytes as one reading."""
    import asyncio

    from live.audiences import Audiences
    from live.streams import NDJSON, SSE, Encoder

    game, _ = one_move(alice, bob)
    published = []
    for _ in range(2):
        fresh = Game.objects.get(pk=game.pk)
        user = alice if fresh.to_act_seat == 0 else bob
        since = fresh.revision
        action = selectors.game_detail(fresh, user)["legal_actions"][0]
        services.submit_move(game_id=game.public_id, user=user, action=action, version=fresh.version)
        fresh = Game.objects.get(pk=game.pk)
        moves = list(fresh.moves.filter(revision__gt=since))
        published.append(feeds.as_message(feeds.rendered(fresh, list(fresh.seats.all()), since, moves), since))
    start = feeds.from_message(published[0])[0]
    read = feeds.render_since(game.public_id, start)

    async def from_the_changes():
        audiences = Audiences()
        for message in published:
            since, change = feeds.from_message(message)
            audiences.received(game.public_id, since, change)
        return await audiences.since(game.public_id, start, read.revision)

    with django_assert_num_queries(0):
        chained = asyncio.run(from_the_changes())
    assert chained.revision == read.revision and chained.seats_of == read.seats_of
    for encoder in (Encoder(SSE), Encoder(NDJSON)):
        for seat in (0, 1, None):
            assert chained.encoded(seat, encoder) == read.encoded(seat, encoder)
