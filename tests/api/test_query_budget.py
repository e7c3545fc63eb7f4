"""One move costs the same number of queries however long the game's history is."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.engine import get_rules
from games.models import Game, Move

from .helpers import started_two_player_game


def queries_for_one_draw(game_id: str, users) -> int:
    game = Game.objects.get(public_id=game_id)
    user = users[game.to_act_seat]
    with CaptureQueriesContext(connection) as captured:
        services.submit_move(game_id=game_id, user=user, action={"type": "draw_stock"}, version=game.version)
    return len(captured)


def finish_the_turn(game_id: str, users) -> int:
    """The discard that passes the turn; returns its queries."""
    game = Game.objects.get(public_id=game_id)
    rules = get_rules(game.kind)
    seat = game.to_act_seat
    discard = next(a for a in rules.legal_actions(rules.from_json(game.state), seat) if a["type"] == "discard")
    with CaptureQueriesContext(connection) as captured:
        services.submit_move(game_id=game_id, user=users[seat], action=discard, version=game.version)
    return len(captured)


def test_a_move_costs_the_same_queries_at_move_5_and_at_move_2000(alice_client, bob_client, alice, bob):
    game_id = started_two_player_game(alice_client, bob_client)["id"]
    users = {0: alice, 1: bob}
    for _ in range(2):
        queries_for_one_draw(game_id, users)
        finish_the_turn(game_id, users)
    early = queries_for_one_draw(game_id, users)
    early_discard = finish_the_turn(game_id, users)

    # Lengthen the history to 2,000 moves; the snapshot, not the history, is what a move reads.
    game = Game.objects.get(public_id=game_id)
    padding = [
        Move(game=game, seq=seq, seat=0, action={"type": "draw_stock"}, events=[])
        for seq in range(game.version + 1, 2000)
    ]
    Move.objects.bulk_create(padding)
    Game.objects.filter(pk=game.pk).update(version=1999)

    late = queries_for_one_draw(game_id, users)
    assert late == early
    assert finish_the_turn(game_id, users) == early_discard
    # Savepoint, game (locked), seats with players and preferences, the writes, release. The writes
    # are one statement on PostgreSQL (data-modifying CTEs); SQLite has none, so there the move, the
    # game, the players' stream counters (one upsert) and their stream events are four.
    writes = 1 if connection.vendor == "postgresql" else 4
    assert early == 4 + writes
    # And the turn passing: the finished turn's row, and the "your turn" notification with its email
    # delivery, taking the player's unread one of the game off the list, all in the same statement on
    # PostgreSQL (the players' logs read the notification's id there); four more on SQLite (the
    # turn, the update, the notification and the delivery).
    assert early_discard == early + (0 if connection.vendor == "postgresql" else 4)


def test_the_move_endpoint_stays_within_its_query_budget(alice_client, bob_client, django_assert_max_num_queries):
    detail = started_two_player_game(alice_client, bob_client)
    client = (alice_client, bob_client)[detail["to_act"]]
    with django_assert_max_num_queries(9):
        response = client.post(
            f"/api/v1/games/{detail['id']}/moves/",
            {"action": {"type": "draw_stock"}, "version": detail["version"]},
            format="json",
        )
    assert response.status_code == 201
