"""The expert bot plays whole games legally (its speed is measured in bench/, not here)."""

from __future__ import annotations

import random

import pytest

from games.engine import get_rules
from games.engine.bots import BOT_LEVELS, choose_action


def test_expert_is_the_last_level():
    assert BOT_LEVELS == ("random", "good", "expert")


def play(kind: str, seats: int, seed: str) -> dict:
    rules = get_rules(kind)
    rng = random.Random(seed)
    levels = ["expert"] + ["good", "random"] * 4
    state = rules.new_game(seats, None, seed)
    events = list(state["deal_events"])
    for _ in range(3000):
        seat = rules.to_act(state)
        if seat is None:
            break
        history = rules.view_events(events, seat)
        action = choose_action(kind, state, seat, levels[seat], rng, history=history, samples=3)
        assert action in rules.legal_actions(state, seat)
        state, new = rules.apply(state, seat, action)
        events += new
    else:
        # A long game is fine; stop it by resignations so the test stays short.
        while rules.to_act(state) is not None:
            state, _ = rules.resign(state, rules.to_act(state))
    return rules.outcome(state)


@pytest.mark.parametrize("seats", range(2, 10))
def test_expert_plays_whole_scat_games(seats):
    assert play("scat", seats, f"expert-scat-{seats}") is not None


@pytest.mark.parametrize("seats", range(2, 9))
def test_expert_plays_whole_scattle_games(seats):
    assert play("scattle", seats, f"expert-scattle-{seats}") is not None


def test_expert_without_history_still_plays():
    rules = get_rules("scat")
    state = rules.new_game(3, None, "no-history")
    seat = rules.to_act(state)
    assert choose_action("scat", state, seat, "expert", random.Random(0), samples=5) in rules.legal_actions(state, seat)
