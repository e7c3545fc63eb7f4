"""Pairing is a pure function: given standings, history and blocks, the tables and byes."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from tournaments.pairing import (
    EXACT_LIMIT,
    ROUND_ROBIN,
    Contender,
    meetings,
    pair_key,
    pair_round,
    round_robin_rounds,
    table_shapes,
)


def players(n: int, points=None) -> list[Contender]:
    return [Contender(i, Fraction(points[i]) if points else 0) for i in range(n)]


def repeats(tables, history) -> int:
    return sum(history.get(pair_key(a, b), 0) for table in tables for a, b in combinations(table, 2))


def partitions(people: list, sizes: list[int]):
    """Every way to seat `people` at tables of `sizes` (a multiset)."""
    if not people:
        yield []
        return
    anchor, rest = people[0], people[1:]
    for size in set(sizes):
        left = list(sizes)
        left.remove(size)
        for others in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in others]
            for tail in partitions(remaining, left):
                yield [(anchor, *others), *tail]


def assert_everyone_once(pairing, ids) -> None:
    seated = pairing.seated() + list(pairing.byes)
    assert sorted(seated) == sorted(ids)


# --- round robin ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_a_round_robin_of_an_even_field_has_every_pair_meet_once_without_byes(n):
    met = Counter()
    for number in range(1, round_robin_rounds(n) + 1):
        pairing = pair_round(players(n), table_size=2, format=ROUND_ROBIN, round_number=number)
        assert pairing.byes == ()
        assert_everyone_once(pairing, range(n))
        met.update(pair_key(*t.players) for t in pairing.tables)
    assert met == Counter({pair_key(a, b): 1 for a, b in combinations(range(n), 2)})


@pytest.mark.parametrize("n", [3, 5, 7])
def test_a_round_robin_of_an_odd_field_gives_each_player_one_bye(n):
    met, byes = Counter(), Counter()
    for number in range(1, round_robin_rounds(n) + 1):
        pairing = pair_round(players(n), table_size=2, format=ROUND_ROBIN, round_number=number)
        assert len(pairing.byes) == 1
        assert_everyone_once(pairing, range(n))
        met.update(pair_key(*t.players) for t in pairing.tables)
        byes.update(pairing.byes)
    assert set(met.values()) == {1} and len(met) == n * (n - 1) // 2
    assert byes == Counter(range(n))


def test_a_round_robin_gives_a_bye_to_the_opponent_of_a_withdrawn_player():
    roster = [0, 1, 2, 3]
    still_in = [Contender(i) for i in (0, 1, 3)]
    pairing = pair_round(still_in, table_size=2, format=ROUND_ROBIN, round_number=1, roster=roster)
    assert pairing.byes == (1,)  # 1 was to meet 2 in round 1
    assert 2 not in pairing.seated() + list(pairing.byes)
    assert_everyone_once(pairing, [0, 1, 3])


def test_a_round_robin_pair_who_block_each_other_both_sit_out_or_play_bots():
    blocks = {pair_key(0, 3)}  # they meet in round 1
    pairing = pair_round(players(4), table_size=2, format=ROUND_ROBIN, round_number=1, blocks=blocks)
    assert sorted(pairing.byes) == [0, 3]
    with_bots = pair_round(players(4), table_size=2, format=ROUND_ROBIN, round_number=1, blocks=blocks, bots_fill=True)
    assert with_bots.byes == ()
    assert sorted(t.players for t in with_bots.tables if t.bots == 1) == [(0,), (3,)]


def test_a_round_robin_needs_tables_of_two():
    with pytest.raises(ValueError):
        pair_round(players(4), table_size=3, format=ROUND_ROBIN, round_number=1)


# --- Swiss ---------------------------------------------------------------------------------------


def test_an_uneven_field_plays_at_smaller_tables_and_everyone_is_seated():
    pairing = pair_round(players(7), table_size=3)
    assert [len(t.players) for t in pairing.tables] == [3, 2, 2]
    assert pairing.byes == ()
    assert_everyone_once(pairing, range(7))


def test_bots_fill_uneven_tables_to_the_table_size():
    pairing = pair_round(players(7), table_size=3, bots_fill=True)
    assert [len(t.players) + t.bots for t in pairing.tables] == [3, 3, 3]
    assert sum(t.bots for t in pairing.tables) == 2
    assert_everyone_once(pairing, range(7))


def test_an_odd_field_at_tables_of_two_gives_the_lowest_placed_player_a_stated_bye():
    pairing = pair_round(players(5), table_size=2)
    assert pairing.byes == (4,)
    assert_everyone_once(pairing, range(5))


def test_the_bye_goes_to_the_lowest_placed_player_who_has_had_the_fewest():
    field = [Contender(0), Contender(1), Contender(2, byes=1)]
    assert pair_round(field, table_size=2).byes == (1,)


def test_a_lone_player_takes_a_bye():
    assert pair_round(players(1), table_size=4).byes == (0,)


def test_players_of_similar_points_sit_together():
    field = players(9, points=[6, 6, 6, 3, 3, 3, 0, 0, 0])
    pairing = pair_round(field, table_size=3)
    assert [t.players for t in pairing.tables] == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]


def test_a_repeat_meeting_is_avoided_when_the_field_allows():
    history = meetings([(0, 1, 2), (3, 4, 5), (6, 7, 8)])
    pairing = pair_round(players(9), table_size=3, history=history)
    assert repeats([t.players for t in pairing.tables], history) == 0


def test_blocked_players_never_share_a_table():
    blocks = {pair_key(0, 1), pair_key(0, 2)}
    pairing = pair_round(players(6), table_size=3, blocks=blocks)
    for table in pairing.tables:
        assert not any(pair_key(a, b) in blocks for a, b in combinations(table.players, 2))
    assert_everyone_once(pairing, range(6))


def test_a_player_who_blocks_everyone_takes_a_bye_rather_than_a_blocked_table():
    blocks = {pair_key(0, other) for other in range(1, 4)}
    pairing = pair_round(players(4), table_size=2, blocks=blocks)
    assert 0 in pairing.byes
    for table in pairing.tables:
        assert 0 not in table.players


def test_pairing_is_deterministic():
    rng = random.Random(3)
    field = [Contender(i, rng.randint(0, 6)) for i in range(40)]
    field.sort(key=lambda c: -c.points)
    history = meetings([rng.sample(range(40), 4) for _ in range(30)])
    first = pair_round(field, table_size=4, history=history)
    assert all(pair_round(field, table_size=4, history=history) == first for _ in range(3))


@pytest.mark.parametrize("seed", range(12))
def test_small_fields_get_the_fewest_repeat_meetings_possible(seed):
    """Against every seating there is (small fields are searched exhaustively)."""
    rng = random.Random(seed)
    n = rng.randint(4, 8)
    size = rng.choice([2, 3, 4])
    history = meetings([rng.sample(range(n), min(size, n)) for _ in range(rng.randint(1, 6))])
    field = players(n)
    pairing = pair_round(field, table_size=size, history=history)
    ids = [c.id for c in field if c.id not in pairing.byes]
    sizes = [people for people, _ in table_shapes(len(ids), size, False)]
    best = min(repeats(p, history) for p in partitions(ids, sizes))
    assert repeats([t.players for t in pairing.tables], history) == best


def test_large_fields_avoid_repeats_over_several_rounds():
    n, size = 60, 3
    assert n > EXACT_LIMIT
    field = players(n)
    played: list[tuple] = []
    for _ in range(4):
        history = meetings(played)
        pairing = pair_round(field, table_size=size, history=history)
        assert_everyone_once(pairing, range(n))
        assert repeats([t.players for t in pairing.tables], history) == 0
        played += [t.players for t in pairing.tables]


def test_a_thousand_players_are_all_seated_at_full_tables():
    pairing = pair_round(players(1000), table_size=4)
    assert_everyone_once(pairing, range(1000))
    assert Counter(len(t.players) for t in pairing.tables) == Counter({4: 250})
