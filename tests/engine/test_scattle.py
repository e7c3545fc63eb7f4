"""Scattle! rules, scenario by scenario (../shared/rules/scattle.md, checklist B9 first)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.engine import BadOption, IllegalAction, get_rules
from games.engine.cards import DECK
from games.engine.scattle import RULES, find_melds, meld_kind, meld_points


def table(
    hands: list[list[str]],
    *,
    stock: list[str] = (),
    discard: list[str] = ("2C",),
    turn: int = 0,
    phase: str = "draw",
    options: dict[str, Any] | None = None,
    scores: list[int] | None = None,
    melds: list[list[dict[str, Any]]] | None = None,
    **facts: Any,
) -> dict[str, Any]:
    """A game laid out by hand. `stock` is listed top card first, `discard` bottom card first."""
    state = RULES.new_game(len(hands), options, seed="table")
    state.update(
        hands=[list(hand) for hand in hands],
        stock=list(reversed(stock)),
        discard=list(discard),
        turn=turn,
        phase=phase,
        scores=list(scores or [0] * len(hands)),
        melds=melds or [[] for _ in hands],
        **facts,
    )
    return state


def play(state: dict[str, Any], *moves: tuple[int, dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Apply the moves in order; return the last state and every event."""
    events: list[dict[str, Any]] = []
    for seat, action in moves:
        state, new = RULES.apply(state, seat, action)
        events.extend(new)
    return state, events


def draw_stock() -> dict[str, Any]:
    return {"type": "draw_stock"}


def draw_discard() -> dict[str, Any]:
    return {"type": "draw_discard"}


def meld(*cards: str) -> dict[str, Any]:
    return {"type": "meld", "cards": list(cards)}


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


def lay_off(card: str, index: int) -> dict[str, Any]:
    return {"type": "lay_off", "card": card, "meld": index}


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


# Hands that hold no meld and cannot make one with the cards used below.
ALICE_JUNK = ["2S", "5D", "8C", "JH", "KS"]
BOB_JUNK = ["3C", "6S", "9H", "QD", "AC"]


# --------------------------------------------------------------------------------------------
# B9 checklist, as a table


@dataclass
class Scenario:
    name: str
    state: dict[str, Any]
    moves: list[tuple[int, dict[str, Any]]]
    expect: dict[str, Any] = field(default_factory=dict)


