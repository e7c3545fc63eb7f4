"""The Scattle balance benchmark's figures: both tie figures (the best score tied before the tie rule,
first place shared after it) with their 95% intervals, and which rule broke the ties."""

from __future__ import annotations

from collections import Counter

from bench.scattle_balance import Measure, play, share_text, top_tied, wilson


def test_the_best_score_is_tied_only_when_two_players_still_in_hold_it():
    assert top_tied({"reason": "stalemate", "scores": [9, 12, 12], "resigned": []})
    assert not top_tied({"reason": "stalemate", "scores": [9, 12, 12], "resigned": [2]})
    assert not top_tied({"reason": "scattle", "scores": [9, 12, 10], "resigned": []})
    assert not top_tied({"reason": "target", "scores": [18, 12, 12], "resigned": []})


def test_an_interval_holds_its_share_and_stays_within_nought_and_one():
    low, high = wilson(1306, 1500)
    assert low < 1306 / 1500 < high and 0.85 < low and high < 0.89
    assert wilson(0, 1500)[0] < 1e-9 and wilson(1500, 1500)[1] > 1 - 1e-9
    assert share_text(100, 1500) == " 6.7% (5.5%-8.0%)"


def test_a_measure_prints_both_tie_figures_with_intervals_and_the_rule_that_broke_the_ties():
    measure = Measure(2, 6, 18, 1500, Counter(target=1272, scattle=34, stalemate=182, exhaustion=12), 0, 180, 100)
    line = measure.intervals()
    assert "by target or Scattle! 87.1% (85.3%-88.7%)" in line
    assert "best score tied  6.7% (5.5%-8.0%)" in line
    assert "first place shared  0.0% (0.0%-0.3%)" in line
    assert "ties broken by first_to_reach: 100 of 100" in line


def test_a_game_of_the_benchmark_reports_its_ties():
    reason, shared, actions, best, tied = play((2, 6, 18, "first_to_reach", 0))
    assert reason in ("target", "scattle", "stalemate", "exhaustion")
    assert actions > 0 and best >= 0
    assert not shared and isinstance(tied, bool)
