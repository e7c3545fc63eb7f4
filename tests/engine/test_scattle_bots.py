"""Scattle! bots: they play only legal actions, they cannot cheat, and "good" beats "random"."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.engine import IllegalAction
from games.engine.bots import choose_action
from games.engine.scattle import RULES
from games.engine.scattle_bots import choose
from tests.engine.test_scattle import BOB_JUNK, table
from tests.engine.test_scattle_properties import action_key, tampered


def play_bots(levels: list[str], seed: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    state = RULES.new_game(len(levels), options, seed)
    for _ in range(20_000):
        seat = RULES.to_act(state)
        if seat is None:
            return state
        action = choose_action("scattle", state, seat, levels[seat], rng)
        assert action_key(action) in {action_key(a) for a in RULES.legal_actions(state, seat)}
        state, _ = RULES.apply(state, seat, action)
    raise AssertionError("the bots' game did not end")


def test_good_beats_random_clearly_over_300_games() -> None:
    results = {"good": 0, "random": 0, "shared": 0}
    for game in range(300):
        good = game % 2  # take turns at moving first
        levels = ["random", "random"]
        levels[good] = "good"
        winners = RULES.outcome(play_bots(levels, seed=game))["winners"]
        results["shared" if len(winners) > 1 else ("good" if winners == [good] else "random")] += 1
    assert results["good"] >= 0.8 * 300, results


def test_good_wins_most_games_against_two_random_players() -> None:
    wins = sum(
        RULES.outcome(play_bots(["random", "good", "random"], seed=game))["winners"] == [1] for game in range(60)
    )
    assert wins >= 40


@pytest.mark.parametrize("levels", [["good", "good"], ["good", "random", "good", "random"], ["random"] * 6])
def test_bots_only_play_legal_actions_whatever_the_options(levels: list[str]) -> None:
    rng = random.Random(len(levels))
    for game in range(15):
        deck_count = rng.choice([1, 2])
        options = {
            "deck_count": deck_count,
            "max_group_size": rng.randint(3, 4 * deck_count),
            "max_run_length": rng.randint(4, 13),
            "ace_in_runs": rng.choice(["low", "low_or_high", "wrap"]),
            "color_bonus_scope": rng.choice(["groups", "all_melds", "off"]),
            "lay_off": rng.choice(["none", "own"]),
            "scattle_final_discard": rng.choice(["optional", "forbidden"]),
            "target_score": rng.choice([None, 10, 25]),
            "deadwood_penalty": rng.random() < 0.5,
            "discard_retake_same_turn": rng.random() < 0.5,
            "tie_rule": rng.choice(["shared", "scattle_caller_wins_ties"]),
        }
        assert RULES.outcome(play_bots(levels, seed=game, options=options)) is not None


def test_the_good_bot_decides_from_what_its_seat_may_see() -> None:
    rng = random.Random(9)
    for game in range(10):
        state = RULES.new_game(3, None, seed=f"blind-{game}")
        while RULES.to_act(state) is not None:
            seat = RULES.to_act(state)
            fake = tampered(state, seat, rng)
            assert choose(fake, seat, "good", random.Random(1)) == choose(state, seat, "good", random.Random(1))
            state, _ = RULES.apply(state, seat, choose(state, seat, "good", rng))


def test_a_bot_is_not_asked_to_move_out_of_turn() -> None:
    state = RULES.new_game(2, {"first_player": 0}, seed=1)
    with pytest.raises(IllegalAction) as error:
        choose(state, 1, "good", random.Random(0))
    assert error.value.code == "not_your_turn"


# --------------------------------------------------------------------------------------------
# How the good bot plays


def good(state: dict[str, Any], seat: int = 0) -> dict[str, Any]:
    return choose(json.loads(json.dumps(state)), seat, "good", random.Random(0))


def test_the_good_bot_takes_a_discard_that_completes_a_meld() -> None:
    state = table([["7H", "7D", "2S", "5D", "JC"], BOB_JUNK], stock=["KD"], discard=["3C", "7C"])
    assert good(state) == {"type": "draw_discard"}


def test_the_good_bot_draws_from_the_stock_when_the_discard_does_not_help() -> None:
    state = table([["7H", "7D", "2S", "5D", "JC"], BOB_JUNK], stock=["KD"], discard=["3C", "9S"])
    assert good(state) == {"type": "draw_stock"}


def test_the_good_bot_melds_what_it_can() -> None:
    state = table([["7H", "7D", "7C", "2S", "5D", "JC"], BOB_JUNK], phase="play", stock=["KD", "TC", "4S"])
    assert good(state) == {"type": "meld", "cards": ["7H", "7D", "7C"]}


def test_the_good_bot_prefers_the_two_melds_over_the_bigger_one() -> None:
    state = table(
        [["7S", "7H", "7D", "7C", "8S", "9S"], BOB_JUNK], phase="play", scores=[0, 0], stock=["KD", "TC", "4D"]
    )
    assert good(state)["cards"] in (["7H", "7D", "7C"], ["7S", "8S", "9S"])


def test_the_good_bot_calls_scattle_when_ahead() -> None:
    state = table([["7H", "7D", "7C", "4S", "5S", "6S"], BOB_JUNK], phase="play", scores=[3, 4], stock=["KD"])
    first = good(state)
    state, _ = RULES.apply(state, 0, first)
    state, _ = RULES.apply(state, 0, good(state))
    assert RULES.outcome(state)["reason"] == "scattle" and RULES.outcome(state)["winners"] == [0]


def test_the_good_bot_avoids_scattle_when_behind() -> None:
    state = table(
        [["7H", "7D", "7C", "4S", "5S", "6S"], BOB_JUNK], phase="play", scores=[3, 12], stock=["KD", "TC", "4D"]
    )
    state, _ = RULES.apply(state, 0, good(state))
    assert good(state)["type"] == "discard"


def test_the_good_bot_plays_the_meld_that_reaches_the_target() -> None:
    state = table([["7H", "7D", "7C", "4S", "5S", "6S"], BOB_JUNK], phase="play", scores=[22, 24], stock=["KD"])
    state, _ = RULES.apply(state, 0, good(state))
    assert RULES.outcome(state)["reason"] == "target" and RULES.outcome(state)["winners"] == [0]


def test_the_good_bot_keeps_pairs_and_run_fragments_and_discards_a_loner() -> None:
    state = table([["7H", "7D", "4S", "5S", "JC", "9D"], BOB_JUNK], phase="play", stock=["KD"])
    assert good(state) == {"type": "discard", "card": "JC"}


ONE_DECK = {"deck_count": 1}


def test_the_good_bot_takes_an_up_card_that_makes_a_pair_when_it_holds_a_loner() -> None:
    # 2C pairs with 2S (2H and 2D may still come); JC or 5D can go instead.
    state = table([["7H", "7D", "2S", "5D", "JC"], BOB_JUNK], stock=["KD"], discard=["4H", "2C"], options=ONE_DECK)
    assert good(state) == {"type": "draw_discard"}


def test_the_good_bot_discards_the_loner_whose_partners_are_gone() -> None:
    # Every 2 and the hearts around 2H but the ace are melded; KC still has its kings and clubs.
    bob_melds = [
        {"kind": "group", "cards": ["2S", "2D", "2C"], "points": 3},
        {"kind": "run", "cards": ["3H", "4H", "5H"], "points": 3},
    ]
    state = table(
        [["7H", "7D", "9S", "TS", "KC", "2H"], BOB_JUNK],
        phase="play",
        stock=["8D"],
        scores=[0, 6],
        melds=[[], bob_melds],
        options=ONE_DECK,
    )
    assert good(state) == {"type": "discard", "card": "2H"}
