"""Points by place, shared ties, the last place of a resigned player, byes, and the tie-breaks."""

from __future__ import annotations

from fractions import Fraction

from tournaments.scoring import TableResult, as_number, bye_points, effective_places, standings, table_points


def test_a_win_is_worth_table_size_minus_one_at_any_table_and_the_last_place_nothing():
    assert table_points([1, 2, 3], [False] * 3, 3) == [2, 1, 0]
    assert table_points([2, 1], [False] * 2, 3) == [0, 2]
    assert table_points([1, 2, 3, 4], [False] * 4, 4) == [3, 2, 1, 0]
    assert table_points([1, 2, 3], [False] * 3, 4) == [3, Fraction(3, 2), 0]


def test_tied_places_share_the_average_of_the_places_they_cover():
    assert table_points([1, 1, 3], [False] * 3, 3) == [Fraction(3, 2), Fraction(3, 2), 0]
    assert table_points([1, 2, 2, 2], [False] * 4, 4) == [3, 1, 1, 1]


def test_resigned_and_timed_out_players_take_the_last_place():
    assert effective_places([1, 2, 3], [True, False, False]) == [3, 1, 2]
    assert table_points([1, 2, 3], [True, False, False], 3) == [0, 2, 1]


def test_several_resigned_players_share_the_last_places():
    assert effective_places([1, 2, 3, 4], [False, True, True, False]) == [1, 3, 3, 2]
    assert table_points([1, 2, 3, 4], [False, True, True, False], 4) == [3, Fraction(1, 2), Fraction(1, 2), 2]


def test_a_bye_earns_half_a_win():
    assert bye_points(3) == 1
    assert bye_points(4) == Fraction(3, 2)


def test_standings_break_a_tie_on_points_by_the_opponents_points():
    # Tables of two (a win is 1): a beats b and d; b beats c; c beats d. b and c have 1 point each, but
    # b met a (2) and c (1), c met d (0) and b (1).
    results = [
        TableResult(("a", "b"), (1, 2), (False, False)),
        TableResult(("c", "d"), (1, 2), (False, False)),
        TableResult(("a", "d"), (1, 2), (False, False)),
        TableResult(("c", "b"), (2, 1), (False, False)),
    ]
    rows = standings(["a", "b", "c", "d"], results, [], 2)
    assert [(r.player, r.points, r.opponents_points, r.place) for r in rows] == [
        ("a", 2, 1, 1),
        ("b", 1, 3, 2),
        ("c", 1, 1, 3),
        ("d", 0, 3, 4),
    ]


def test_head_to_head_separates_players_level_on_points_and_opponents_points():
    results = [
        TableResult(("a", "b", "c"), (1, 2, 3), (False, False, False)),
        TableResult(("b", "a", "c"), (1, 2, 3), (False, False, False)),
        TableResult(("a", "b", None), (1, 2, 3), (False, False, False)),
    ]
    # a: 2 + 1 + 2 = 5; b: 1 + 2 + 1 and a bye's 1 = 5; both met each other's opponents alike (15),
    # and a placed ahead of b twice out of three.
    rows = standings(["b", "a", "c"], results, ["b"], 3)
    assert [r.player for r in rows][:2] == ["a", "b"]
    assert rows[0].points == rows[1].points == 5
    assert rows[0].opponents_points == rows[1].opponents_points == 15
    assert rows[0].head_to_head > rows[1].head_to_head


def test_players_level_on_everything_share_a_place():
    results = [TableResult(("a", "b"), (1, 1), (False, False))]
    rows = standings(["a", "b"], results, [], 2)
    assert [r.place for r in rows] == [1, 1]
    assert [r.points for r in rows] == [Fraction(1, 2), Fraction(1, 2)]


def test_points_are_shown_as_decimals():
    assert as_number(Fraction(3)) == 3
    assert as_number(Fraction(8, 3)) == 2.67
