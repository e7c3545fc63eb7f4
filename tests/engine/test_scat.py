"""Scat scenarios: the worked examples and every case of checklist A11 in shared/rules/scat.md.

Most scenarios stack the deck: `stack` makes the next deal come out exactly as written (the
engine still deals it, one card at a time from left of the dealer), so every test runs through
the real deal, turn and showdown code.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engine import get_rules
from games.engine import scat as scat_module
from games.engine.base import shuffled
from games.engine.cards import DECK
from games.engine.errors import BadOption, IllegalAction
from games.engine.scat import RULES, hand_value, is_thirty_one

State = dict[str, Any]


# --- helpers ---------------------------------------------------------------------------------


def stacked_deck(num_seats: int, dealer: int, hands: dict[int, list[str]], up: str, stock: list[str]) -> list[str]:
    """A shuffled deck whose deal gives `hands`, turns up `up`, and leaves `stock` on top (first drawn first)."""
    order = [(dealer + step) % num_seats for step in range(1, num_seats + 1) if (dealer + step) % num_seats in hands]
    sequence = [hands[seat][i] for i in range(3) for seat in order] + [up] + list(stock)
    assert len(set(sequence)) == len(sequence), "a card is stacked twice"
    rest = [card for card in DECK if card not in sequence]
    return list(reversed(sequence + rest))  # the deal takes cards from the end of the list


@pytest.fixture
def stack(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Queue of decks for the next deals; rebuilds and later deals shuffle as usual."""
    queue: list[list[str]] = []
    real = scat_module.shuffled

    def next_deck(cards: list[str], seed: int | str, counter: int) -> list[str]:
        if len(cards) == 52 and queue:
            return list(queue.pop(0))
        return real(cards, seed, counter)

    monkeypatch.setattr(scat_module, "shuffled", next_deck)
    return queue


def start(
    stack: list[list[str]],
    hands: dict[int, list[str]],
    up: str,
    stock: tuple[str, ...] = (),
    dealer: int | None = None,
    **options: Any,
) -> State:
    num_seats = len(hands)
    if dealer is None:
        dealer = num_seats - 1  # so seat 0 plays first
    stack.append(stacked_deck(num_seats, dealer, hands, up, list(stock)))
    return RULES.new_game(num_seats, {"first_dealer": dealer, **options}, "scenario")


def play(state: State, *moves: tuple) -> tuple[State, list[dict]]:
    """Apply moves like (0, "draw_stock") or (1, "discard", "7S"); return the state and every event."""
    events: list[dict] = []
    for seat, kind, *card in moves:
        action = {"type": kind, "card": card[0]} if card else {"type": kind}
        state, new_events = RULES.apply(state, seat, action)
        events += new_events
    return state, events


def keep_hand(seat: int, drawn: str) -> tuple[tuple, tuple]:
    """A final turn that changes nothing: draw from the stock, discard what was drawn."""
    return (seat, "draw_stock"), (seat, "discard", drawn)


def of_type(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def rig(state: State, **changes: Any) -> State:
    """A crafted position; the 52 cards must still each be in exactly one place."""
    new = {**state, **changes}
    places = [c for h in new["hands"] for c in h] + new["stock"] + new["discard"] + new["out_of_play"]
    assert Counter(places) == Counter(DECK)
    return new


def illegal(state: State, seat: int, action: dict) -> IllegalAction:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalAction) as caught:
        RULES.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return caught.value


# --- hand values (A3) ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "options", "value"),
    [
        (["KS", "TS", "4H"], None, 20),
        (["QS", "9D", "8D"], None, 17),
        (["AC", "6S", "4S"], None, 11),
        (["JC", "7H", "4S"], None, 10),
        (["AH", "KH", "QH"], None, 31),
        (["7S", "7H", "7D"], None, 7),
        (["7S", "7H", "7D"], {"three_of_a_kind_value": 30}, 30),
        (["7S", "7H", "7D"], {"three_of_a_kind_value": 30.5}, 30.5),
        (["AS", "AH", "AD"], {"three_of_a_kind_value": 30}, 30),
        (["AS", "AH", "AD"], None, 11),
        (["2H", "3H", "4H"], None, 9),
        (["2H", "3H", "4H"], {"straight_flush_value": 30}, 30),
        (["KD", "QD", "JD"], {"straight_flush_value": 30}, 30),
        (["AH", "KH", "QH"], {"straight_flush_value": 30}, 31),
        (["AC", "2C", "3C"], {"straight_flush_value": 30}, 16),
        (["AC", "2C", "3C"], {"straight_flush_value": 30, "straight_flush_ace_low": True}, 30),
        (["KC", "AC", "2C"], {"straight_flush_value": 30, "straight_flush_ace_low": True}, 23),
        (["2H", "3H", "5H"], {"straight_flush_value": 30}, 10),
    ],
)
def test_hand_value_is_the_best_single_suit_total_with_the_variants_the_options_turn_on(cards, options, value):
    assert hand_value(cards, options) == value


