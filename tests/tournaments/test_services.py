"""Whole tournaments played through the services on PostgreSQL, by scripted moves."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from itertools import combinations

import pytest
from django.utils import timezone
from icalendar import Calendar

from accounts.models import Block
from games import services as game_services
from games.engine import get_rules
from games.models import Game, GameStatus
from stats.models import RatingHistory
from tests.accounts.helpers import scat_knocker, scattle_melder
from tests.conftest import client_for
from tournaments import selectors, services
from tournaments.models import Entry, Round, Tournament, TournamentStatus
from tournaments.pairing import table_shapes
from tournaments.scoring import as_number

from .helpers import make_players, new_tournament, pairs, play_round, play_to_the_end, recomputed_points, seatings
from .test_pairing import partitions

SWISS_SCAT = {"kind": "scat", "format": "swiss", "table_size": 3, "rounds": 3, "options": {"initial_tokens": 1}}


def fewest_repeats(people: list[int], sizes: list[int], met: set[frozenset]) -> int:
    return min(sum(1 for pair in pairs([list(t) for t in p]) if pair in met) for p in partitions(people, sizes))


def test_a_swiss_scat_tournament_of_seven_at_tables_of_three_is_played_to_the_end(postgres):
    players = make_players(7)
    tournament = new_tournament(players, **SWISS_SCAT)
    services.start_tournament(tournament_id=tournament.public_id, user=players[0])
    tournament = play_to_the_end(tournament, scat_knocker)

    ids = sorted(p.pk for p in players)
    rounds = seatings(tournament)
    assert len(rounds) == 3
    met: set[frozenset] = set()
    for tables, byes in rounds:
        # Every player is seated (or has a stated bye) every round, exactly once.
        assert sorted([p for t in tables for p in t] + byes) == ids
        assert all(2 <= len(t) <= 3 for t in tables)
        # No repeat meeting where a seating without one (or with fewer) existed.
        seated = sorted(p for t in tables for p in t)
        sizes = [n for n, _bots in table_shapes(len(seated), 3, False)]
        made = sum(1 for pair in pairs(tables) if pair in met)
        assert made == fewest_repeats(seated, sizes, met)
        met.update(pairs(tables))

    # The standings are the games' own results, recomputed.
    detail = selectors.detail(tournament, players[0])
    assert detail["status"] == "finished"
    expected = recomputed_points(tournament)
    names = {p.pk: p.username for p in players}
    shown = {row["player"]: row["points"] for row in detail["standings"]}
    assert shown == {names[pk]: as_number(Fraction(points)) for pk, points in expected.items()}
    assert [row["points"] for row in detail["standings"]] == sorted(shown.values(), reverse=True)
    assert sum(row["games"] for row in detail["standings"]) == sum(len(t) for tables, _ in rounds for t in tables)
    # Tournament games are rated, as any other.
    assert RatingHistory.objects.filter(game__tournament_table__round__tournament=tournament).count() == 21

    # The calendar feed parses and lists the three rounds.
    client = client_for(players[3])
    url = client.get("/api/v1/me/calendar/").json()["url"]
    response = client.get(url)
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    uids = {str(event["UID"]) for event in calendar.walk("VEVENT")}
    assert {f"tournament-{tournament.public_id}-round-{n}@127.0.0.1" for n in (1, 2, 3)} <= uids


def test_a_round_robin_scattle_for_four_at_tables_of_two_has_every_pair_meet_once(postgres):
    players = make_players(4)
    tournament = new_tournament(players, kind="scattle", format="round_robin", table_size=2)
    services.start_tournament(tournament_id=tournament.public_id, user=players[0])
    tournament = play_to_the_end(tournament, scattle_melder)
    assert tournament.rounds == 3
    met = [pair for tables, byes in seatings(tournament) for pair in pairs(tables)]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations([p.pk for p in players], 2)), key=sorted
    )
    assert all(not byes for _tables, byes in seatings(tournament))
    standings = selectors.standings(tournament)
    assert sum(row.points for row in standings) == 6  # six games, a win worth 1 each


def test_a_player_who_never_moves_times_out_and_the_round_still_ends(postgres):
    alice, bob = make_players(2, "absent")
    tournament = new_tournament([alice, bob], kind="scat", format="swiss", table_size=2, rounds=2, move_time_limit=60)
    services.start_tournament(tournament_id=tournament.public_id, user=alice)
    game = Game.objects.get(tournament_table__round__tournament=tournament)
    rules = get_rules("scat")
    now = timezone.now()
    for _ in range(200):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = game.seats.get(index=game.to_act_seat)
        if seat.user_id == alice.pk:
            legal = rules.legal_actions(rules.from_json(game.state), seat.index)
            action = next(a for a in legal if a["type"] in ("draw_stock", "discard"))
            game_services.submit_move(game_id=game.public_id, user=alice, action=action, version=game.version)
        else:  # Bob never moves: his deadline passes, and the timeout policy plays
            now = max(now, game.deadline) + timedelta(seconds=1)
            assert game_services.apply_timeout(game_id=game.public_id, now=now)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.seats.get(user=bob).resigned  # removed after his timeouts, so last
    tournament.refresh_from_db()
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.finished_at is not None
    assert tournament.current_round == 2
    rows = {row.player: row.points for row in selectors.standings(tournament)}
    assert rows == {alice.pk: 1, bob.pk: 0}


def test_the_creator_alone_cannot_start_and_others_cannot_start_it(postgres):
    alice, bob = make_players(2, "s")
    tournament = new_tournament([alice], **SWISS_SCAT)
    with pytest.raises(Exception, match="at least 2"):
        services.start_tournament(tournament_id=tournament.public_id, user=alice)
    services.join_tournament(tournament_id=tournament.public_id, user=bob)
    with pytest.raises(Exception, match="creator"):
        services.start_tournament(tournament_id=tournament.public_id, user=bob)


def test_a_tournament_due_to_start_is_started_by_the_sweep_or_cancelled_without_players(postgres):
    players = make_players(3, "due")
    soon = timezone.now() + timedelta(minutes=5)
    full = new_tournament(players, starts_at=soon, **SWISS_SCAT)
    empty = new_tournament(players[:1], starts_at=soon, **{**SWISS_SCAT, "name": "Empty"})
    assert services.start_due_tournaments(now=timezone.now()) == []
    handled = services.start_due_tournaments(now=soon + timedelta(seconds=1))
    assert sorted(handled) == sorted([full.public_id, empty.public_id])
    full.refresh_from_db()
    empty.refresh_from_db()
    assert full.status == TournamentStatus.RUNNING and full.current_round == 1
    assert empty.status == TournamentStatus.FINISHED and empty.cancelled
    assert empty.cancel_reason == "too_few_players"


def test_players_who_block_each_other_never_share_a_table(postgres):
    players = make_players(6, "b")
    Block.objects.create(blocker=players[0], blocked=players[1])
    Block.objects.create(blocker=players[2], blocked=players[0])
    tournament = new_tournament(players, **SWISS_SCAT)
    services.start_tournament(tournament_id=tournament.public_id, user=players[0])
    tables, _byes = seatings(tournament)[0]
    for table in tables:
        assert not ({players[0].pk, players[1].pk} <= set(table) or {players[0].pk, players[2].pk} <= set(table))


def test_withdrawing_resigns_the_running_game_and_leaves_later_rounds(postgres):
    players = make_players(4, "w")
    tournament = new_tournament(players, kind="scat", format="swiss", table_size=2, rounds=2)
    services.start_tournament(tournament_id=tournament.public_id, user=players[0])
    quitter = players[3]
    services.withdraw(tournament_id=tournament.public_id, user=quitter)
    game = Game.objects.get(tournament_table__round__tournament=tournament, seats__user=quitter)
    assert game.status == GameStatus.FINISHED and game.seats.get(user=quitter).resigned
    play_round(tournament, scat_knocker)
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    tables, byes = seatings(tournament)[1]
    assert quitter.pk not in [p for t in tables for p in t] + byes
    assert len(byes) == 1  # three players left at tables of two
    assert Entry.objects.get(tournament=tournament, user=quitter).withdrawn_at is not None
    assert quitter.pk in {row.player for row in selectors.standings(tournament)}


def test_a_vacation_does_not_stop_a_round_whose_policy_ignores_it(postgres):
    from games import vacations

    alice, bob = make_players(2, "v")
    tournament = new_tournament([alice, bob], kind="scat", format="swiss", table_size=2, rounds=1)
    services.start_tournament(tournament_id=tournament.public_id, user=alice)
    game = Game.objects.get(tournament_table__round__tournament=tournament)
    waiting = game.seats.get(index=game.to_act_seat).user
    vacations.start_vacation(user=waiting, until=timezone.now() + timedelta(days=3))
    game.refresh_from_db()
    assert game.deadline is None  # the games stop the clock of a player on vacation...
    assert services.resume_paused_clocks() == 1
    game.refresh_from_db()
    assert game.deadline is not None  # ...and this tournament's round does not wait for it
    Tournament.objects.filter(pk=tournament.pk).update(vacation="pauses")
    assert services.resume_paused_clocks() == 0