SCENARIOS = [
    Scenario(
        "the seed's example: draw 6H, meld 3H-4H-5H-6H for 4 points, discard 7S, and the hand is 5 cards again",
        table([["3H", "4H", "5H", "7S", "9D"], BOB_JUNK], stock=["6H", "TC", "JC", "QC", "KC", "4S"]),
        [(0, draw_stock()), (0, meld("3H", "4H", "5H", "6H")), (0, discard("7S"))],
        {"scores": [4, 0], "hand_count": 5, "stock_count": 1, "discard_top": "7S", "to_act": 1,
         "events": ["draw_stock", "meld", "discard", "refill"]},
    ),
    Scenario(
        "draw, meld three, discard, then refill three: the stock shrinks by four",
        table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["KH", "TC", "JC", "QC", "4S", "5S"]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S"))],
        {"scores": [3, 0], "hand_count": 5, "stock_count": 2, "refill_count": 3, "to_act": 1},
    ),
    Scenario(
        "a sixth card completing three plus three gives two melds and Scattle! with no discard",
        table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK], stock=["6S", "TC"]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S"))],
        {"reason": "scattle", "scores": [6, 0], "winners": [0], "caller": 0, "to_act": None,
         "events_end": ["meld", "scattle", "game_over"]},
    ),
    Scenario(
        "a Scattle! caller who is behind on points lets the leader win",
        table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK], stock=["6S", "TC"], scores=[2, 12]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S"))],
        {"reason": "scattle", "scores": [8, 12], "winners": [1], "places": [2, 1], "caller": 0},
    ),
    Scenario(
        "a meld that takes the player to 25 wins at once, even with another meld still in hand",
        table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK], stock=["6S", "TC"], scores=[22, 24]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C"))],
        {"reason": "target", "scores": [25, 24], "winners": [0], "places": [1, 2], "hand_count": 3},
    ),
    Scenario(
        "drawing from the discard pile and discarding the same card is illegal",
        table([ALICE_JUNK, BOB_JUNK], stock=["TC", "4S"], discard=["6H", "9S"]),
        [(0, draw_discard()), (0, discard("9S"))],
        {"error": "illegal_action"},
    ),
    Scenario(
        "Q-K-A is no run with the ace low",
        table([["QH", "KH", "AH", "2S", "9D"], BOB_JUNK], stock=["TC", "4S"]),
        [(0, draw_stock()), (0, meld("QH", "KH", "AH"))],
        {"error": "illegal_action"},
    ),
    Scenario(
        "A-2-3 is a run with the ace low",
        table([["AH", "2H", "3H", "2S", "9D"], BOB_JUNK], stock=["TC", "4S", "5S", "6S", "7S"]),
        [(0, draw_stock()), (0, meld("AH", "2H", "3H"))],
        {"scores": [3, 0], "phase": "play"},
    ),
    Scenario(
        "a group of 7H 7D 7C is not one colour and scores 3",
        table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["TC", "4S", "5S", "6S"]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C"))],
        {"scores": [3, 0]},
    ),
    Scenario(
        "with two decks 7H 7H 7D is a red group and scores 6",
        table([["7H", "7H", "7D", "2S", "9D"], BOB_JUNK], stock=["TC", "4S", "5S", "6S"], options={"deck_count": 2}),
        [(0, draw_stock()), (0, meld("7H", "7H", "7D"))],
        {"scores": [6, 0]},
    ),
    Scenario(
        "a four-card heart run scores 4 by default",
        table([["3H", "4H", "5H", "6H", "9D"], BOB_JUNK], stock=["TC", "4S", "5S", "6S", "7S"]),
        [(0, draw_stock()), (0, meld("3H", "4H", "5H", "6H"))],
        {"scores": [4, 0]},
    ),
    Scenario(
        "a four-card heart run scores 8 when the colour bonus covers all melds",
        table(
            [["3H", "4H", "5H", "6H", "9D"], BOB_JUNK],
            stock=["TC", "4S", "5S", "6S", "7S"],
            options={"color_bonus_scope": "all_melds"},
        ),
        [(0, draw_stock()), (0, meld("3H", "4H", "5H", "6H"))],
        {"scores": [8, 0]},
    ),
    Scenario(
        "a refill from an empty stock with a one-card discard pile ends the game by exhaustion",
        table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["TC", "4S"], discard=["KD"]),
        [(0, draw_discard()), (0, meld("7H", "7D", "7C")), (0, discard("2S"))],
        {"reason": "exhaustion", "hand_count": 4, "stock_count": 0, "scores": [3, 0], "winners": [0]},
    ),
    Scenario(
        "when nobody melds through a whole stock cycle the next needed rebuild ends the game by stalemate",
        table([ALICE_JUNK, BOB_JUNK], stock=["TC", "4S"], discard=["6H", "7D", "8S"], rebuilds=1),
        [(0, draw_stock()), (0, discard("TC")), (1, draw_stock()), (1, discard("4S"))],
        {"reason": "stalemate", "to_act": None, "winners": [0, 1], "places": [1, 1], "stock_count": 0},
    ),
    Scenario(
        "a turn that starts with an empty stock that cannot be rebuilt ends the game before the player acts",
        table(
            [[*ALICE_JUNK, "4C"], BOB_JUNK],
            discard=["6H", "7D", "8S"],
            phase="play",
            rebuilds=1,
            melded_since_rebuild=True,
            options={"max_stock_rebuilds": 1},
        ),
        [(0, discard("4C"))],
        {"reason": "exhaustion", "to_act": None, "bob_hand": BOB_JUNK, "events": ["discard", "game_over"]},
    ),
    Scenario(
        "a meld whose refill empties the stock and needs a rebuild is allowed that rebuild",
        table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["TC"], discard=["6H", "7S", "8S", "JD", "QD"]),
        [(0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S"))],
        {"hand_count": 5, "rebuilds": 1, "to_act": 1, "stock_count": 2, "discard_top": "2S",
         "events": ["draw_stock", "meld", "discard", "stock_rebuilt", "refill"]},
    ),
    Scenario(
        "with two decks, after taking 7H from the discard pile, discarding the other 7H is illegal",
        table([["7H", *ALICE_JUNK[1:]], BOB_JUNK], stock=["TC"], discard=["9S", "7H"], options={"deck_count": 2}),
        [(0, draw_discard()), (0, discard("7H"))],
        {"error": "illegal_action"},
    ),
]  # fmt: skip


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.name for scenario in SCENARIOS])
def test_checklist(scenario: Scenario) -> None:
    expect = scenario.expect
    if "error" in expect:
        *setup, last = scenario.moves
        state, _ = play(scenario.state, *setup)
        before = RULES.to_json(state)
        with pytest.raises(IllegalAction) as error:
            RULES.apply(state, *last)
        assert error.value.code == expect["error"]
        assert RULES.to_json(state) == before
        return
    state, events = play(scenario.state, *scenario.moves)
    outcome = RULES.outcome(state)
    acting = scenario.moves[-1][0]
    checks = {
        "scores": lambda: state["scores"],
        "hand_count": lambda: len(state["hands"][acting]),
        "stock_count": lambda: len(state["stock"]),
        "discard_top": lambda: state["discard"][-1],
        "to_act": lambda: RULES.to_act(state),
        "phase": lambda: state["phase"],
        "rebuilds": lambda: state["rebuilds"],
        "events": lambda: types(events),
        "events_end": lambda: types(events)[-3:],
        "refill_count": lambda: sum(event["count"] for event in events if event["type"] == "refill"),
        "reason": lambda: outcome["reason"],
        "winners": lambda: outcome["winners"],
        "places": lambda: outcome["places"],
        "caller": lambda: outcome["caller"],
        "bob_hand": lambda: state["hands"][1],
    }
    for key, wanted in expect.items():
        assert checks[key]() == wanted, key


