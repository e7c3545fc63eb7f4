"""The move's one-statement writes on PostgreSQL store exactly the rows the ORM would: the write batch
(move, turn, game) and the outbox (notifications with their deliveries)."""

from __future__ import annotations

from datetime import timedelta

from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.write_batch import WriteBatch
from games.models import Game, Move, Turn
from notifications import outbox
from notifications.models import Delivery, Notification
from tests.conftest import make_user


def started_game(alice, bob) -> Game:
    from games import services

    game = services.create_game(creator=alice, kind="scat", num_seats=2)
    services.join_game(game_id=game.public_id, user=bob)
    return Game.objects.get(pk=game.pk)


def row(instance, *, without=("id",)) -> dict:
    return {k: v for k, v in model_to_dict(type(instance).objects.get(pk=instance.pk)).items() if k not in without}


def test_a_batch_writes_its_rows_and_the_game_in_one_statement(postgres, alice, bob):
    game = started_game(alice, bob)
    now = timezone.now()
    move = Move(game=game, seq=game.version + 1, seat=0, action={"type": "knock"}, events=[{"type": "knock"}],
                user=alice, created_at=now)  # fmt: skip
    turn = Turn(game=game, seat=0, started_at=now - timedelta(hours=1), deadline=now, ended_at=now, timed_out=True)
    game.version += 1
    game.state = {**game.state, "note": "changed"}
    before = game.updated_at

    batch = WriteBatch()
    batch.insert(move)
    batch.insert(turn)
    batch.update(game, ["version", "state", "updated_at"])
    with CaptureQueriesContext(connection) as captured:
        batch.flush()

    assert len(captured) == 1
    stored = Move.objects.get(game=game, seq=game.version)
    orm = Move.objects.create(**{**model_to_dict(move, exclude=["id"]), "game": game, "user": alice, "seq": 99})
    assert row(stored, without=("id", "seq")) == row(orm, without=("id", "seq"))
    assert Turn.objects.filter(game=game, timed_out=True, deadline=now).count() == 1
    saved = Game.objects.get(pk=game.pk)
    assert (saved.version, saved.state["note"]) == (game.version, "changed")
    assert saved.updated_at > before  # auto_now, as save() would


def test_an_empty_batch_sends_nothing(db):
    with CaptureQueriesContext(connection) as captured:
        WriteBatch().flush()
    assert len(captured) == 0


def test_the_one_statement_outbox_writes_what_the_orm_writes(postgres, alice, bob):
    game = started_game(alice, bob)
    charlie = make_user("charlie")
    payload = {"game": game.public_id, "kind": "scat", "deadline": timezone.now().isoformat(), "place": 1}

    def write(how) -> tuple[list[Notification], list[tuple[int, str]]]:
        items = [
            Notification(user=alice, kind="your_turn", game=game, payload=payload, in_app=True),
            Notification(user=bob, kind="your_turn", game=game, payload=payload, in_app=False),
            Notification(user=charlie, kind="digest", game=None, payload={"games": []}, in_app=True),
        ]
        return items, how(items, [["email", "webhook"], ["webhook"], []])

    fast, fast_deliveries = write(outbox.write_outbox_in_one_statement)
    fast_rows = [row(quick, without=("id", "created_at")) for quick in fast]  # before the next write replaces one
    slow, slow_deliveries = write(outbox.write_outbox_with_orm)

    for quick, written, reference in zip(fast, fast_rows, slow, strict=True):
        assert quick.pk is not None
        assert written == row(reference, without=("id", "created_at"))
    # Each writer takes the unread "your turn" it replaces off the list: alice's first, here the fast one.
    assert row(fast[0], without=())["in_app"] is False and row(slow[0], without=())["in_app"] is True
    assert [channel for _pk, channel in fast_deliveries] == [channel for _pk, channel in slow_deliveries]
    for pk, channel in fast_deliveries:
        delivery = Delivery.objects.get(pk=pk)
        reference = Delivery.objects.get(channel=channel, notification__in=slow,
                                         notification__user=delivery.notification.user)  # fmt: skip
        assert row(delivery, without=("id", "notification", "next_attempt_at")) == row(
            reference, without=("id", "notification", "next_attempt_at")
        )


def test_the_outbox_in_the_move_batch_writes_what_the_orm_writes_and_the_logs_name_it(postgres, alice, bob):
    """Notifications written with a move's WriteBatch (no webhook or push to queue): the same rows
    as the ORM's, in the batch's one statement, and each player's log names its own notification."""
    from live.models import EventKind, StreamEvent

    game = started_game(alice, bob)
    charlie = make_user("charlie")
    payload = {"game": game.public_id, "kind": "scat"}

    def items() -> list[Notification]:
        return [
            Notification(user=alice, kind="your_turn", game=game, payload=payload, in_app=True),
            Notification(user=bob, kind="game_over", game=game, payload=payload, in_app=True),
            Notification(user=charlie, kind="digest", game=None, payload={"games": []}, in_app=False),
        ]

    older = Notification.objects.create(user=alice, kind="your_turn", game=game, payload=payload, in_app=True)
    batched, reference = items(), items()
    earlier = set(Notification.objects.values_list("pk", flat=True))
    earlier_events = set(StreamEvent.objects.values_list("pk", flat=True))
    writes = WriteBatch()
    with CaptureQueriesContext(connection) as queries:
        outbox.add_to_batch(writes, batched[:2], [["email"], []])  # two calls gather under one key
        outbox.add_to_batch(writes, batched[2:], [["email"]])
        from live import subscribers
        from notifications.events import NoticesWritten

        subscribers.notices_written(NoticesWritten(notifications=batched[:2], writes=writes, announce=False))
        writes.flush()
    assert len(queries) == 1
    older.refresh_from_db()
    assert older.in_app is False  # the batch's "your turn" replaced it
    outbox.write_outbox_with_orm(reference, [["email"], [], ["email"]])  # and replaces the batch's in turn

    fresh = Notification.objects.exclude(pk__in=earlier | {r.pk for r in reference})
    written = {n.user_id: n for n in fresh}
    assert len(written) == 3
    for expected in reference:
        mine = written[expected.user_id]
        assert row(mine, without=("id", "created_at", "in_app")) == row(
            expected, without=("id", "created_at", "in_app")
        )
        assert [d.channel for d in mine.deliveries.all()] == [d.channel for d in expected.deliveries.all()]
    assert [written[u.pk].in_app for u in (alice, bob, charlie)] == [False, True, False]
    for user in (alice, bob):
        event = StreamEvent.objects.exclude(pk__in=earlier_events).get(user=user, kind=EventKind.NOTIFICATION)
        assert event.notification_id == written[user.pk].pk
