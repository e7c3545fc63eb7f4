"""Scat, third edition of the rules: the hand limit A10d (every game ends, whatever the table does) and
the view's deal events, which follow the hand in play."""

from __future__ import annotations

import pytest

from games.engine.scat import PRESETS, RULES, _value

from .test_scat import stack, start

__all__ = ["stack"]  # the fixture, used by name

STEERED_VALUE = 10


def steering(state: dict, seat: int) -> dict:
    """A bot that never knocks and keeps its hand at STEERED_VALUE (never a 31): at a table of them
    every showdown at the round limit tends to tie, and before A10d such a game never ended."""
    hand, options = state["hands"][seat], state["options"]

    def off(cards: list[str]) -> float:
        value = _value(cards, options)
        return 99 if value == 31 else abs(value - STEERED_VALUE)

    legal = RULES.legal_actions(state, seat)
    if state["phase"] == "must_discard":
        return min(legal, key=lambda a: (off([c for c in hand if c != a["card"]]), a["card"]))
    kinds = {action["type"] for action in legal}
    if "draw_discard" in kinds:
        top = state["discard"][-1]
        best = min(off([c for c in [*hand, top] if c != out]) for out in hand)
        if best < off(hand) or "draw_stock" not in kinds:
            return {"type": "draw_discard"}
    return {"type": "draw_stock"}


def play_steered(seats: int, options: dict, seed: str, hands: int | None = None) -> tuple[dict, list[dict]]:
    """The game to its end (or, with `hands`, until that many hands have been dealt), and its events."""
    state = RULES.new_game(seats, options, seed)
    events = list(state["deal_events"])
    while (seat := RULES.to_act(state)) is not None and (hands is None or state["hand_no"] <= hands):
        state, new = RULES.apply(state, seat, steering(state, seat))
        events += new
    return state, events


def places_by_tokens(tokens: list[int], live: list[int]) -> dict[int, int]:
    """A10d's places for the players still in: more tokens first, equal tokens sharing a place."""
    return {seat: 1 + sum(tokens[other] > tokens[seat] for other in live) for seat in live}


@pytest.mark.parametrize("seats", [2, 3, 4, 6, 9])
def test_a_table_steering_to_one_value_without_knocking_ends_at_the_hand_limit(seats: int) -> None:
    state, events = play_steered(seats, {"max_hands": 10}, f"steered-{seats}")
    outcome = RULES.outcome(state)
    assert outcome["reason"] == "hand_limit"
    assert outcome["hands_played"] == state["hand_no"] == 10
    assert not any(event["type"] == "knock" for event in events)
    assert events[-1] == {"type": "game_over", **outcome}
    live = [seat for seat in range(seats) if not state["eliminated"][seat]]
    assert len(live) >= 2
    expected = places_by_tokens(state["tokens"], live)
    assert {seat: outcome["places"][seat] for seat in live} == expected
    assert outcome["winners"] == [seat for seat in live if expected[seat] == 1]
    out = [seat for seat in range(seats) if state["eliminated"][seat]]
    assert all(outcome["places"][seat] > len(live) for seat in out)
    assert outcome["tokens"] == state["tokens"] and outcome["kitty_won"] == 0  # nobody is the last player


def test_at_the_default_limit_a_two_seat_table_ends_after_sixty_hands() -> None:
    state, _ = play_steered(2, {}, "steered-default")
    assert state["options"]["max_hands"] == 60
    outcome = RULES.outcome(state)
    assert (outcome["reason"], outcome["hands_played"]) == ("hand_limit", 60)
    # Every showdown tied: both keep their tokens and share first place.
    assert state["tokens"] == [3, 3] and outcome["places"] == [1, 1] and outcome["winners"] == [0, 1]


def test_without_a_hand_limit_the_same_table_plays_on_past_it() -> None:
    state, _ = play_steered(2, {"max_hands": None}, "steered-default", hands=70)
    assert RULES.outcome(state) is None and state["hand_no"] == 71


def test_a_player_who_resigned_places_below_those_left_at_the_hand_limit() -> None:
    state = RULES.new_game(3, {"max_hands": 10}, "limit-with-one-out")
    state, _ = RULES.resign(state, 0)
    while (seat := RULES.to_act(state)) is not None:
        state, _ = RULES.apply(state, seat, steering(state, seat))
    outcome = RULES.outcome(state)
    assert outcome["reason"] == "hand_limit" and outcome["places"][0] == 3
    assert sorted(outcome["places"][1:]) in ([1, 1], [1, 2])


def test_the_original_preset_has_no_hand_limit_and_the_option_is_checked() -> None:
    assert PRESETS["original"]["max_hands"] is None
    assert RULES.validate_options({"max_hands": 10})["max_hands"] == 10
    for bad in (9, 0, "60", 1.5, True):
        with pytest.raises(Exception) as refused:
            RULES.validate_options({"max_hands": bad})
        assert "max_hands" in str(refused.value)


def test_a_state_stored_without_the_option_plays_with_no_limit() -> None:
    state = RULES.new_game(2, {"max_hands": 10}, "stored-before")
    stored = RULES.to_json(state)
    del stored["options"]["max_hands"]
    state = RULES.from_json(stored)
    while (seat := RULES.to_act(state)) is not None and state["hand_no"] <= 12:
        state, _ = RULES.apply(state, seat, steering(state, seat))
    assert RULES.outcome(state) is None


# --- the view's deal events -------------------------------------------------------------------------


def test_after_a_second_deal_the_view_shows_that_deal_and_keeps_the_opening_apart() -> None:
    state, events = play_steered(3, {}, "second-deal", hands=1)
    assert state["hand_no"] == 2
    deal = [event for event in events if event["type"] == "deal"][-1]
    assert deal["hand_no"] == 2
    for viewer in (0, 1, 2, None):
        view = RULES.view(state, viewer)
        assert view["deal_events"] == RULES.view_events([deal], viewer)
        shown = view["deal_events"][0]
        assert [hand is not None for hand in shown["hands"]] == [seat == viewer for seat in range(3)]
        if viewer is not None:
            assert shown["hands"][viewer] == deal["hands"][viewer]
        assert view["opening_events"] == RULES.view_events(state["deal_events"], viewer)
        assert view["opening_events"][0]["hand_no"] == 1


def test_the_latest_deal_survives_storage_and_a_second_edition_state_keeps_its_old_view() -> None:
    state, _ = play_steered(2, {}, "stored-deal", hands=2)
    assert RULES.from_json(RULES.to_json(state))["latest_deal_events"][0]["hand_no"] == 3
    old = RULES.new_game(2, {}, "second-edition", edition=2)
    assert "latest_deal_events" not in old
    assert RULES.view(old, 0)["deal_events"] == RULES.view(old, 0)["opening_events"]


def test_a_game_that_ends_on_its_deal_keeps_that_deals_31_and_end_as_its_latest_deal(stack) -> None:
    hands = {0: ["2S", "3H", "5D"], 1: ["AS", "KS", "QS"]}
    state = start(stack, hands, up="4C", initial_tokens=1, on_the_county=False)
    assert RULES.outcome(state)["reason"] == "last_player"
    types = ["deal", "thirty_one", "life_lost", "eliminated", "game_over"]
    assert [event["type"] for event in state["latest_deal_events"]] == types
    seen = RULES.view(state, 0)["deal_events"]
    assert seen[0]["hands"] == [["2S", "3H", "5D"], None] and seen[1]["cards"] == ["AS", "KS", "QS"]