# --------------------------------------------------------------------------------------------
# Scoring helpers


@pytest.mark.parametrize(
    ("cards", "options", "points"),
    [
        (["7H", "7D", "7C"], None, 3),
        (["7H", "7D", "7C", "7S"], None, 4),
        (["7H", "7H", "7D"], {"deck_count": 2}, 6),
        (["7H", "7H", "7D", "7D"], {"deck_count": 2}, 8),
        (["7H", "7H", "7D"], None, 0),
        (["7H", "7H", "7H"], {"deck_count": 2}, 0),
        (["7H", "7H", "7D"], {"deck_count": 2, "color_bonus_multiplier": 3}, 9),
        (["7H", "7H", "7D"], {"deck_count": 2, "color_bonus_scope": "off"}, 3),
        (["3H", "4H", "5H", "6H"], None, 4),
        (["6H", "3H", "5H", "4H"], None, 4),
        (["3H", "4H", "5H", "6H"], {"color_bonus_scope": "all_melds"}, 8),
        (["3H", "4H", "5H", "6H", "7H"], None, 0),
        (["3H", "4H", "5H", "6H", "7H"], {"max_run_length": 5}, 5),
        (["QH", "KH", "AH"], None, 0),
        (["QH", "KH", "AH"], {"ace_in_runs": "low"}, 0),
        (["QH", "KH", "AH"], {"ace_in_runs": "low_or_high"}, 3),
        (["KH", "AH", "2H"], {"ace_in_runs": "low_or_high"}, 0),
        (["KH", "AH", "2H"], {"ace_in_runs": "wrap"}, 3),
        (["AH", "2H", "3H"], None, 3),
        (["3H", "4H", "6H"], None, 0),
        (["3H", "4H", "5D"], None, 0),
        (["7H", "7D"], None, 0),
        (["7H", "7D", "7C", "7S", "7H"], {"deck_count": 2, "max_group_size": 5}, 5),
    ],
)
def test_meld_points_follow_the_scoring_rules(cards: list[str], options: dict[str, Any] | None, points: int) -> None:
    assert meld_points(cards, options) == points


def test_meld_kind_tells_groups_from_runs() -> None:
    assert meld_kind(["7H", "7D", "7C"]) == "group"
    assert meld_kind(["3H", "4H", "5H"]) == "run"
    assert meld_kind(["3H", "4H", "5D"]) is None


def test_meld_points_rejects_a_bad_option() -> None:
    with pytest.raises(BadOption, match="ace_in_runs"):
        meld_points(["AH", "2H", "3H"], {"ace_in_runs": "sideways"})


def test_find_melds_lists_each_distinct_multiset_once_with_two_decks() -> None:
    melds = find_melds(["7H", "7H", "7D", "7D", "8H", "9H"], {"deck_count": 2})
    assert sorted(map(tuple, melds)) == sorted(
        [("7H", "7H", "7D"), ("7H", "7D", "7D"), ("7H", "7H", "7D", "7D"), ("7H", "8H", "9H")]
    )


def test_find_melds_lists_every_run_inside_a_long_run() -> None:
    melds = find_melds(["3S", "4S", "5S", "6S", "7S"], {"max_run_length": 5})
    assert len(melds) == 6  # three of length 3, two of length 4, one of length 5


def test_a_full_wrapping_suit_is_one_meld_not_thirteen() -> None:
    suit = [rank + "H" for rank in "A23456789TJQK"]
    melds = find_melds(suit, {"ace_in_runs": "wrap", "max_run_length": 13})
    assert sum(len(m) == 13 for m in melds) == 1
    assert sum(len(m) == 3 for m in melds) == 13  # every start, round the corner too


# --------------------------------------------------------------------------------------------
# Options


def test_option_specs_follow_the_rules_table_in_order() -> None:
    names = [spec["name"] for spec in RULES.option_specs()]
    assert names == [
        "deck_count", "hand_size", "max_group_size", "max_run_length", "ace_in_runs", "color_bonus_scope",
        "color_bonus_multiplier", "lay_off", "scattle_final_discard", "target_score", "deadwood_penalty",
        "discard_retake_same_turn", "stock_rebuild_order", "max_stock_rebuilds", "stalemate_end", "first_player",
        "tie_rule", "idle_rounds_end",
    ]  # fmt: skip


