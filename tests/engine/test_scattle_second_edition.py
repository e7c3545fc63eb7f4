"""Scattle, second edition of the rules: auto decks and targets (B2b), the preset, first_to_reach ties
(B8), idle rounds (B7), the card taken back to the pile on resigning (C7), and the loose ends: seats,
copies and shapes."""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalAction
from games.engine.scattle import AUTO_DECKS, AUTO_TARGETS, PRESETS, RULES, auto_values

from .test_scattle import ALICE_JUNK, BOB_JUNK, discard, draw_discard, draw_stock, meld, play, table, types

CAROL_JUNK = ["4C", "8D", "TS", "JC", "KH"]


# --- auto and the preset (B2b) ----------------------------------------------------------------


def test_auto_stays_auto_until_the_seat_count_is_known() -> None:
    options = RULES.validate_options({})
    assert (options["deck_count"], options["target_score"]) == ("auto", "auto")


@pytest.mark.parametrize("seats", range(2, 9))
def test_a_new_game_plays_the_table_of_its_seat_count(seats: int) -> None:
    state = RULES.new_game(seats, None, seed="auto")
    decks = AUTO_DECKS[seats]
    assert state["options"]["deck_count"] == decks
    assert state["options"]["target_score"] == AUTO_TARGETS[(decks, seats)]
    assert len(state["stock"]) + len(state["discard"]) + sum(map(len, state["hands"])) == 52 * decks


def test_a_deck_count_chosen_by_hand_gets_the_auto_target_for_those_decks() -> None:
    options = RULES.validate_options({"deck_count": 2, "target_score": "auto"}, 3)
    assert options == {**options, "deck_count": 2, "target_score": AUTO_TARGETS[(2, 3)]}
    assert RULES.validate_options({"target_score": 40}, 3)["target_score"] == 40


def test_every_seat_count_and_deck_count_allowed_has_a_target() -> None:
    for seats in range(2, 9):
        for decks in (1, 2):
            if decks == 1 and seats > 6:
                continue
            assert auto_values(seats, decks)["target_score"] == AUTO_TARGETS[(decks, seats)]


def test_the_rules_object_lists_the_presets_and_the_auto_table() -> None:
    assert RULES.presets() == {"original": {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}}
    assert RULES.presets() is not PRESETS  # a copy
    rows = RULES.auto_table()
    assert [row["seats"] for row in rows] == list(range(2, 9))
    assert rows[0] == {
        "seats": 2,
        **auto_values(2),
        "target_by_decks": {"1": AUTO_TARGETS[(1, 2)], "2": AUTO_TARGETS[(2, 2)]},
    }
    assert set(rows[-1]["target_by_decks"]) == {"2"}  # eight players need two decks


# --- first_to_reach (B8) ----------------------------------------------------------------------


def ended(state: dict, reason: str = "stalemate", **option) -> dict:
    """The same position ended at once (the ranking is what is under test, not how the game got there)."""
    finished = {**state, "options": {**state["options"], **option}}
    RULES._end(finished, reason, [])
    return finished


def test_tied_players_rank_by_who_reached_the_score_first() -> None:
    state = table(
        [["7H", "7D", "7C", "4S", "5S"], ["9S", "9H", "9D", "QD", "AC"], CAROL_JUNK],
        stock=["6S", "TC", "KD", "2H", "3D", "8S", "5C", "6C"],
        options={"target_score": None},
    )
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")), (0, discard("6S")))  # Alice: 3, first
    state, _ = play(state, (1, draw_stock()), (1, meld("9S", "9H", "9D")), (1, discard("3D")))  # Bob: 3, later
    assert state["scores"] == [3, 3, 0]
    assert ended(state)["outcome"]["places"] == [1, 2, 3]
    assert ended(state, tie_rule="shared")["outcome"]["places"] == [1, 1, 3]


def test_players_who_never_scored_share_their_place() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, CAROL_JUNK], stock=["TC"])
    assert ended(state)["outcome"]["places"] == [1, 1, 1]


# --- idle rounds (B7) -------------------------------------------------------------------------


def test_so_many_rounds_without_a_meld_end_the_game_by_stalemate() -> None:
    state = table([ALICE_JUNK, BOB_JUNK], stock=["TC", "4S"], discard=["2C"], options={"idle_rounds_end": 3})
    for _turn in range(5):  # each player keeps taking the discard and throwing it back
        seat = RULES.to_act(state)
        state, _ = play(state, (seat, draw_discard()), (seat, discard(state["hands"][seat][0])))
    seat = RULES.to_act(state)
    state, events = play(state, (seat, draw_discard()), (seat, discard(state["hands"][seat][0])))
    assert types(events)[-2:] == ["idle_rounds", "game_over"]
    assert RULES.outcome(state)["reason"] == "stalemate"


