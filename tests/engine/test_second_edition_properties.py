"""Properties of the second edition: every game ends under every option set, at every seat count, even
when the players never knock and always take the discard (the round limits, A10b and B7), and the
JSON copies of a state are independent of it."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import get_rules
from games.engine.scat import TIE_RULES

from .test_scat_properties import OPTIONS as SCAT_OPTIONS
from .test_scattle_properties import game_setups

PROPERTY_SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Generous: the bound is what the round limits make finite, not a typical length.
MAX_ACTIONS = 60_000


def mutate_deeply(value: Any) -> None:
    """Change every list and dict inside a JSON-like value."""
    if isinstance(value, dict):
        for item in list(value.values()):
            mutate_deeply(item)
        value["__changed__"] = True
    elif isinstance(value, list):
        for item in value:
            mutate_deeply(item)
        value.append("__changed__")


def stubborn_action(kind: str, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Never knock, never meld, always take the discard when it may be taken: the play that no
    first-edition rule stopped."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    for preferred in ("draw_discard", "draw_stock", "discard"):
        if preferred in by_type:
            return rng.choice(by_type[preferred])
    return rng.choice(legal)  # only a knock is left (a first round with nothing else): so be it


def play_to_the_end(kind: str, seats: int, options: dict[str, Any], seed: Any, chooser: int, stubborn: bool):
    rules = get_rules(kind)
    rng = random.Random(chooser)
    state = rules.new_game(seats, options, seed)
    for actions in range(MAX_ACTIONS):
        seat = rules.to_act(state)
        if seat is None:
            return state, actions
        legal = rules.legal_actions(state, seat)
        action = stubborn_action(kind, legal, rng) if stubborn else rng.choice(legal)
        before = rules.to_json(state)
        copy = rules.to_json(state)
        mutate_deeply(copy)
        assert rules.to_json(state) == before, "a JSON copy shares lists with the state"
        loaded = rules.from_json(before)
        mutate_deeply(before)
        assert rules.to_json(loaded) == rules.to_json(state), "from_json shares lists with its input"
        state, _events = rules.apply(state, seat, action)
    raise AssertionError(f"{kind} did not end within {MAX_ACTIONS} actions")


@st.composite
def scat_games(draw: st.DrawFn) -> dict[str, Any]:
    seats = draw(st.integers(2, 9))
    options = draw(SCAT_OPTIONS)
    options["knocker_tie_rule"] = draw(st.sampled_from(TIE_RULES))
    options["max_rounds_per_hand"] = draw(st.sampled_from([5, 10, 30]))
    options.pop("initial_tokens", None)
    options["initial_tokens"] = draw(st.integers(1, 2))  # a shorter game, the same rules
    return {
        "seats": seats,
        "options": options,
        "seed": draw(st.integers(0, 2**40)),
        "chooser": draw(st.integers(0, 2**32)),
        "stubborn": draw(st.booleans()),
    }


@PROPERTY_SETTINGS
@given(scat_games())
def test_every_scat_game_ends_even_when_nobody_ever_knocks(game):
    state, _actions = play_to_the_end(
        "scat", game["seats"], game["options"], game["seed"], game["chooser"], game["stubborn"]
    )
    assert get_rules("scat").outcome(state)["reason"] in ("last_player", "resignation")


@st.composite
def scattle_games(draw: st.DrawFn) -> dict[str, Any]:
    setup = draw(game_setups())
    options = dict(setup["options"])
    options["idle_rounds_end"] = draw(st.sampled_from([3, 5, 20]))
    options["tie_rule"] = draw(st.sampled_from(["first_to_reach", "shared", "scattle_caller_wins_ties"]))
    if draw(st.booleans()) and setup["seats"] <= 8 and "hand_size" not in options:
        options.pop("deck_count", None)  # auto decks and target
        options["target_score"] = "auto"
    return {**setup, "options": options, "stubborn": draw(st.booleans())}


@PROPERTY_SETTINGS
@given(scattle_games())
def test_every_scattle_game_ends_even_when_everybody_keeps_taking_the_discard(game):
    state, _actions = play_to_the_end(
        "scattle", game["seats"], game["options"], game["seed"], game["chooser"], game["stubborn"]
    )
    outcome = get_rules("scattle").outcome(state)
    assert outcome["reason"] in ("target", "scattle", "exhaustion", "stalemate")
    assert min(outcome["places"]) == 1


def test_with_the_default_options_the_stubborn_table_ends_by_the_idle_rounds():
    state, _actions = play_to_the_end("scattle", 4, {}, "stubborn", 1, stubborn=True)
    assert get_rules("scattle").outcome(state)["reason"] in ("stalemate", "exhaustion", "target", "scattle")