def test_defaults_are_the_rules_table_defaults() -> None:
    assert RULES.validate_options(None) == {
        "deck_count": "auto", "hand_size": 5, "max_group_size": 4, "max_run_length": 4, "ace_in_runs": "low",
        "color_bonus_scope": "groups", "color_bonus_multiplier": 2, "lay_off": "none",
        "scattle_final_discard": "optional", "target_score": "auto", "deadwood_penalty": False,
        "discard_retake_same_turn": False, "stock_rebuild_order": "shuffle", "max_stock_rebuilds": None,
        "stalemate_end": True, "first_player": "random", "tie_rule": "first_to_reach", "idle_rounds_end": 20,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"jokers": True}, "jokers"),
        ({"deck_count": 3}, "deck_count"),
        ({"deck_count": True}, "deck_count"),
        ({"hand_size": "5"}, "hand_size"),
        ({"max_run_length": 3}, "max_run_length"),
        ({"max_run_length": 14}, "max_run_length"),
        ({"max_group_size": 5, "deck_count": 1}, "max_group_size"),
        ({"max_group_size": 9}, "max_group_size"),
        ({"deck_count": "many"}, "deck_count"),
        ({"target_score": "auto-ish"}, "target_score"),
        ({"idle_rounds_end": 2}, "idle_rounds_end"),
        ({"ace_in_runs": "high"}, "ace_in_runs"),
        ({"color_bonus_scope": "runs"}, "color_bonus_scope"),
        ({"lay_off": "any"}, "lay_off"),
        ({"target_score": 0}, "target_score"),
        ({"deadwood_penalty": 1}, "deadwood_penalty"),
        ({"stock_rebuild_order": "riffle"}, "stock_rebuild_order"),
        ({"max_stock_rebuilds": -1}, "max_stock_rebuilds"),
        ({"stalemate_end": False}, "max_stock_rebuilds"),
        ({"first_player": "oldest"}, "first_player"),
        ({"tie_rule": "coin_flip"}, "tie_rule"),
    ],
)
def test_a_bad_option_is_refused_by_name(options: dict[str, Any], named: str) -> None:
    with pytest.raises(BadOption, match=named) as error:
        RULES.validate_options(options)
    assert (error.value.code, error.value.option) == ("bad_option", named)


def test_stalemate_end_may_be_off_when_rebuilds_are_limited() -> None:
    assert RULES.validate_options({"stalemate_end": False, "max_stock_rebuilds": 2})["stalemate_end"] is False


@pytest.mark.parametrize(
    ("seats", "options", "ok"),
    [
        (1, None, False),
        (2, None, True),
        (6, {"deck_count": 1}, True),
        (7, {"deck_count": 1}, False),
        (7, None, True),  # auto: two decks
        (8, {"deck_count": 2}, True),
        (9, None, False),
        (2, {"hand_size": 25, "deck_count": 1}, True),  # 25 x 2 + 1 = 51 cards, one left for the stock
        (2, {"hand_size": 26, "deck_count": 1}, False),  # 53 > 52
        (3, {"hand_size": 17, "deck_count": 1}, False),  # 52: no stock at all (rules B2)
        (6, {"hand_size": 8, "deck_count": 1}, True),  # 49 cards
        (6, {"hand_size": 9, "deck_count": 1}, False),  # 55 cards
        (3, {"first_player": 2}, True),
        (3, {"first_player": 3}, False),
    ],
)
def test_seat_counts_and_hand_sizes_must_fit_the_deck(seats: int, options: dict[str, Any] | None, ok: bool) -> None:
    if ok:
        assert RULES.new_game(seats, options, seed=1)["num_seats"] == seats
    else:
        with pytest.raises(BadOption):
            RULES.new_game(seats, options, seed=1)


# --------------------------------------------------------------------------------------------
# Setup (B3)


def test_get_rules_returns_the_scattle_singleton() -> None:
    assert get_rules("scattle") is RULES
    assert (RULES.kind, RULES.min_seats, RULES.max_seats) == ("scattle", 2, 8)


def test_the_deal_gives_one_card_at_a_time_from_the_end_starting_with_the_first_player() -> None:
    from games.engine.base import shuffled

    state = RULES.new_game(3, {"deck_count": 1, "first_player": 1}, seed="deal")
    deck = shuffled(list(DECK), "deal", 0)
    assert state["hands"][1][:2] == [deck[-1], deck[-4]]
    assert state["hands"][2][0] == deck[-2]
    assert state["hands"][0][0] == deck[-3]
    assert state["discard"] == [deck[-16]]
    assert state["stock"] == deck[:-16]
    assert RULES.to_act(state) == 1