def test_hand_value_accepts_lower_case_and_ten_written_as_10():
    assert hand_value(["ks", "10s", "4h"]) == 20


def test_a_thirty_one_is_an_ace_and_two_ten_value_cards_of_one_suit_and_never_a_variant_value():
    assert is_thirty_one(["AH", "KH", "QH"])
    assert is_thirty_one(["TD", "AD", "JD"])
    assert not is_thirty_one(["AH", "KH", "QD"])
    assert not is_thirty_one(["AS", "AH", "AD"])
    assert hand_value(["7S", "7H", "7D"], {"three_of_a_kind_value": 30.5}) > hand_value(["KS", "QS", "TH"])


# --- options (A2) ----------------------------------------------------------------------------


def test_the_rules_object_is_the_one_get_rules_returns():
    assert get_rules("scat") is RULES
    assert (RULES.kind, RULES.min_seats, RULES.max_seats) == ("scat", 2, 9)


def test_option_specs_list_every_option_of_table_a2_in_order_with_its_default():
    names = [spec["name"] for spec in RULES.option_specs()]
    assert names == [
        "min_players", "max_players", "initial_tokens", "on_the_county", "knocker_sole_lowest_loss",
        "knocker_tie_rule", "thirty_one_knocker_loss", "three_of_a_kind_value", "straight_flush_value",
        "straight_flush_ace_low", "min_knock_score", "knock_allowed_first_round", "allow_stand_after_knock",
        "throw_down", "stock_exhausted", "stock_rebuild_order", "first_dealer", "max_rounds_per_hand", "max_hands",
    ]  # fmt: skip
    assert RULES.validate_options(None) == {
        "min_players": 2, "max_players": 9, "initial_tokens": 3, "on_the_county": True,
        "knocker_sole_lowest_loss": 2, "knocker_tie_rule": "knocker_safe", "thirty_one_knocker_loss": 1,
        "three_of_a_kind_value": None, "straight_flush_value": None, "straight_flush_ace_low": False,
        "min_knock_score": None, "knock_allowed_first_round": True, "allow_stand_after_knock": False,
        "throw_down": False, "stock_exhausted": "rebuild", "stock_rebuild_order": "shuffle", "first_dealer": "random",
        "max_rounds_per_hand": 30, "max_hands": 60,
    }  # fmt: skip
    for spec in RULES.option_specs():
        assert spec["help"] and "type" in spec and "default" in spec


@pytest.mark.parametrize(
    ("options", "num_seats", "named"),
    [
        ({"colour": "red"}, None, "colour"),
        ({"initial_tokens": 0}, None, "initial_tokens"),
        ({"initial_tokens": "3"}, None, "initial_tokens"),
        ({"initial_tokens": True}, None, "initial_tokens"),
        ({"on_the_county": 1}, None, "on_the_county"),
        ({"knocker_sole_lowest_loss": 3}, None, "knocker_sole_lowest_loss"),
        ({"knocker_sole_lowest_loss": True}, None, "knocker_sole_lowest_loss"),
        ({"knocker_tie_rule": "knocker_dies"}, None, "knocker_tie_rule"),
        ({"thirty_one_knocker_loss": 0}, None, "thirty_one_knocker_loss"),
        ({"three_of_a_kind_value": 31}, None, "three_of_a_kind_value"),
        ({"straight_flush_value": 30.5}, None, "straight_flush_value"),
        ({"min_knock_score": 40}, None, "min_knock_score"),
        ({"stock_exhausted": "panic"}, None, "stock_exhausted"),
        ({"stock_rebuild_order": "riffle"}, None, "stock_rebuild_order"),
        ({"first_dealer": "left"}, None, "first_dealer"),
        ({"first_dealer": 3}, 3, "first_dealer"),
        ({"first_dealer": -1}, None, "first_dealer"),
        ({"min_players": 1}, None, "min_players"),
        ({"max_players": 10}, None, "max_players"),
        ({"min_players": 5, "max_players": 4}, None, "min_players"),
        ({"min_players": 4}, 3, "min_players"),
        ({"max_players": 4}, 5, "max_players"),
    ],
)
def test_a_bad_or_unknown_option_is_refused_with_a_message_naming_it(options, num_seats, named):
    with pytest.raises(BadOption) as caught:
        RULES.validate_options(options, num_seats)
    assert caught.value.code == "bad_option"
    assert named in caught.value.message


@pytest.mark.parametrize("num_seats", [0, 1, 10, "3", None])
def test_a_game_needs_two_to_nine_seats(num_seats):
    with pytest.raises(BadOption):
        RULES.new_game(num_seats, None, 1)


def test_good_option_values_are_kept_and_the_rest_filled_with_defaults():
    options = RULES.validate_options({"three_of_a_kind_value": 30.5, "first_dealer": 2, "min_knock_score": 17}, 4)
    assert options["three_of_a_kind_value"] == 30.5
    assert options["first_dealer"] == 2
    assert options["min_knock_score"] == 17
    assert options["initial_tokens"] == 3


