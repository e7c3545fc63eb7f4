"""The expert bot plays whole games legally (its speed is measured in bench/, not here)."""

from __future__ import annotations

import random

import pytest

from games.engine import get_rules
from games.engine.bots import BOT_LEVELS, choose_action
from games.engine.errors import IllegalAction


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


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_the_expert_refuses_to_play_without_the_seats_history(kind):
    # Without it the expert would read only the view: much weaker, and nobody asked for that.
    rules = get_rules(kind)
    state = rules.new_game(3, None, "no-history")
    seat = rules.to_act(state)
    with pytest.raises(IllegalAction) as refused:
        choose_action(kind, state, seat, "expert", random.Random(0), samples=5)
    assert refused.value.code == "history_required"
    assert "history" in refused.value.message
    history = rules.view_events(state["deal_events"], seat)
    played = choose_action(kind, state, seat, "expert", random.Random(0), history=history, samples=5)
    assert played in rules.legal_actions(state, seat)


def test_the_expert_refuses_a_scat_history_that_stops_hands_ago():
    rules = get_rules("scat")
    state = rules.new_game(2, None, "stale-history")
    opening = list(state["deal_events"])
    rng = random.Random(1)
    while state["hand_no"] == 1:
        seat = rules.to_act(state)
        state, _ = rules.apply(state, seat, choose_action("scat", state, seat, "good", rng))
    seat = rules.to_act(state)
    with pytest.raises(IllegalAction) as refused:
        choose_action("scat", state, seat, "expert", rng, history=rules.view_events(opening, seat), samples=5)
    assert refused.value.code == "history_required"
    assert f"hand {state['hand_no']} is in play" in refused.value.message