def test_a_random_first_player_is_the_same_for_the_same_seed() -> None:
    firsts = {RULES.new_game(4, None, seed=f"s{i}")["first_player"] for i in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.new_game(4, None, seed="x")["first_player"] == RULES.new_game(4, None, seed="x")["first_player"]


def test_the_opening_is_a_draw_for_the_first_player_and_nobody_else() -> None:
    state = RULES.new_game(3, {"deck_count": 1, "first_player": 2}, seed=5)
    assert RULES.legal_actions(state, 2) == [{"type": "draw_stock"}, {"type": "draw_discard"}]
    assert RULES.legal_actions(state, 0) == []
    assert state["phase"] == "draw"
    assert [len(hand) for hand in state["hands"]] == [5, 5, 5]
    assert len(state["stock"]) == 52 - 16


# --------------------------------------------------------------------------------------------
# Melding and legal actions


def test_legal_actions_list_every_meld_lay_off_and_discard() -> None:
    state = table(
        [["7H", "7D", "7C", "7S", "8S", "9S"], BOB_JUNK],
        phase="play",
        stock=["TC", "4S", "5S", "6S"],
        options={"lay_off": "own"},
        melds=[[{"kind": "run", "cards": ["4D", "5D", "6D"], "points": 3}], []],
    )
    actions = RULES.legal_actions(state, 0)
    melds = sorted(tuple(sorted(a["cards"])) for a in actions if a["type"] == "meld")
    assert melds == sorted(
        [
            ("7C", "7D", "7H"), ("7C", "7D", "7S"), ("7C", "7H", "7S"), ("7D", "7H", "7S"),
            ("7C", "7D", "7H", "7S"), ("7S", "8S", "9S"),
        ]
    )  # fmt: skip
    assert [a for a in actions if a["type"] == "lay_off"] == [{"type": "lay_off", "card": "7D", "meld": 0}]
    assert [a["card"] for a in actions if a["type"] == "discard"] == ["7H", "7D", "7C", "7S", "8S", "9S"]


def test_every_listed_action_is_accepted() -> None:
    state = table([["7H", "7D", "7C", "7S", "8S", "9S"], BOB_JUNK], phase="play", stock=["TC", "4S", "5S", "6S"])
    for action in RULES.legal_actions(state, 0):
        RULES.apply(state, 0, action)


def test_a_meld_may_list_its_cards_in_any_order_and_is_laid_in_table_order() -> None:
    state = table([["6H", "4H", "5H", "3H", "9D"], BOB_JUNK], stock=["KD", "TC", "4S", "5S", "6S"])
    state, events = play(state, (0, draw_stock()), (0, meld("6H", "4H", "3H", "5H")))
    assert state["melds"][0] == [{"kind": "run", "cards": ["3H", "4H", "5H", "6H"], "points": 4}]
    assert events[-1] == {
        "type": "meld", "seat": 0, "meld": 0, "kind": "run", "cards": ["3H", "4H", "5H", "6H"], "points": 4,
        "score": 4,
    }  # fmt: skip


def test_melding_cards_not_in_hand_is_refused() -> None:
    state = table([["7H", "7D", "2S", "5S", "9D"], BOB_JUNK], stock=["KD", "TC"])
    state, _ = play(state, (0, draw_stock()))
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, 0, meld("7H", "7D", "7C"))
    assert error.value.code == "card_not_in_hand"


def test_a_meld_that_would_leave_only_the_retaken_card_is_refused() -> None:
    options = {"max_run_length": 5}
    state = table([["3H", "4H", "5H", "6H", "7H"], BOB_JUNK], stock=["KD", "TC"], discard=["2C", "9S"], options=options)
    state, _ = play(state, (0, draw_discard()))
    assert meld("3H", "4H", "5H", "6H", "7H") not in RULES.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="may not discard") as error:
        RULES.apply(state, 0, meld("3H", "4H", "5H", "6H", "7H"))
    assert error.value.code == "illegal_action"
    state, _ = play(state, (0, meld("3H", "4H", "5H", "6H")))  # keeping 7H to discard is fine
    assert RULES.legal_actions(state, 0) == [{"type": "discard", "card": "7H"}]


def test_the_retaken_card_may_be_discarded_when_the_option_allows() -> None:
    state = table(
        [ALICE_JUNK, BOB_JUNK], stock=["TC", "4S"], discard=["6H", "9S"], options={"discard_retake_same_turn": True}
    )
    state, _ = play(state, (0, draw_discard()), (0, discard("9S")))
    assert state["discard"][-1] == "9S" and RULES.to_act(state) == 1


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "meld", "cards": ["7H"]}, "wrong_phase"),
        ({"type": "discard", "card": "2S"}, "wrong_phase"),
        ({"type": "knock"}, "bad_action"),
        ({"cards": ["7H"]}, "bad_action"),
        ("draw_stock", "bad_action"),
        ({"type": "draw_stock", "card": "2S"}, "bad_action"),
    ],
)
def test_an_action_out_of_phase_or_malformed_is_refused_with_its_code(action: Any, code: str) -> None:
    state = table([ALICE_JUNK, BOB_JUNK], stock=["TC", "4S"])
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, 0, action)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "discard", "card": "3C"}, "not_your_turn"),
        (0, {"type": "draw_stock"}, "wrong_phase"),
        (0, {"type": "discard", "card": "ZZ"}, "bad_card"),
        (0, {"type": "discard", "card": "7H"}, "card_not_in_hand"),
        (0, {"type": "meld", "cards": "2S 5D 8C"}, "bad_action"),
        (0, {"type": "meld", "cards": ["2S", "5D", "8C"]}, "illegal_action"),
        (0, {"type": "lay_off", "card": "2S", "meld": 0}, "illegal_action"),
        (3, {"type": "draw_stock"}, "not_seated"),
    ],
)
def test_an_illegal_play_is_refused_with_its_code_and_changes_nothing(seat: int, action: Any, code: str) -> None:
    state = table([[*ALICE_JUNK, "4C"], BOB_JUNK], phase="play", stock=["TC", "4S"])
    before = RULES.to_json(state)
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, seat, action)
    assert error.value.code == code
    assert error.value.message
    assert RULES.to_json(state) == before