# --- the deal (A4, A5) -----------------------------------------------------------------------


def test_the_deal_gives_one_card_at_a_time_from_left_of_the_dealer_off_the_end_of_the_shuffled_deck():
    state = RULES.new_game(4, {"first_dealer": 2}, "deal-order")
    deck = shuffled(list(DECK), "deal-order", 1)
    # Seat 3 (left of the dealer) gets the 1st, 5th and 9th cards off the end; seat 2 the 4th, 8th, 12th.
    assert state["hands"][3] == [deck[-1], deck[-5], deck[-9]]
    assert state["hands"][2] == [deck[-4], deck[-8], deck[-12]]
    assert state["discard"] == [deck[-13]]
    assert state["stock"] == deck[:-13]
    assert RULES.to_act(state) == 3


def test_a_random_first_dealer_comes_from_the_seed():
    dealers = {RULES.new_game(5, None, f"seed-{i}")["dealer"] for i in range(40)}
    assert dealers == set(range(5))
    assert RULES.new_game(5, None, "same")["dealer"] == RULES.new_game(5, None, "same")["dealer"]


def test_every_player_gets_three_cards_and_one_card_is_turned_up(stack):
    state = start(stack, {0: ["2S", "3S", "4S"], 1: ["2H", "3H", "4H"], 2: ["2D", "3D", "4D"]}, up="9C")
    assert state["hands"] == [["2S", "3S", "4S"], ["2H", "3H", "4H"], ["2D", "3D", "4D"]]
    assert state["discard"] == ["9C"]
    assert len(state["stock"]) == 52 - 10
    assert state["phase"] == "turn_start"


def test_thirty_ones_on_the_deal_by_several_players_cost_everybody_else_a_life_without_play(stack):
    state = start(
        stack,
        {0: ["2S", "3H", "5D"], 1: ["AS", "KS", "QS"], 2: ["AH", "KH", "TH"], 3: ["9C", "8C", "2D"]},
        up="4C",
    )
    events = state["deal_events"]  # the opening deal ended at once; a second deal followed
    assert [e["type"] for e in events] == [
        "deal", "thirty_one", "thirty_one", "life_lost", "life_lost", "deal"
    ]  # fmt: skip
    assert state["hand_no"] == 2
    assert state["tokens"] == [2, 3, 3, 2]
    assert state["kitty"] == 2
    assert state["last_showdown"]["kind"] == "thirty_one_on_deal"
    assert state["last_showdown"]["hands"] == [None, ["AS", "KS", "QS"], ["AH", "KH", "TH"], None]
    assert state["last_showdown"]["lives_lost"] == [1, 0, 0, 1]
    assert state["dealer"] == 0  # the deal passed clockwise from seat 3
    assert (events[0]["dealer"], events[-1]["dealer"]) == (3, 0)


def test_the_events_of_a_thirty_one_on_the_deal_come_from_new_game_view_and_show_the_hands(stack):
    state = start(stack, {0: ["2S", "3H", "5D"], 1: ["AS", "KS", "QS"]}, up="4C")
    shown = RULES.view(state, 0)["last_showdown"]
    assert shown["hands"] == [None, ["AS", "KS", "QS"]]
    assert shown["values"] == [None, 31]
    assert state["tokens"] == [2, 3]


# --- turns (A7) ------------------------------------------------------------------------------


def test_a_card_taken_from_the_discard_pile_may_not_be_discarded_the_same_turn(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "9D", "3C"]}, up="5C", stock=["8H"])
    state, events = play(state, (0, "draw_discard"))
    assert events == [{"type": "draw_discard", "seat": 0, "card": "5C"}]
    error = illegal(state, 0, {"type": "discard", "card": "5C"})
    assert error.code == "illegal_action"
    assert error.message == "You took 5C from the discard pile this turn; discard another card."
    assert {"type": "discard", "card": "5C"} not in RULES.legal_actions(state, 0)


def test_a_card_drawn_from_the_stock_may_be_discarded_the_same_turn(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "9D", "3C"]}, up="5C", stock=["8H"])
    state, _ = play(state, (0, "draw_stock"), (0, "discard", "8H"))
    assert state["hands"][0] == ["KS", "QS", "2H"]
    assert state["discard"] == ["5C", "8H"]
    assert RULES.to_act(state) == 1


def test_in_a_two_player_hand_a_player_may_take_back_his_own_discard_after_the_opponent_knocks(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "9D", "3C"]}, up="5C", stock=["8H"])
    state, _ = play(state, (0, "draw_stock"), (0, "discard", "8H"), (1, "knock"))
    assert {"type": "draw_discard"} in RULES.legal_actions(state, 0)
    state, events = play(state, (0, "draw_discard"), (0, "discard", "2H"))
    showdown = of_type(events, "showdown")[0]
    assert showdown["values"] == [20, 19]
    assert showdown["lives_lost"] == [0, 2]  # the knocker alone with the lowest hand loses two
    assert state["tokens"][1] == 1


