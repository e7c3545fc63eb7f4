"""The correspondence clock, with time travel: deadlines, reminders, timeouts, banks, vacation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games import clock, services, sweeps, tasks, vacations
from games.errors import Invalid
from games.models import Game, Move, Turn
from games.selectors import game_detail
from notifications import digests
from notifications.models import Notification, PlayerPreference

from .helpers import play_one_turn

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
DAY = timedelta(days=1)


@pytest.fixture
def travel():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def two_player_game(alice, bob, **kwargs) -> Game:
    game = services.create_game(creator=alice, kind="scat", num_seats=2, move_time_limit=86400, **kwargs)
    services.join_game(game_id=game.public_id, user=bob)
    game.refresh_from_db()
    return game


def seat_user(game: Game, index: int):
    return game.seats.get(index=index).user


def test_a_turn_gets_its_deadline_and_a_reminder_at_80_percent(travel, alice, bob):
    game = two_player_game(alice, bob)
    assert game.deadline == START + DAY
    assert game.reminder_at == START + DAY * 0.8
    assert (game.turn_started_at, game.deadline) == (START, START + DAY)
    assert not Turn.objects.filter(game=game).exists()  # a turn's row is written when it ends


def test_each_player_chooses_when_to_be_reminded(travel, alice, bob):
    PlayerPreference.objects.create(user=alice, reminder_share=0.5)
    PlayerPreference.objects.create(user=bob, reminder_share=0.5)
    game = two_player_game(alice, bob)
    assert game.reminder_at == START + DAY / 2


def test_the_reminder_goes_out_once_when_its_time_comes(travel, alice, bob):
    game = two_player_game(alice, bob)
    waiting = seat_user(game, game.to_act_seat)
    travel.move_to(START + DAY * 0.7)
    assert sweeps.send_due_reminders() == 0
    travel.move_to(START + DAY * 0.81)
    assert sweeps.send_due_reminders() == 1
    assert sweeps.send_due_reminders() == 0
    reminders = Notification.objects.filter(kind="time_running_out")
    assert [n.user for n in reminders] == [waiting]
    game.refresh_from_db()
    assert (game.reminder_at, game.turn_reminded_at) == (None, START + DAY * 0.81)
    play_one_turn(game.public_id)
    [turn] = Turn.objects.filter(game=game)
    assert (turn.reminded_at, turn.ended_at) == (START + DAY * 0.81, START + DAY * 0.81)


def test_your_turn_is_notified_once_per_turn(travel, alice, bob):
    game = two_player_game(alice, bob)
    first = seat_user(game, game.to_act_seat)
    services.submit_move(game_id=game.public_id, user=first, action={"type": "draw_stock"}, version=game.version)
    assert Notification.objects.filter(kind="your_turn", user=first).count() == 1
    game = Game.objects.get(pk=game.pk)
    play_one_turn_from_discard(game, first)
    other = bob if first == alice else alice
    assert Notification.objects.filter(kind="your_turn", user=other).count() == 1


def play_one_turn_from_discard(game: Game, user) -> None:
    from games.engine import get_rules

    rules = get_rules("scat")
    action = next(
        a for a in rules.legal_actions(rules.from_json(game.state), game.to_act_seat) if a["type"] == "discard"
    )
    services.submit_move(game_id=game.public_id, user=user, action=action, version=game.version)


def test_an_overdue_turn_is_played_by_the_server_and_marked(travel, alice, bob):
    game = two_player_game(alice, bob)
    absent = game.to_act_seat
    travel.move_to(START + DAY + timedelta(seconds=1))
    claimed = sweeps.claim_overdue_games()
    assert claimed == [game.public_id]
    assert sweeps.claim_overdue_games() == []  # a second beat finds nothing to claim
    assert services.apply_timeout(game_id=game.public_id) is True
    assert services.apply_timeout(game_id=game.public_id) is False  # and a repeated task does nothing

    game.refresh_from_db()
    server_moves = Move.objects.filter(game=game, by_server="timeout")
    assert server_moves.count() >= 1 and {m.seat for m in server_moves} == {absent}
    assert game.to_act_seat != absent or game.version > 2
    assert Turn.objects.filter(game=game, timed_out=True).count() == 1
    assert game.deadline == START + DAY + timedelta(seconds=1) + DAY


def test_a_timeout_batch_goes_on_past_a_game_that_fails(travel, alice, bob, caplog):
    games = [two_player_game(alice, bob) for _ in range(2)]
    travel.move_to(START + DAY + timedelta(seconds=1))
    claimed = sweeps.claim_overdue_games()
    assert sorted(claimed) == sorted(g.public_id for g in games)
    # A game deleted since the sweep claimed it: its timeout fails, the next one is still handled.
    Game.objects.filter(pk=games[0].pk).delete()
    assert tasks.apply_timeouts([games[0].public_id, games[1].public_id]) == 1
    assert Move.objects.filter(game=games[1], by_server="timeout").exists()
    assert games[0].public_id in caplog.text


def test_three_timeouts_in_a_row_remove_the_player(travel, alice, bob):
    game = two_player_game(alice, bob)
    absent = game.to_act_seat
    now = START
    for _ in range(3):
        game.refresh_from_db()
        while game.status == "active" and game.to_act_seat != absent:
            play_one_turn(game.public_id)
            game.refresh_from_db()
        now = game.deadline + timedelta(seconds=1)
        travel.move_to(now)
        assert services.apply_timeout(game_id=game.public_id)
    game.refresh_from_db()
    assert game.status == "finished"
    assert game.outcome["reason"] == "resignation"
    assert game.seats.get(index=absent).final_place == 2


def test_a_move_in_time_resets_the_timeout_count(travel, alice, bob):
    game = two_player_game(alice, bob)
    absent = game.to_act_seat
    travel.move_to(game.deadline + timedelta(seconds=1))
    services.apply_timeout(game_id=game.public_id)
    assert game.seats.get(index=absent).timeouts_in_row == 1
    game.refresh_from_db()
    while game.to_act_seat != absent:
        play_one_turn(game.public_id)
        game.refresh_from_db()
    play_one_turn(game.public_id)
    assert game.seats.get(index=absent).timeouts_in_row == 0


def test_the_forfeit_policy_resigns_the_absent_player_at_once(travel, alice, bob):
    game = two_player_game(alice, bob, timeout_policy="forfeit")
    travel.move_to(game.deadline + timedelta(seconds=1))
    services.apply_timeout(game_id=game.public_id)
    game.refresh_from_db()
    assert game.status == "finished"
    assert Move.objects.get(game=game, by_server="timeout").action == {"type": "resign"}


def test_a_bot_whose_task_was_lost_is_played_by_the_sweep(travel, alice):
    game = services.create_game(creator=alice, kind="scattle", num_seats=2, bots=["good"])
    game.refresh_from_db()
    if game.to_act_seat == 0:
        play_one_turn(game.public_id)
        game.refresh_from_db()
    assert game.to_act_seat == 1 and game.deadline == START + clock.BOT_GRACE
    travel.move_to(START + clock.BOT_GRACE + timedelta(seconds=1))
    assert sweeps.claim_overdue_games() == [game.public_id]
    assert services.apply_timeout(game_id=game.public_id)
    assert Move.objects.filter(game=game, by_server="bot").exists()


def test_a_time_bank_shrinks_with_the_time_used_and_grows_by_the_increment(travel, alice, bob):
    bank = {"initial": 3 * 3600, "increment": 1800, "cap": 4 * 3600}
    game = two_player_game(alice, bob, time_bank=bank)
    mover = game.to_act_seat
    assert game.deadline == START + timedelta(hours=3)
    travel.move_to(START + timedelta(hours=1))
    play_one_turn(game.public_id)
    assert game.seats.get(index=mover).bank_remaining == 2 * 3600 + 1800
    assert clock.bank_after_move(4 * 3600 - 60, 1800, 4 * 3600) == 4 * 3600  # the cap holds


def test_a_vacation_taken_during_a_turn_costs_the_time_bank_nothing(travel, alice, bob):
    bank = {"initial": 7200, "increment": 0, "cap": 7200}
    game = two_player_game(alice, bob, time_bank=bank)
    mover = game.to_act_seat
    travel.move_to(START + timedelta(minutes=30))
    vacations.start_vacation(user=seat_user(game, mover), until=START + 3 * DAY)
    travel.move_to(START + 2 * DAY + timedelta(minutes=30))
    vacations.end_vacation(user=seat_user(game, mover))
    travel.move_to(START + 2 * DAY + timedelta(minutes=40))
    play_one_turn(game.public_id)
    # 30 minutes before the vacation and 10 after it: 40 of the 120 minutes are used.
    assert game.seats.get(index=mover).bank_remaining == 7200 - 40 * 60


def test_a_move_made_while_on_vacation_uses_no_bank_time_for_the_vacation(travel, alice, bob):
    bank = {"initial": 7200, "increment": 0, "cap": 7200}
    game = two_player_game(alice, bob, time_bank=bank)
    mover = game.to_act_seat
    travel.move_to(START + timedelta(minutes=20))
    vacations.start_vacation(user=seat_user(game, mover), until=START + 3 * DAY)
    travel.move_to(START + 2 * DAY)
    play_one_turn(game.public_id)
    assert game.seats.get(index=mover).bank_remaining == 7200 - 20 * 60


def test_time_bank_numbers_are_validated(alice):
    with pytest.raises(Invalid):
        services.create_game(
            creator=alice, kind="scat", num_seats=2, time_bank={"initial": 7200, "increment": 0, "cap": 60}
        )


def test_vacation_stops_the_clock_and_opponents_see_until_when(travel, alice, bob):
    game = two_player_game(alice, bob)
    away = seat_user(game, game.to_act_seat)
    other = bob if away == alice else alice
    travel.move_to(START + timedelta(hours=6))
    vacations.start_vacation(user=away, until=START + 5 * DAY)
    game.refresh_from_db()
    assert game.deadline is None and game.paused_remaining == 18 * 3600
    seen = game_detail(game, other)
    assert seen["seats"][game.to_act_seat]["on_vacation_until"] == START + 5 * DAY

    travel.move_to(START + 3 * DAY)
    assert sweeps.claim_overdue_games() == []
    vacations.end_vacation(user=away)
    game.refresh_from_db()
    assert game.deadline == START + 3 * DAY + timedelta(hours=18)
    assert game_detail(game, other)["seats"][game.to_act_seat]["on_vacation_until"] is None
    assert vacations.allowance_left(away) == pytest.approx(14 - (3 * DAY - timedelta(hours=6)) / DAY)


def test_a_turn_that_starts_during_vacation_waits_for_its_end(travel, alice, bob):
    game = two_player_game(alice, bob)
    waiting = 1 - game.to_act_seat
    vacations.start_vacation(user=seat_user(game, waiting), until=START + 2 * DAY)
    play_one_turn(game.public_id)
    game.refresh_from_db()
    assert game.to_act_seat == waiting and game.deadline is None and game.paused_remaining == 86400
    travel.move_to(START + 2 * DAY)
    assert sweeps.expired_vacations() == [seat_user(game, waiting).pk]


def test_vacation_is_limited_to_the_yearly_allowance(travel, alice):
    with pytest.raises(Invalid) as refused:
        vacations.start_vacation(user=alice, until=START + 15 * DAY)
    assert "you have 14.0 vacation days left" in refused.value.message
    vacations.start_vacation(user=alice, until=START + 10 * DAY)
    travel.move_to(START + 10 * DAY)
    vacations.end_vacation(user=alice)
    with pytest.raises(Invalid):
        vacations.start_vacation(user=alice, until=START + 15 * DAY)
    assert vacations.start_vacation(user=alice, until=START + 14 * DAY)


def test_the_digest_comes_in_the_players_local_morning(travel, alice, bob):
    alice.time_zone = "Asia/Tehran"  # UTC+3:30
    alice.save()
    PlayerPreference.objects.create(user=alice, digest_enabled=True, digest_hour=8)
    game = two_player_game(alice, bob)
    while game.to_act_seat != 0:
        play_one_turn(game.public_id)
        game.refresh_from_db()
    travel.move_to(datetime(2026, 3, 3, 4, 0, tzinfo=UTC))  # 07:30 in Tehran
    assert digests.create_digests() == 0
    travel.move_to(datetime(2026, 3, 3, 4, 45, tzinfo=UTC))  # 08:15 in Tehran
    assert digests.create_digests() == 1
    assert digests.create_digests() == 0  # once a day
    digest = Notification.objects.get(kind="digest")
    assert digest.payload["games"] == [game.public_id]
