"""config.compiled: querysets whose SQL is built once give the rows the plain querysets give."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from accounts.models import ApiToken
from config.compiled import CompiledQuery
from games import services
from games.models import Game, Seat
from tests.api.helpers import started_two_player_game

SEATS = CompiledQuery(lambda game_pk: Seat.objects.with_players().filter(game_id=game_pk).order_by("index"), int)
GAME = CompiledQuery(lambda public_id: Game.objects.select_for_update().filter(public_id=public_id), str)


def test_rows_are_the_plain_querysets_rows_with_their_related_objects(alice_client, bob_client, alice):
    detail = started_two_player_game(alice_client, bob_client)
    game = Game.objects.get(public_id=detail["id"])
    plain = list(Seat.objects.with_players().filter(game_id=game.pk).order_by("index"))
    for _ in range(2):  # the first call builds the SQL, the second only runs it
        with CaptureQueriesContext(connection) as queries:
            seats = SEATS.rows(game.pk, known_related={Seat._meta.get_field("game"): {game.pk: game}})
            assert [s.user.username for s in seats] == [s.user.username for s in plain]
            # select_related's objects come with the rows: no query for the preference or the orders
            for seat, twin in zip(seats, plain, strict=True):
                assert columns(seat) == columns(twin) and columns(seat.user) == columns(twin.user)
                assert seat._state.fields_cache.keys() - {"game"} == twin._state.fields_cache.keys()
                assert seat.user._state.fields_cache.keys() == twin.user._state.fields_cache.keys()
                hasattr(seat.user, "preference")
                hasattr(seat, "standing_orders")
            assert seats[0].game is game  # the known related object, as a related manager sets it
        assert len(queries) == 1


def columns(instance) -> dict:
    return {name: value for name, value in instance.__dict__.items() if name != "_state"}


def test_each_call_puts_its_own_values_in(alice_client, bob_client):
    first = started_two_player_game(alice_client, bob_client)
    second = started_two_player_game(alice_client, bob_client)
    with transaction.atomic():
        assert [g.public_id for g in GAME.rows(first["id"])] == [first["id"]]
        assert [g.public_id for g in GAME.rows(second["id"])] == [second["id"]]
        assert GAME.rows("no-such-game") == []
    with pytest.raises(TypeError):
        GAME.rows(17)


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_as_the_orm_refuses_it(alice_client, bob_client):
    if not connection.features.has_select_for_update:
        pytest.skip("SQLite has no row locks: the ORM refuses nothing there")
    detail = started_two_player_game(alice_client, bob_client)
    with pytest.raises(TransactionManagementError):
        GAME.rows(detail["id"])


def test_the_token_read_is_built_once(alice):
    token, key = ApiToken.issue(user=alice, name="compiled")
    from accounts.authentication import ACTIVE_TOKEN

    assert [t.pk for t in ACTIVE_TOKEN.rows(ApiToken.hash_key(key))] == [token.pk]
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=token.created_at)
    assert ACTIVE_TOKEN.rows(ApiToken.hash_key(key)) == []


def test_lock_game_finds_games_as_before(alice_client, bob_client, alice):
    detail = started_two_player_game(alice_client, bob_client)
    with transaction.atomic():
        game, seats = services.lock_game(detail["id"], alice)
        assert game.public_id == detail["id"] and [s.index for s in seats] == [0, 1]
        with pytest.raises(services.NotFound):
            services.lock_game("nonexistent", alice)
