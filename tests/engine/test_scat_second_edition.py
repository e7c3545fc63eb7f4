"""Scat, second edition of the rules: the showdown table A8 in every combination of its options, the
round limit A10b, shapes and values A10c, the opening events, and the loose ends (seats, copies,
shapes of a stored state)."""

from __future__ import annotations

import itertools
import json

import pytest

from games.engine import IllegalAction
from games.engine.scat import RULES, hand_value

from .test_scat import KNOCKER_AND_ONE_TIED, THREE_TIED, keep_hand, of_type, play, stack, start

__all__ = ["stack"]  # the fixture, used by name

SCENARIOS = {
    # seat 0 knocks; the hands' values in the comments
    "knocker alone lowest": {0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"], 2: ["KC", "QC", "4H"]},  # 10, 15, 20
    "knocker tied with one other": KNOCKER_AND_ONE_TIED,  # 15, 15, 20
    "everybody tied": THREE_TIED,  # 15, 15, 15
    "another player lowest": {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["KC", "QC", "4H"]},  # 20, 15, 20
}
TIE_RULES = ("knocker_safe", "knocker_loses_two_others_one", "all_tied_lose_one")


def lives_by_the_table(scenario: str, tie_rule: str, sole_loss: int) -> list[int]:
    """Rules A8, read straight from its table: the lives each seat loses."""
    if scenario == "knocker alone lowest":
        return [sole_loss, 0, 0]
    if scenario == "another player lowest":
        return [0, 1, 0]
    others = [1, 0] if scenario == "knocker tied with one other" else [1, 1]
    if tie_rule == "knocker_safe":
        return [0, *others]
    if tie_rule == "knocker_loses_two_others_one":
        return [2, *others]
    if scenario == "everybody tied":
        return [0, 0, 0]  # all_tied_lose_one: S is every remaining player, so nobody loses
    return [1, *others]


def after_losing(tokens: int, lives: int, county: bool) -> tuple[int, bool]:
    """Rules A9: (tokens left, out of the game) after losing `lives` one at a time."""
    out = False
    for _ in range(lives):
        if county and tokens == 0:
            out = True
            break
        tokens -= 1
        if not county and tokens == 0:
            out = True
            break
    return tokens, out


COMBINATIONS = [
    (scenario, rule, sole, tokens, county)
    for scenario, rule, sole, tokens, county in itertools.product(
        SCENARIOS, TIE_RULES, (1, 2), (2, 1, 0), (True, False)
    )
    if county or tokens > 0  # without the county a player with no token is already out
]


@pytest.mark.parametrize(("scenario", "tie_rule", "sole_loss", "tokens", "county"), COMBINATIONS)
def test_every_showdown_case_costs_the_lives_table_a8_and_a9_say(stack, scenario, tie_rule, sole_loss, tokens, county):
    hands = SCENARIOS[scenario]
    options = {"knocker_tie_rule": tie_rule, "knocker_sole_lowest_loss": sole_loss, "on_the_county": county}
    state = start(stack, hands, up="2D", stock=["3H", "4S"], **options)
    state = {**state, "tokens": [tokens, 3, 3], "kitty": 3 - tokens}
    state, events = play(state, (0, "knock"), *keep_hand(1, "3H"), *keep_hand(2, "4S"))

    lost = lives_by_the_table(scenario, tie_rule, sole_loss)
    assert of_type(events, "showdown")[0]["lives_lost"] == lost
    knocker_tokens, knocker_out = after_losing(tokens, lost[0], county)
    assert state["eliminated"][0] is knocker_out
    if not knocker_out:
        assert state["tokens"][0] == knocker_tokens
    assert ({"type": "eliminated", "seat": 0, "reason": "lives"} in events) is knocker_out
    for seat in (1, 2):
        assert state["tokens"][seat] == 3 - lost[seat]


# --- the round limit (A10b) -------------------------------------------------------------------


def rounds_without_a_knock(state, rounds: int):
    """Every player draws from the stock and throws the drawn card away, `rounds` times."""
    events = []
    for _ in range(rounds * 2):
        seat = RULES.to_act(state)
        state, drawn = RULES.apply(state, seat, {"type": "draw_stock"})
        state, more = RULES.apply(state, seat, {"type": "discard", "card": drawn[-1]["card"]})
        events += drawn + more
    return state, events


def test_a_hand_nobody_knocks_in_ends_in_a_showdown_after_the_round_limit(stack):
    state = start(stack, {0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"]}, up="2D", max_rounds_per_hand=5)
    state, events = rounds_without_a_knock(state, 4)
    assert not of_type(events, "showdown")
    state, events = rounds_without_a_knock(state, 1)
    showdown = of_type(events, "showdown")[0]
    assert showdown["reason"] == "round_limit" and showdown["knocker"] is None
    assert state["last_showdown"]["kind"] == "round_limit"
    assert showdown["lives_lost"] == [1, 0]  # the lowest hand loses a life, as if nobody had knocked
    assert state["hand_no"] == 2


def test_at_the_round_limit_a_table_of_equal_hands_loses_nothing_and_the_deal_passes(stack):
    state = start(stack, {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"]}, up="2D", max_rounds_per_hand=5)
    state, events = rounds_without_a_knock(state, 5)
    assert of_type(events, "showdown")[0]["lives_lost"] == [0, 0]
    assert state["tokens"] == [3, 3] and state["hand_no"] == 2 and state["dealer"] == 0


def test_without_a_round_limit_a_hand_goes_on(stack):
    state = start(stack, {0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"]}, up="2D", max_rounds_per_hand=None)
    state, events = rounds_without_a_knock(state, 40)
    assert not of_type(events, "showdown") and state["hand_no"] == 1


def test_the_round_limit_is_at_least_five_rounds():
    with pytest.raises(IllegalAction):
        RULES.validate_options({"max_rounds_per_hand": 4})


# --- shapes and values (A10c) -----------------------------------------------------------------


@pytest.mark.parametrize("cards", [["AS", "KS"], ["AS", "KS", "QS", "JS"], ["AS", "AS", "KS"], "AS KS QS", []])
def test_hand_value_takes_three_different_cards_only(cards):
    with pytest.raises(IllegalAction) as refused:
        hand_value(cards)
    assert refused.value.code == "bad_hand"


def test_holding_four_cards_the_view_shows_the_best_hand_that_can_be_kept(stack):
    state = start(stack, {0: ["AS", "KS", "2H"], 1: ["TD", "5D", "3C"]}, up="QS", stock=["9C"])
    state, _ = RULES.apply(state, 0, {"type": "draw_stock"})
    assert RULES.view(state, 0)["hand_value"] == 21  # AS KS, whatever the third card
    state = start(stack, {0: ["AS", "KS", "2H"], 1: ["TD", "5D", "3C"]}, up="QS")
    state, _ = RULES.apply(state, 0, {"type": "draw_discard"})
    assert RULES.view(state, 0)["hand_value"] == 31  # discard the 2H: a 31 (never 41)


def test_the_taken_card_cannot_be_counted_out_of_the_kept_hand(stack):
    state = start(stack, {0: ["2H", "3C", "4D"], 1: ["TD", "5D", "3S"]}, up="AH")
    state, _ = RULES.apply(state, 0, {"type": "draw_discard"})
    # Keeping AH (it may not go back) and the best other card: AH 2H = 13.
    assert RULES.view(state, 0)["hand_value"] == 13


def test_a_hand_ending_on_the_deal_keeps_its_events_as_the_opening_events(stack):
    state = start(stack, {0: ["2S", "3H", "5D"], 1: ["AS", "KS", "QS"]}, up="4C")
    types = [event["type"] for event in state["deal_events"]]
    assert types == ["deal", "thirty_one", "life_lost", "deal"]
    seen = RULES.view(state, 0)["opening_events"]
    assert seen[0]["hands"] == [["2S", "3H", "5D"], None] and seen[1]["cards"] == ["AS", "KS", "QS"]
    assert seen[-1]["hands"][1] is None  # the second deal shows seat 0 its own hand only
    # The view's deal events are the hand in play's: the second deal.
    assert RULES.view(state, 0)["deal_events"] == [seen[-1]] and seen[-1]["hand_no"] == 2


def test_a_first_edition_game_keeps_only_the_latest_deal(stack):
    state = start(stack, {0: ["2S", "3H", "5D"], 1: ["AS", "KS", "QS"]}, up="4C")
    old = RULES.new_game(2, state["options"], "scenario", edition=1)
    assert "edition" not in old
    assert [event["type"] for event in old["deal_events"]] == ["deal"]


def test_an_unknown_edition_is_refused():
    with pytest.raises(IllegalAction) as refused:
        RULES.new_game(2, None, "x", edition=4)
    assert refused.value.code == "bad_edition"


# --- seats, copies and shapes -----------------------------------------------------------------


@pytest.mark.parametrize("seat", [1.0, True, "1", -1, 2, None])
def test_a_seat_must_be_a_seat_number_of_the_game(seat):
    state = RULES.new_game(2, None, "seats")
    calls = [lambda: RULES.legal_actions(state, seat), lambda: RULES.apply(state, seat, {"type": "knock"})]
    calls.append(lambda: RULES.resign(state, seat))
    if seat is not None:
        calls.append(lambda: RULES.view(state, seat))
    for call in calls:
        with pytest.raises(IllegalAction) as refused:
            call()
        assert refused.value.code == "not_seated"


def test_to_json_from_json_and_outcome_are_copies():
    state = RULES.new_game(2, None, "copies")
    stored = RULES.to_json(state)
    thrown = stored["hands"][0].pop()
    stored["options"]["initial_tokens"] = 99
    assert thrown in state["hands"][0] and state["options"]["initial_tokens"] == 3
    loaded = RULES.from_json(stored)
    loaded["tokens"][0] = 0
    assert stored["tokens"][0] == 3
    state, _ = RULES.resign(state, 0)
    outcome = RULES.outcome(state)
    outcome["winners"].append(0)
    assert RULES.outcome(state)["winners"] == [1]


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s.pop("stock"), "'stock'"),
        (lambda s: s.update(tokens={"0": 3}), "'tokens'"),
        (lambda s: s.update(active="0"), "'active'"),
        (lambda s: s.update(kitty=1.5), "'kitty'"),
        (lambda s: s["hands"].append([]), "'hands'"),
        (lambda s: s.update(kind="scattle"), "Scat"),
    ],
)
def test_from_json_refuses_a_malformed_state_naming_what_is_wrong(change, named):
    data = json.loads(json.dumps(RULES.new_game(2, None, "shape")))
    change(data)
    with pytest.raises(IllegalAction) as refused:
        RULES.from_json(data)
    assert refused.value.code == "bad_state"
    assert named in refused.value.message


def test_from_json_refuses_what_is_no_state_at_all():
    for data in (None, [], "scat", 7):
        with pytest.raises(IllegalAction):
            RULES.from_json(data)