def test_lower_case_and_ten_spelled_10_are_understood() -> None:
    state = table([["TH", "JH", "QH", "2S", "9D"], BOB_JUNK], stock=["KD", "TC", "4S", "5S"])
    state, _ = play(state, (0, draw_stock()), (0, meld("10h", "jh", "qh")))
    assert state["melds"][0][0]["cards"] == ["TH", "JH", "QH"]


def test_a_finished_game_refuses_every_action() -> None:
    state = table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK], stock=["6S", "TC"])
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S")))
    for seat in (0, 1):
        assert RULES.legal_actions(state, seat) == []
        with pytest.raises(IllegalAction) as error:
            RULES.apply(state, seat, draw_stock())
        assert error.value.code == "game_over"
    with pytest.raises(IllegalAction) as error:
        RULES.resign(state, 1)
    assert error.value.code == "game_over"


# --------------------------------------------------------------------------------------------
# Laying off (option lay_off = own)

RUN_456H = {"kind": "run", "cards": ["4H", "5H", "6H"], "points": 3}
RED_SEVENS = {"kind": "group", "cards": ["7H", "7H", "7D"], "points": 6}


def test_laying_off_extends_an_own_meld_and_scores_the_difference() -> None:
    state = table(
        [["7H", "2S", "5D", "8C", "JS"], BOB_JUNK],
        stock=["KD", "TC", "4S", "5S"],
        options={"lay_off": "own"},
        melds=[[RUN_456H], []],
        scores=[3, 0],
    )
    state, events = play(state, (0, draw_stock()), (0, lay_off("7H", 0)))
    assert state["melds"][0] == [{"kind": "run", "cards": ["4H", "5H", "6H", "7H"], "points": 4}]
    assert state["scores"] == [4, 0]
    assert events[-1]["gained"] == 1


def test_laying_off_is_refused_when_the_option_is_off() -> None:
    state = table([["7H", "2S", "5D", "8C", "JS"], BOB_JUNK], stock=["KD"], melds=[[RUN_456H], []])
    state, _ = play(state, (0, draw_stock()))
    assert all(action["type"] != "lay_off" for action in RULES.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="lay_off"):
        RULES.apply(state, 0, lay_off("7H", 0))


def test_a_lay_off_that_would_lose_the_colour_bonus_is_refused() -> None:
    options = {"lay_off": "own", "deck_count": 2}
    state = table(
        [["7S", "2S", "5D", "8C", "JS"], BOB_JUNK],
        stock=["KD"],
        options=options,
        melds=[[RED_SEVENS], []],
        scores=[6, 0],
    )
    state, _ = play(state, (0, draw_stock()))
    with pytest.raises(IllegalAction, match="at least"):
        RULES.apply(state, 0, lay_off("7S", 0))


def test_a_red_lay_off_keeps_the_colour_bonus() -> None:
    options = {"lay_off": "own", "deck_count": 2}
    state = table(
        [["7D", "2S", "5D", "8C", "JS"], BOB_JUNK],
        stock=["KD"],
        options=options,
        melds=[[RED_SEVENS], []],
        scores=[6, 0],
    )
    state, _ = play(state, (0, draw_stock()), (0, lay_off("7D", 0)))
    assert state["scores"][0] == 8


def test_laying_off_the_last_card_calls_scattle() -> None:
    state = table(
        [["7H", "8H", "9H", "TH", "JD"], BOB_JUNK],
        stock=["QD", "2C"],
        options={"lay_off": "own", "max_run_length": 5},
        melds=[[{"kind": "run", "cards": ["8D", "9D", "TD"], "points": 3}], []],
        scores=[3, 5],
    )
    state, events = play(
        state, (0, draw_stock()), (0, meld("7H", "8H", "9H", "TH")), (0, lay_off("JD", 0)), (0, lay_off("QD", 0))
    )
    assert types(events)[-3:] == ["lay_off", "scattle", "game_over"]
    assert state["melds"][0][0]["cards"] == ["8D", "9D", "TD", "JD", "QD"]
    assert RULES.outcome(state)["scores"] == [9, 5]


# --------------------------------------------------------------------------------------------
# Scattle! (B5, B8b)