def test_the_player_who_drew_must_discard_before_anything_else(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "9D", "3C"]}, up="5C", stock=["8H"])
    state, _ = play(state, (0, "draw_stock"))
    assert RULES.legal_actions(state, 0) == [{"type": "discard", "card": c} for c in ["KS", "QS", "2H", "8H"]]
    for kind in ("draw_stock", "draw_discard", "knock"):
        error = illegal(state, 0, {"type": kind})
        assert error.code == "wrong_phase"
        assert error.message == "You have drawn 8H this turn; now discard a card."


def test_knocking_ends_the_turn_at_once_and_every_other_player_gets_exactly_one_more_turn(stack):
    state = start(
        stack,
        {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "8C", "4H"]},
        up="2D",
        stock=["3H", "4S"],
    )
    state, events = play(state, (0, "knock"))
    assert events == [{"type": "knock", "seat": 0}]
    assert state["hands"][0] == ["KS", "QS", "2H"]
    assert RULES.to_act(state) == 1
    assert {"type": "knock"} not in RULES.legal_actions(state, 1)  # only one knock per hand
    assert illegal(state, 1, {"type": "knock"}).code == "illegal_action"
    state, events = play(state, *keep_hand(1, "3H"))
    assert RULES.to_act(state) == 2
    state, events = play(state, *keep_hand(2, "4S"))
    showdown = of_type(events, "showdown")[0]
    assert showdown["knocker"] == 0
    assert showdown["values"] == [20, 15, 17]
    assert showdown["lives_lost"] == [0, 1, 0]
    assert state["hand_no"] == 2


def test_a_first_round_knock_is_illegal_until_every_player_has_had_a_turn_when_the_option_forbids_it(stack):
    state = start(
        stack,
        {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "8C", "4H"]},
        up="2D",
        stock=["3H", "4S", "5S"],
        knock_allowed_first_round=False,
    )
    error = illegal(state, 0, {"type": "knock"})
    assert error.message == "Nobody may knock before every player has had a turn this hand."
    assert {"type": "knock"} not in RULES.legal_actions(state, 0)
    state, _ = play(state, *keep_hand(0, "3H"))
    assert illegal(state, 1, {"type": "knock"}).code == "illegal_action"
    state, _ = play(state, *keep_hand(1, "4S"), *keep_hand(2, "5S"))
    assert {"type": "knock"} in RULES.legal_actions(state, 0)
    state, _ = play(state, (0, "knock"))
    assert state["knocker"] == 0