def test_a_meld_starts_the_count_of_idle_rounds_again() -> None:
    state = table(
        [["7H", "7D", "7C", "4S", "5S"], BOB_JUNK],
        stock=["TC", "4D", "6D", "8H", "JD"],
        discard=["2C"],
        options={"idle_rounds_end": 3, "target_score": None},
    )
    for _turn in range(4):  # two full rounds of taking the discard and throwing another card
        seat = RULES.to_act(state)
        state, _ = play(state, (seat, draw_discard()))
        card = next(c for c in state["hands"][seat] if c != state["taken_from_discard"] and c[0] != "7")
        state, _ = play(state, (seat, discard(card)))
    assert state["idle_turns"] == 4
    state, _ = play(state, (0, draw_stock()), (0, meld("7H", "7D", "7C")))
    state, _ = play(state, (0, discard(next(c for c in state["hands"][0] if c != "TC"))))
    assert state["idle_turns"] == 0 and RULES.outcome(state) is None


def test_without_a_limit_the_discard_may_go_round_for_ever() -> None:
    state = table([ALICE_JUNK, BOB_JUNK], stock=["TC"], options={"idle_rounds_end": None})
    for _turn in range(200):
        seat = RULES.to_act(state)
        state, _ = play(state, (seat, draw_discard()), (seat, discard(state["hands"][seat][0])))
    assert RULES.outcome(state) is None


# --- resigning (C7) ---------------------------------------------------------------------------


def test_a_card_taken_from_the_discard_pile_goes_back_on_it_when_its_taker_resigns() -> None:
    state = table([ALICE_JUNK, BOB_JUNK, CAROL_JUNK], stock=["TC"], discard=["2C", "9D"])
    state, _ = play(state, (0, draw_discard()))
    state, events = RULES.resign(state, 0)
    assert events[0] == {"type": "resigned", "seat": 0, "returned_to_discard": "9D", "cards_to_stock": 5}
    assert state["discard"] == ["2C", "9D"]
    assert "9D" not in state["stock"]
    assert RULES.legal_actions(state, 1)[1] == {"type": "draw_discard"}


def test_a_first_edition_game_keeps_the_taken_card_with_the_hand() -> None:
    state = RULES.new_game(3, {"deck_count": 1, "target_score": 25, "tie_rule": "shared"}, seed="old", edition=1)
    assert "edition" not in state and "reached" not in state
    seat = RULES.to_act(state)
    state, _ = RULES.apply(state, seat, draw_discard())
    taken = state["taken_from_discard"]
    state, events = RULES.resign(state, seat)
    assert "returned_to_discard" not in events[0]
    assert taken in state["stock"]


# --- seats, copies and shapes -----------------------------------------------------------------


@pytest.mark.parametrize("seat", [1.0, True, "1", -1, 3, None])
def test_a_seat_must_be_a_seat_number_of_the_game(seat) -> None:
    state = table([ALICE_JUNK, BOB_JUNK, CAROL_JUNK], stock=["TC"])
    for call in (
        lambda: RULES.legal_actions(state, seat),
        lambda: RULES.apply(state, seat, draw_stock()),
        lambda: RULES.resign(state, seat),
    ):
        with pytest.raises(IllegalAction) as refused:
            call()
        assert refused.value.code == "not_seated"
    if seat is not None:
        with pytest.raises(IllegalAction):
            RULES.view(state, seat)


def test_json_copies_and_the_outcome_are_independent_of_the_state() -> None:
    state = table([ALICE_JUNK, BOB_JUNK], stock=["TC"])
    stored = RULES.to_json(state)
    stored["hands"][0].append("AH")
    assert "AH" not in state["hands"][0]
    loaded = RULES.from_json(stored)
    loaded["stock"].clear()
    assert stored["stock"]
    state = ended(state)
    outcome = RULES.outcome(state)
    outcome["places"][0] = 9
    assert RULES.outcome(state)["places"][0] == 1


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda s: s.pop("hands"), "'hands'"),
        (lambda s: s.update(scores="many"), "'scores'"),
        (lambda s: s.update(turn="0"), "'turn'"),
        (lambda s: s.update(num_seats=True), "'num_seats'"),
        (lambda s: s.update(kind="scat"), "Scattle"),
        (lambda s: s["hands"].pop(), "'hands'"),
    ],
)
def test_from_json_refuses_a_malformed_state_naming_what_is_wrong(change, named: str) -> None:
    data = json.loads(json.dumps(table([ALICE_JUNK, BOB_JUNK], stock=["TC"])))
    change(data)
    with pytest.raises(IllegalAction) as refused:
        RULES.from_json(data)
    assert refused.value.code == "bad_state"
    assert named in refused.value.message


def test_from_json_takes_a_first_edition_state() -> None:
    old = RULES.to_json(RULES.new_game(2, {"deck_count": 1, "target_score": 25}, seed="old", edition=1))
    old["options"].pop("idle_rounds_end")  # stored before the option existed
    state = RULES.from_json(old)
    state, _ = RULES.apply(state, RULES.to_act(state), draw_stock())
    assert RULES.to_act(state) is not None