def test_discarding_the_last_card_calls_scattle_when_the_final_discard_is_optional() -> None:
    options = {"max_run_length": 5}
    state = table([["3H", "4H", "5H", "6H", "7H"], BOB_JUNK], stock=["KD", "TC"], options=options, scores=[0, 3])
    state, events = play(state, (0, draw_stock()), (0, meld("3H", "4H", "5H", "6H", "7H")), (0, discard("KD")))
    assert types(events)[-3:] == ["discard", "scattle", "game_over"]
    assert RULES.outcome(state)["winners"] == [0]
    assert RULES.outcome(state)["scores"] == [5, 3]


def test_discarding_the_last_card_is_an_ordinary_discard_when_the_final_discard_is_forbidden() -> None:
    options = {"max_run_length": 5, "scattle_final_discard": "forbidden"}
    state = table(
        [["3H", "4H", "5H", "6H", "7H"], BOB_JUNK], stock=["KD", "TC", "2D", "3D", "4D", "5D", "6D"], options=options
    )
    state, events = play(state, (0, draw_stock()), (0, meld("3H", "4H", "5H", "6H", "7H")), (0, discard("KD")))
    assert "scattle" not in types(events)
    assert len(state["hands"][0]) == 5
    assert RULES.to_act(state) == 1


@pytest.mark.parametrize(
    ("tie_rule", "places", "winners"),
    [("shared", [1, 1, 3], [0, 1]), ("scattle_caller_wins_ties", [1, 2, 3], [0])],
)
def test_a_tie_after_scattle_follows_the_tie_rule(tie_rule: str, places: list[int], winners: list[int]) -> None:
    state = table(
        [["7H", "7D", "7C", "4S", "5S"], BOB_JUNK, ["4C", "8D", "TS", "JC", "KH"]],
        stock=["6S", "TC"],
        scores=[0, 6, 1],
        options={"tie_rule": tie_rule},
    )
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S")))
    assert RULES.outcome(state)["places"] == places
    assert RULES.outcome(state)["winners"] == winners


def test_deadwood_is_subtracted_at_the_end_when_the_option_is_on() -> None:
    state = table(
        [["7H", "7D", "7C", "4S", "5S"], ["KC", "QC", "AD", "2D", "3S"]],
        stock=["6S", "TC"],
        scores=[0, 30 - 1],
        options={"deadwood_penalty": True, "target_score": None},
    )
    state, events = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S")))
    outcome = RULES.outcome(state)
    assert outcome["deadwood"] == [0, 13 + 12 + 1 + 2 + 3]
    assert outcome["scores"] == [6, 29 - 31]
    assert outcome["winners"] == [0]
    assert events[-1]["hands"] == [[], ["KC", "QC", "AD", "2D", "3S"]]


# --------------------------------------------------------------------------------------------
# Stock rebuilds (B7) and the other ends (B8)


def test_turning_the_discards_over_puts_the_first_discard_on_top() -> None:
    state = table(
        [["7H", "7D", "7C", "2S", "9D"], BOB_JUNK],
        stock=["TC"],
        discard=["6H", "7S", "8S", "JD"],
        options={"stock_rebuild_order": "turn_over"},
    )
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S")))
    assert state["hands"][0][-3:] == ["6H", "7S", "8S"]
    assert state["stock"] == ["JD"]
    assert state["discard"] == ["2S"]


def test_a_shuffled_rebuild_uses_the_next_shuffle_of_the_seed() -> None:
    state = table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["TC"], discard=["6H", "7S", "8S", "JD", "QD"])
    assert state["secret"]["shuffles"] == 1
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S")))
    assert state["secret"]["shuffles"] == 2
    assert Counter(state["hands"][0][-3:] + state["stock"]) == Counter(["6H", "7S", "8S", "JD", "QD"])


def test_a_rebuild_past_the_limit_ends_the_game_by_exhaustion() -> None:
    state = table(
        [["7H", "7D", "7C", "2S", "9D"], BOB_JUNK],
        stock=["TC"],
        discard=["6H", "7S", "8S", "JD", "QD"],
        rebuilds=2,
        options={"max_stock_rebuilds": 2},
    )
    state, events = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S")))
    assert RULES.outcome(state)["reason"] == "exhaustion"
    assert types(events)[-1] == "game_over"


def test_with_stalemate_end_off_the_game_cycles_until_the_rebuild_limit() -> None:
    options = {"stalemate_end": False, "max_stock_rebuilds": 1}
    state = table([ALICE_JUNK, BOB_JUNK], stock=["TC"], discard=["6H", "7D", "8S"], options=options)
    state, events = play(state, (0, draw_stock()), (0, discard("TC")), (1, draw_stock()))
    assert "stock_rebuilt" in types(events)
    assert RULES.outcome(state) is None


def test_the_stalemate_end_counts_a_meld_made_since_the_last_rebuild() -> None:
    state = table(
        [["7H", "7D", "7C", "2S", "9D"], BOB_JUNK],
        stock=["KD", "TC", "4S", "5S"],
        discard=["6H", "7S", "8S"],
    )
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S")))
    assert state["stock"] == [] and state["melded_since_rebuild"]
    state, events = play(state, (1, draw_stock()))
    assert types(events) == ["stock_rebuilt", "draw_stock"]
    assert not state["melded_since_rebuild"]