def test_a_first_round_knock_is_legal_by_default(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"]}, up="2D")
    assert {"type": "knock"} in RULES.legal_actions(state, 0)


def test_a_minimum_knock_score_forbids_knocking_with_a_weaker_hand(stack):
    state = start(stack, {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"]}, up="2D", min_knock_score=17)
    error = illegal(state, 0, {"type": "knock"})
    assert error.message == "Your hand is worth 15; you need at least 17 to knock."
    assert RULES.legal_actions(state, 0) == [{"type": "draw_stock"}, {"type": "draw_discard"}]


def test_standing_keeps_the_hand_on_a_final_turn_when_the_option_allows_it(stack):
    state = start(
        stack,
        {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "8C", "4H"]},
        up="2D",
        allow_stand_after_knock=True,
    )
    assert {"type": "stand"} not in RULES.legal_actions(state, 0)
    assert illegal(state, 0, {"type": "stand"}).message == "You may stand only after someone has knocked."
    state, _ = play(state, (0, "knock"))
    assert {"type": "stand"} in RULES.legal_actions(state, 1)
    state, events = play(state, (1, "stand"), (2, "stand"))
    assert [e["type"] for e in events[:3]] == ["stand", "stand", "showdown"]
    assert of_type(events, "showdown")[0]["lives_lost"] == [0, 1, 0]


def test_standing_is_illegal_without_the_option(stack):
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"]}, up="2D")
    state, _ = play(state, (0, "knock"))
    assert illegal(state, 1, {"type": "stand"}).code == "illegal_action"


def test_a_throw_down_is_an_immediate_showdown_with_the_thrower_as_knocker(stack):
    state = start(
        stack,
        {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "8C", "4H"]},
        up="2D",
        throw_down=True,
    )
    assert {"type": "throw_down"} in RULES.legal_actions(state, 0)
    state, events = play(state, (0, "throw_down"))
    assert [e["type"] for e in events[:2]] == ["throw_down", "showdown"]
    showdown = events[1]
    assert showdown["thrown_down"] is True
    assert showdown["values"] == [15, 15, 17]
    assert showdown["lives_lost"] == [0, 1, 0]  # thrower tied for lowest: safe, like a knocker


def test_throwing_down_is_illegal_without_the_option(stack):
    state = start(stack, {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"]}, up="2D")
    assert illegal(state, 0, {"type": "throw_down"}).code == "illegal_action"


# --- 31 during play --------------------------------------------------------------------------


@pytest.mark.parametrize(("knocker_loss", "tokens"), [(1, [2, 2, 3]), (2, [1, 2, 3])])
def test_a_thirty_one_by_the_last_player_before_the_knocker_ends_the_hand_before_the_showdown(
    stack, knocker_loss, tokens
):
    state = start(
        stack,
        {0: ["KS", "QS", "2H"], 1: ["5D", "6C", "8H"], 2: ["AH", "KH", "3C"]},
        up="4C",
        stock=["9C", "QH"],
        thirty_one_knocker_loss=knocker_loss,
    )
    state, events = play(state, (0, "knock"), (1, "draw_stock"), (1, "discard", "5D"))
    state, events = play(state, (2, "draw_stock"), (2, "discard", "3C"))
    thirty_one = of_type(events, "thirty_one")[0]
    assert thirty_one == {
        "type": "thirty_one",
        "seat": 2,
        "cards": ["AH", "KH", "QH"],
        "on_deal": False,
        "lives_lost": [knocker_loss, 1, 0],
    }
    assert not of_type(events, "showdown")
    assert state["tokens"] == tokens
    assert state["last_showdown"]["hands"] == [None, None, ["AH", "KH", "QH"]]
    assert state["hand_no"] == 2 and state["dealer"] == 0


def test_a_thirty_one_by_the_player_right_after_the_knocker_ends_the_hand_at_once(stack):
    state = start(
        stack,
        {0: ["KS", "QS", "2H"], 1: ["AD", "KD", "2C"], 2: ["9C", "8C", "4H"]},
        up="QD",
    )
    state, events = play(state, (0, "knock"), (1, "draw_discard"), (1, "discard", "2C"))
    assert of_type(events, "thirty_one")[0]["seat"] == 1
    assert [(e["seat"], e["lives"]) for e in of_type(events, "life_lost")] == [(0, 1), (2, 1)]
    assert state["tokens"] == [2, 3, 2]


def test_a_thirty_one_without_a_knock_costs_every_other_player_one_life(stack):
    state = start(stack, {0: ["AD", "KD", "2C"], 1: ["9C", "8C", "4H"], 2: ["KS", "QS", "2H"]}, up="JD")
    state, _ = play(state, (0, "draw_discard"), (0, "discard", "2C"))
    assert state["tokens"] == [3, 2, 2]
    assert state["kitty"] == 2


# --- showdowns and ties (A8) -----------------------------------------------------------------

THREE_TIED = {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "6C", "4H"]}  # 15, 15, 15
KNOCKER_AND_ONE_TIED = {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"], 2: ["KC", "QC", "4H"]}  # 15, 15, 20


def showdown_after_knock(stack: list, hands: dict, **options: Any) -> tuple[State, dict]:
    """Seat 0 knocks; everybody else draws a card from the stock and throws it away again."""
    drawn = ["3H", "4S", "5S", "6H", "7H", "8S", "7D", "8D"][: len(hands) - 1]
    state = start(stack, hands, up="2D", stock=drawn, **options)
    moves = [(0, "knock")] + [move for seat, card in enumerate(drawn, 1) for move in keep_hand(seat, card)]
    state, events = play(state, *moves)
    return state, of_type(events, "showdown")[0]


@pytest.mark.parametrize(
    ("hands", "tie_rule", "lives_lost"),
    [
        (KNOCKER_AND_ONE_TIED, "knocker_safe", [0, 1, 0]),
        (KNOCKER_AND_ONE_TIED, "knocker_loses_two_others_one", [2, 1, 0]),
        (KNOCKER_AND_ONE_TIED, "all_tied_lose_one", [1, 1, 0]),
        ({**THREE_TIED, 3: ["KH", "QH", "5C"]}, "knocker_safe", [0, 1, 1, 0]),
        ({**THREE_TIED, 3: ["KH", "QH", "5C"]}, "knocker_loses_two_others_one", [2, 1, 1, 0]),
        (THREE_TIED, "knocker_safe", [0, 1, 1]),
        (THREE_TIED, "knocker_loses_two_others_one", [2, 1, 1]),
        (THREE_TIED, "all_tied_lose_one", [0, 0, 0]),
        ({0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "6C", "4H"]}, "knocker_safe", [0, 1, 1]),
        ({0: ["KS", "QS", "2H"], 1: ["TD", "5D", "3C"], 2: ["9C", "6C", "4H"]}, "all_tied_lose_one", [0, 1, 1]),
        ({0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"], 2: ["9C", "6C", "4H"]}, "knocker_safe", [2, 0, 0]),
        ({0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"], 2: ["9C", "6C", "4H"]}, "all_tied_lose_one", [2, 0, 0]),
    ],
    ids=[
        "knocker tied with one other, knocker safe",
        "knocker tied with one other, knocker loses two others one",
        "knocker tied with one other, all tied lose one",
        "knocker tied with two others, knocker safe",
        "knocker tied with two others, knocker loses two others one",
        "all players tied, knocker safe",
        "all players tied, knocker loses two others one",
        "all players tied, all tied lose one",
        "two non-knockers tied lowest both lose one",
        "two non-knockers tied lowest both lose one under every tie rule",
        "knocker alone lowest loses two",
        "knocker alone lowest loses two under every tie rule",
    ],
)
def test_the_lowest_hands_lose_lives_as_the_tie_rule_says(stack, hands, tie_rule, lives_lost):
    state, showdown = showdown_after_knock(stack, hands, knocker_tie_rule=tie_rule)
    assert showdown["lives_lost"] == lives_lost
    assert state["tokens"] == [3 - lost for lost in lives_lost]
    assert state["last_showdown"]["lives_lost"] == lives_lost
    assert state["last_showdown"]["hands"] == [hands[s] for s in range(len(hands))]


SOLE_LOWEST_KNOCKER = {0: ["8S", "2S", "7C"], 1: ["TD", "5D", "3C"], 2: ["KC", "QC", "4H"]}  # 10, 15, 20


@pytest.mark.parametrize(
    ("options", "knocker_out", "knocker_tokens"),
    [
        ({"on_the_county": True}, True, 0),
        ({"on_the_county": False}, True, 0),
        ({"on_the_county": True, "knocker_sole_lowest_loss": 1}, False, 0),
        ({"on_the_county": False, "knocker_sole_lowest_loss": 1}, True, 0),
    ],
    ids=[
        "loses two: to zero, then out from the county",
        "loses two: out at zero tokens",
        "loses one: on the county",
        "loses one: out at zero tokens",
    ],
)
def test_a_knocker_alone_lowest_with_one_token_goes_to_zero_then_on_the_county_or_out(
    stack, options, knocker_out, knocker_tokens
):
    state, _ = showdown_after_knock(stack, SOLE_LOWEST_KNOCKER, initial_tokens=1, **options)
    assert state["eliminated"][0] is knocker_out
    assert state["tokens"][0] == knocker_tokens
    assert state["kitty"] == 1
    player = RULES.view(state, 1)["players"][0]
    assert player["on_the_county"] is (not knocker_out)
    assert player["in_game"] is (not knocker_out)


def test_a_knocker_on_the_county_who_is_alone_lowest_is_out(stack):
    state = start(stack, SOLE_LOWEST_KNOCKER, up="2D", stock=["3S", "4S"])
    state = {**state, "tokens": [0, 3, 3], "kitty": 3}
    assert RULES.view(state, 2)["players"][0]["on_the_county"] is True
    state, events = play(state, (0, "knock"), *keep_hand(1, "3S"), *keep_hand(2, "4S"))
    assert {"type": "eliminated", "seat": 0, "reason": "lives"} in events
    assert state["eliminated"] == [True, False, False]
    assert state["dealer"] == 1  # the deal passes on from seat 2, skipping nobody
    assert state["hands"][0] == []  # an eliminated player gets no cards


def test_players_on_the_county_keep_playing_and_a_player_without_tokens_is_out_when_the_county_is_off(stack):
    state, _ = showdown_after_knock(stack, KNOCKER_AND_ONE_TIED, initial_tokens=1, on_the_county=False)
    assert state["eliminated"] == [False, True, False]
    state, _ = showdown_after_knock(stack, KNOCKER_AND_ONE_TIED, initial_tokens=1)
    assert state["eliminated"] == [False, False, False]
    assert state["tokens"] == [1, 0, 1]


def test_players_out_by_the_same_showdown_share_a_place_and_the_last_player_takes_the_kitty(stack):
    state, _ = showdown_after_knock(stack, THREE_TIED, initial_tokens=1, on_the_county=False)
    outcome = RULES.outcome(state)
    assert outcome["reason"] == "last_player"
    assert outcome["places"] == [1, 2, 2]
    assert outcome["winners"] == [0]
    assert outcome["tokens"] == [3, 0, 0]
    assert RULES.to_act(state) is None
    assert RULES.legal_actions(state, 0) == []
    error = illegal(state, 0, {"type": "draw_stock"})
    assert error.code == "game_over"


def test_a_showdown_that_would_put_everybody_out_is_void_and_the_same_dealer_deals_again(stack):
    state, showdown = showdown_after_knock(
        stack,
        {0: ["9S", "6S", "2H"], 1: ["TD", "5D", "3C"]},
        initial_tokens=1,
        on_the_county=False,
        knocker_tie_rule="knocker_loses_two_others_one",
    )
    assert showdown["lives_lost"] == [0, 0]
    assert state["tokens"] == [1, 1]
    assert state["eliminated"] == [False, False]
    assert state["last_showdown"]["void"] is True
    assert state["hand_no"] == 2
    assert state["dealer"] == 1


def test_the_deal_passes_clockwise_after_each_hand(stack):
    state, _ = showdown_after_knock(stack, KNOCKER_AND_ONE_TIED)
    assert state["dealer"] == 0  # the first dealer was seat 2
    assert RULES.to_act(state) == 1


# --- the stock runs out (A10) ----------------------------------------------------------------


def empty_stock_position(stack: list, discard_size: int, **options: Any) -> State:
    """Two players, seat 0 to move, an empty stock and `discard_size` cards on the discard pile."""
    state = start(stack, {0: ["KS", "QS", "2H"], 1: ["TD", "9D", "3C"]}, up="5C", **options)
    in_hands = {"KS", "QS", "2H", "TD", "9D", "3C"}
    others = [c for c in DECK if c not in in_hands]
    return rig(state, stock=[], discard=others[:discard_size], out_of_play=others[discard_size:])


def test_with_an_empty_stock_and_one_discard_drawing_from_the_stock_is_illegal(stack):
    state = empty_stock_position(stack, 1)
    assert RULES.legal_actions(state, 0) == [{"type": "draw_discard"}, {"type": "knock"}]
    error = illegal(state, 0, {"type": "draw_stock"})
    assert error.code == "illegal_action"
    assert "stock is empty" in error.message


def test_an_empty_stock_is_rebuilt_from_the_discard_pile_under_its_top_card(stack):
    state = empty_stock_position(stack, 5)
    top = state["discard"][-1]
    state, events = play(state, (0, "draw_stock"))
    assert [e["type"] for e in events] == ["stock_rebuilt", "draw_stock"]
    assert events[0]["cards"] == 4 and events[0]["rebuilds"] == 1
    assert state["discard"] == [top]
    assert len(state["stock"]) == 3


def test_a_turned_over_discard_pile_puts_its_bottom_card_on_top_of_the_new_stock(stack):
    state = empty_stock_position(stack, 5, stock_rebuild_order="turn_over")
    pile = list(state["discard"])
    state, events = play(state, (0, "draw_stock"))
    assert events[-1]["card"] == pile[0]
    assert state["stock"] == pile[1:-1][::-1]


def test_with_void_hand_an_empty_stock_at_the_start_of_a_turn_ends_the_hand_with_no_life_lost(stack):
    state = empty_stock_position(stack, 5, stock_exhausted="void_hand")
    state, events = play(state, (0, "draw_discard"), (0, "discard", "2H"))
    assert {"type": "hand_void", "reason": "stock_exhausted"} in events
    assert state["tokens"] == [3, 3]
    assert state["hand_no"] == 2 and state["dealer"] == 0


def test_with_void_hand_and_a_knock_pending_the_last_turns_take_from_the_discard_pile(stack):
    state = empty_stock_position(stack, 5, stock_exhausted="void_hand")
    state, _ = play(state, (0, "knock"))
    assert RULES.legal_actions(state, 1) == [{"type": "draw_discard"}]
    state, events = play(state, (1, "draw_discard"), (1, "discard", "3C"))
    assert of_type(events, "showdown")


# --- resignation (C7) ------------------------------------------------------------------------


def test_a_player_may_resign_out_of_turn_and_his_tokens_go_to_the_kitty_and_his_cards_leave_play(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, events = RULES.resign(state, 2)
    assert events == [{"type": "resigned", "seat": 2}, {"type": "eliminated", "seat": 2, "reason": "resignation"}]
    assert state["eliminated"] == [False, False, True]
    assert (state["tokens"], state["kitty"]) == ([3, 3, 0], 3)
    assert state["hands"][2] == [] and sorted(state["out_of_play"]) == sorted(["KC", "QC", "4H"])
    assert RULES.to_act(state) == 0
    error = illegal(state, 2, {"type": "draw_stock"})
    assert error.code == "not_your_turn"
    with pytest.raises(IllegalAction) as caught:
        RULES.resign(state, 2)
    assert caught.value.code == "not_seated"


def test_when_the_player_to_move_resigns_play_passes_on_and_a_card_he_took_goes_back_on_the_pile(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, _ = play(state, (0, "draw_discard"))
    state, _ = RULES.resign(state, 0)
    assert state["discard"] == ["2D"]
    assert sorted(state["out_of_play"]) == sorted(["9S", "6S", "2H"])
    assert RULES.to_act(state) == 1
    assert state["phase"] == "turn_start"


def test_when_the_knocker_resigns_the_showdown_comes_when_play_passes_his_seat(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D", stock=["3H", "4S"])
    state, _ = play(state, (0, "knock"))
    state, _ = RULES.resign(state, 0)
    assert RULES.to_act(state) == 1
    state, events = play(state, *keep_hand(1, "3H"))
    assert not of_type(events, "showdown")
    state, events = play(state, *keep_hand(2, "4S"))
    showdown = of_type(events, "showdown")[0]
    assert showdown["hands"][0] is None
    assert showdown["values"] == [None, 15, 20]
    assert showdown["lives_lost"] == [0, 1, 0]


def test_a_game_left_with_one_player_ends_by_resignation_and_he_takes_the_kitty(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, _ = RULES.resign(state, 1)
    state, events = RULES.resign(state, 0)
    outcome = RULES.outcome(state)
    assert events[-1]["type"] == "game_over"
    assert outcome["reason"] == "resignation"
    assert outcome["places"] == [2, 3, 1]  # seat 1 resigned first, so ranks lower
    assert outcome["winners"] == [2]
    assert outcome["tokens"] == [0, 0, 9]
    with pytest.raises(IllegalAction) as caught:
        RULES.resign(state, 2)
    assert caught.value.code == "game_over"


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "draw_stock"}, "not_your_turn"),
        (3, {"type": "draw_stock"}, "not_seated"),
        (-1, {"type": "draw_stock"}, "not_seated"),
        ("0", {"type": "draw_stock"}, "not_seated"),
        (0, "draw_stock", "bad_action"),
        (0, {"card": "7S"}, "bad_action"),
        (0, {"type": "meld", "cards": ["3H", "4H", "5H"]}, "bad_action"),
        (0, {"type": "discard"}, "bad_action"),
        (0, {"type": "discard", "card": "KS"}, "wrong_phase"),
    ],
)
def test_a_wrong_move_raises_illegal_action_with_a_stable_code_and_changes_nothing(stack, seat, action, code):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    assert illegal(state, seat, action).code == code


@pytest.mark.parametrize(
    ("action", "named"),
    [
        ({"type": "draw_stock", "card": "AS"}, '"card"'),
        ({"type": "knock", "note": "gg"}, '"note"'),
        ({"type": "draw_discard", "cards": ["AS"], "seat": 1}, '"cards", "seat"'),
    ],
)
def test_an_action_with_a_key_it_does_not_take_is_refused_naming_the_key(stack, action, named):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    refused = illegal(state, 0, action)
    assert refused.code == "bad_action"
    assert f"remove {named}" in refused.message


def test_a_discard_with_a_key_too_many_is_refused(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, _ = play(state, (0, "draw_stock"))
    refused = illegal(state, 0, {"type": "discard", "card": state["hands"][0][0], "meld": 0})
    assert refused.code == "bad_action"
    assert 'remove "meld"' in refused.message


@pytest.mark.parametrize(("card", "code"), [("ZZ", "bad_card"), (7, "bad_card"), ("TD", "card_not_in_hand")])
def test_discarding_a_card_that_is_no_card_or_not_in_the_hand_is_refused(stack, card, code):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, _ = play(state, (0, "draw_stock"))
    assert illegal(state, 0, {"type": "discard", "card": card}).code == code


def test_a_discard_may_name_its_card_in_lower_case(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    state, events = play(state, (0, "draw_stock"), (0, "discard", "2h"))
    assert events[1] == {"type": "discard", "seat": 0, "card": "2H"}


# --- what a seat sees ------------------------------------------------------------------------


def test_a_view_shows_the_own_hand_and_public_facts_but_never_another_hand_or_the_stock(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D", stock=["3H"])
    state, _ = play(state, (0, "draw_stock"))
    view = RULES.view(state, 1)
    assert view["hand"] == ["TD", "5D", "3C"]
    assert view["hand_value"] == 15
    assert view["players"][0]["cards_held"] == 4
    assert view["players"][2] == {
        "seat": 2, "cards_held": 3, "in_game": True, "eliminated": False, "resigned": False, "tokens": 3,
        "on_the_county": False, "is_dealer": True, "is_knocker": False, "turns_taken": 0,
    }  # fmt: skip
    assert view["stock_count"] == 52 - 10 - 1
    assert (view["discard_top"], view["discard_pile"]) == ("2D", ["2D"])
    assert (view["to_act"], view["phase"], view["kitty"], view["viewer"]) == (0, "must_discard", 0, 1)
    text = json.dumps(view)
    for secret in ["9S", "6S", "2H", "3H", "KC", "QC", "4H", "secret", "scenario"]:
        assert secret not in text
    assert view["deal_events"][0]["hands"] == [None, ["TD", "5D", "3C"], None]
    assert view["deal_events"][0]["up_card"] == "2D"


def test_a_spectator_sees_no_hand_at_all(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    view = RULES.view(state, None)
    assert view["hand"] is None
    assert view["deal_events"][0]["hands"] == [None, None, None]


def test_a_stock_draw_is_shown_only_to_the_drawer_and_a_discard_draw_to_everybody(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D", stock=["3H"])
    state, events = play(state, (0, "draw_stock"), (0, "discard", "2H"), (1, "draw_discard"))
    assert RULES.view_events(events, 0)[0]["card"] == "3H"
    assert RULES.view_events(events, 1)[0]["card"] is None
    assert RULES.view_events(events, None)[2] == {"type": "draw_discard", "seat": 1, "card": "2H"}


def test_the_last_showdown_stays_public_in_the_next_hand(stack):
    state, showdown = showdown_after_knock(stack, KNOCKER_AND_ONE_TIED)
    for seat in (0, 1, 2, None):
        assert RULES.view(state, seat)["last_showdown"]["hands"] == showdown["hands"]


def test_the_state_survives_a_json_round_trip(stack):
    state = start(stack, KNOCKER_AND_ONE_TIED, up="2D")
    assert RULES.from_json(json.loads(json.dumps(RULES.to_json(state)))) == state
