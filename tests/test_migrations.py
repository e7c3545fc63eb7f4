"""Games stored before the rules' second edition keep playing by the first: migration 0005 marks them,
writes the new options with their first-edition meaning, and verify_games finds them consistent. Games
and tournaments stored before the third keep playing without a hand limit (0009)."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import get_rules
from tests.conftest import make_user

BEFORE = [("games", "0004_turns_written_when_they_end")]
# Options as the first edition stored them (no round limits, Scattle's old defaults).
FIRST_EDITION_DROPPED = {"scat": ("max_rounds_per_hand",), "scattle": ("idle_rounds_end",)}


def first_edition(kind: str, seats: int, options: dict, seed: str, plays: int, resign_after_taking: bool = False):
    """A game as the first edition's code left it: its options, snapshot and moves."""
    rules = get_rules(kind)
    state = rules.new_game(seats, options, seed, edition=1)
    moves, rng = [], random.Random(seed)
    for _ in range(plays):
        seat = rules.to_act(state)
        if seat is None:
            break
        legal = rules.legal_actions(state, seat)
        taking = [a for a in legal if a["type"] == "draw_discard"]
        action = taking[0] if resign_after_taking and taking else rng.choice(legal)
        state, events = rules.apply(state, seat, action)
        moves.append((seat, action, events))
    if resign_after_taking:  # C7 of the first edition: the taken card went under the stock with the hand
        seat = moves[-1][0]
        state, events = rules.resign(state, seat)
        moves.append((seat, {"type": "resign"}, events))
    stored_options = {k: v for k, v in state["options"].items() if k not in FIRST_EDITION_DROPPED[kind]}
    state = rules.to_json({**state, "options": stored_options})
    return stored_options, state, moves


@pytest.mark.django_db(transaction=True)
def test_stored_games_migrate_to_the_first_edition_and_stay_consistent(postgres):
    alice = make_user("alice")  # accounts are not migrated back: today's model makes her
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Game, Move = old.get_model("games", "Game"), old.get_model("games", "Move")
    made = []
    for kind, seats, options, seed, plays, resign in [
        ("scat", 2, {}, "old-scat", 40, False),
        ("scattle", 3, {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}, "old-scattle", 30, False),
        ("scattle", 2, {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}, "old-resign", 1, True),
    ]:
        stored_options, state, moves = first_edition(kind, seats, options, seed, plays, resign)
        game = Game.objects.create(
            kind=kind, options=stored_options, num_seats=seats, status="active", creator_id=alice.pk,
            state=state, version=len(moves), seed=seed,
        )  # fmt: skip
        for seq, (seat, action, events) in enumerate(moves, 1):
            Move.objects.create(game=game, seq=seq, seat=seat, action=action, events=events)
        made.append(game.pk)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # 0005 and every later migration

    from games.models import Game as CurrentGame

    for game in CurrentGame.objects.filter(pk__in=made):
        assert game.rules_edition == 1
        dropped = FIRST_EDITION_DROPPED[game.kind]
        assert all(game.options[name] is None for name in dropped)
        assert all(game.state["options"][name] is None for name in dropped)
        assert "edition" not in game.state
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert "0 inconsistent" in out.getvalue(), out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_notification_tables_move_to_their_own_app_with_every_row(postgres):
    alice = make_user("alice")
    executor = MigrationExecutor(connection)
    before = [("games", "0007_rated_advice_and_reviews"), ("live", "0001_initial"), ("notifications", None)]
    executor.migrate(before)
    old = MigrationExecutor(connection).loader.project_state(before[:2]).apps
    game = old.get_model("games", "Game").objects.create(kind="scat", options={}, num_seats=2, creator_id=alice.pk)
    preference = old.get_model("games", "PlayerPreference").objects.create(
        user_id=alice.pk, channels={"your_turn": ["in_app", "webhook"]}, webhook_url="https://example.com/h"
    )
    notification = old.get_model("games", "Notification").objects.create(
        user_id=alice.pk, kind="your_turn", game=game, payload={"game": game.public_id, "kind": "scat"}
    )
    delivery = old.get_model("games", "Delivery").objects.create(notification=notification, channel="webhook")
    event = old.get_model("live", "StreamEvent").objects.create(
        user_id=alice.pk, seq=1, kind="notification", notification_id=notification.pk
    )
    old.get_model("live", "StreamCursor").objects.create(user_id=alice.pk, last_seq=1)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from live.models import StreamEvent
    from notifications.models import Delivery, Notification, PlayerPreference
    from notifications.outbox import notify

    assert PlayerPreference.objects.get(pk=preference.pk).channels == {"your_turn": ["in_app", "webhook"]}
    moved = Notification.objects.get(pk=notification.pk)
    assert (moved.user_id, moved.game_id, moved.payload["game"]) == (alice.pk, game.pk, game.public_id)
    assert Delivery.objects.get(pk=delivery.pk).notification_id == notification.pk
    assert StreamEvent.objects.get(pk=event.pk).notification_id == notification.pk
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
    assert {"notifications_notification", "notifications_delivery", "notifications_playerpreference"} <= tables
    assert not tables & {"games_notification", "games_delivery", "games_playerpreference"}
    # The ids go on from where they were: the next notification is written by the move's own statement.
    [written] = notify("game_over", [(alice.pk, None, {"place": 1})])
    assert written.pk > notification.pk


@pytest.mark.django_db(transaction=True)
def test_stored_scat_games_and_tournaments_keep_playing_without_a_hand_limit(postgres):
    alice = make_user("alice")
    before = [("games", "0008_notifications_moved_out"), ("tournaments", "0002_cancel_reason")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    Game, Move = old.get_model("games", "Game"), old.get_model("games", "Move")
    rules = get_rules("scat")
    state = rules.new_game(3, {}, "old-scat-2", edition=2)
    moves, rng = [], random.Random(2)
    for _ in range(30):
        seat = rules.to_act(state)
        action = rng.choice(rules.legal_actions(state, seat))
        state, events = rules.apply(state, seat, action)
        moves.append((seat, action, events))
    options = {k: v for k, v in state["options"].items() if k != "max_hands"}
    stored = rules.to_json({**state, "options": options})
    game = Game.objects.create(
        kind="scat", options=options, num_seats=3, status="active", creator_id=alice.pk, state=stored,
        version=len(moves), seed="old-scat-2", rules_edition=2,
    )  # fmt: skip
    for seq, (seat, action, events) in enumerate(moves, 1):
        Move.objects.create(game=game, seq=seq, seat=seat, action=action, events=events)
    open_game = Game.objects.create(kind="scat", options=options, num_seats=2, creator_id=alice.pk, rules_edition=2)
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        name="Old cup", kind="scat", format="swiss", table_size=3, rounds=2, options=options, max_players=9,
        creator_id=alice.pk,
    )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    from games.models import Game as CurrentGame
    from tournaments.models import Tournament

    game = CurrentGame.objects.get(pk=game.pk)
    assert game.rules_edition == 2
    assert game.options["max_hands"] is None and game.state["options"]["max_hands"] is None
    assert "latest_deal_events" not in game.state
    assert rules.from_json(game.state)["options"]["max_hands"] is None
    assert CurrentGame.objects.get(pk=open_game.pk).options["max_hands"] is None
    assert Tournament.objects.get(pk=tournament.pk).options["max_hands"] is None
    out = io.StringIO()
    call_command("verify_games", stdout=out)
    assert "0 inconsistent" in out.getvalue(), out.getvalue()
    # A game made now plays by the third edition, with the hand limit.
    assert CurrentGame(kind="scat").rules_edition == 3