# --------------------------------------------------------------------------------------------
# Resignation (C7)


def test_a_player_may_resign_out_of_turn_and_their_hand_goes_under_the_stock() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, ["4C", "8D", "TS", "JC", "KH"]], stock=["TC", "4S"])
    state, events = RULES.resign(state, 1)
    assert events == [{"type": "resigned", "seat": 1, "cards_to_stock": 5}]
    assert state["stock"][:5] == BOB_JUNK and state["stock"][-1] == "TC"
    assert state["hands"][1] == []
    assert RULES.to_act(state) == 0
    state, _ = play(state, (0, draw_stock()), (0, discard("TC")))
    assert RULES.to_act(state) == 2  # the resigned seat is skipped
    with pytest.raises(IllegalAction) as error:
        RULES.apply(state, 1, draw_stock())
    assert error.value.code == "not_seated"


def test_resigning_on_ones_turn_passes_play_on() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, ["4C", "8D", "TS", "JC", "KH"]], stock=["TC", "4S"])
    state, _ = play(state, (0, draw_stock()))
    state, events = RULES.resign(state, 0)
    assert events[0]["cards_to_stock"] == 6
    assert RULES.to_act(state) == 1 and state["phase"] == "draw"


def test_the_last_player_left_wins_and_earlier_resigners_rank_lower() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, ["4C", "8D", "TS", "JC", "KH"]], stock=["TC"], scores=[9, 0, 3])
    state, _ = RULES.resign(state, 0)
    assert RULES.outcome(state) is None
    state, events = RULES.resign(state, 2)
    outcome = RULES.outcome(state)
    assert outcome["reason"] == "resignation"
    assert outcome["places"] == [3, 1, 2]
    assert outcome["winners"] == [1]
    assert types(events) == ["resigned", "game_over"]


def test_a_resigned_player_ranks_below_everyone_still_in_whatever_the_score() -> None:
    state = table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK, ALICE_JUNK], stock=["6S", "TC"], scores=[0, 0, 20])
    state, _ = RULES.resign(state, 2)
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S")))
    assert RULES.outcome(state)["places"] == [1, 2, 3]


def test_resigning_twice_is_refused() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, ["4C", "8D", "TS", "JC", "KH"]], stock=["TC"])
    state, _ = RULES.resign(state, 2)
    with pytest.raises(IllegalAction) as error:
        RULES.resign(state, 2)
    assert error.value.code == "not_seated"


# --------------------------------------------------------------------------------------------
# What each seat sees (C4, C10)


def test_a_view_shows_own_hand_and_public_facts_but_never_other_hands_the_stock_or_the_seed() -> None:
    state = RULES.new_game(3, {"deck_count": 1, "first_player": 0}, seed="secret-seed-123")
    view = RULES.view(state, 1)
    assert view["hand"] == state["hands"][1]
    assert view["stock_count"] == len(state["stock"])
    assert view["discard_pile"] == state["discard"] and view["discard_top"] == state["discard"][-1]
    assert [p["cards_held"] for p in view["players"]] == [5, 5, 5]
    assert view["deal_events"][0]["hands"] == [None, state["hands"][1], None]
    text = repr(view)
    assert "secret-seed-123" not in text
    for card in state["hands"][0] + state["hands"][2] + state["stock"]:
        assert card not in text
    spectator = RULES.view(state, None)
    assert spectator["hand"] is None and spectator["deal_events"][0]["hands"] == [None, None, None]


def test_a_stock_draw_and_a_refill_are_shown_only_to_the_drawer() -> None:
    state = table([["7H", "7D", "7C", "2S", "9D"], BOB_JUNK], stock=["KD", "TC", "4S", "5S", "6S"])
    state, events = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("2S")))
    mine = RULES.view_events(events, 0)
    theirs = RULES.view_events(events, 1)
    assert mine[0]["card"] == "KD" and theirs[0]["card"] is None
    assert mine[-1]["cards"] == ["TC", "4S", "5S"] and theirs[-1]["cards"] is None
    assert theirs[-1]["count"] == 3
    assert theirs[1] == mine[1] == events[1]  # the meld is public


def test_the_hands_are_revealed_when_the_game_ends() -> None:
    state = table([["7H", "7D", "7C", "4S", "5S"], BOB_JUNK], stock=["6S", "TC"])
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, meld("4S", "5S", "6S")))
    view = RULES.view(state, 0)
    assert view["last_showdown"]["hands"] == [[], BOB_JUNK]
    assert view["outcome"]["reason"] == "scattle"
    assert view["to_act"] is None and view["phase"] == "over"


def test_a_view_for_a_seat_that_does_not_exist_is_refused() -> None:
    state = RULES.new_game(2, None, seed=1)
    with pytest.raises(IllegalAction) as error:
        RULES.view(state, 5)
    assert error.value.code == "not_seated"
