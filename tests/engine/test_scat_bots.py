"""Scat bots: the good bot beats the random one, no bot plays an illegal move, and no bot cheats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine.bots import choose_action
from games.engine.cards import DECK
from games.engine.errors import IllegalAction
from games.engine.scat import RULES
from games.engine.scat_bots import choose

State = dict[str, Any]


def play_game(levels: list[str], options: dict | None, seed: str, rng: random.Random) -> State:
    state = RULES.new_game(len(levels), options, seed)
    while (seat := RULES.to_act(state)) is not None:
        action = choose_action("scat", state, seat, levels[seat], rng)
        assert action in RULES.legal_actions(state, seat)
        state, _ = RULES.apply(state, seat, action)
    return state


def wins_of_good(levels: list[str], games: int) -> float:
    """Share of games won by the good bot; seats rotate so the first move is no advantage."""
    rng = random.Random(31)
    wins = 0
    for game in range(games):
        turn = game % len(levels)
        seated = levels[turn:] + levels[:turn]
        state = play_game(seated, None, f"bots-{game}", rng)
        (winner,) = RULES.outcome(state)["winners"]
        wins += seated[winner] == "good"
    return wins / games


def test_the_good_bot_beats_the_random_bot_clearly_head_to_head():
    assert wins_of_good(["good", "random"], 300) >= 0.85


def test_the_good_bot_wins_far_more_than_its_share_against_three_random_bots():
    assert wins_of_good(["good", "random", "random", "random"], 100) >= 0.6


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"throw_down": True, "min_knock_score": 21},
        {"allow_stand_after_knock": True, "knock_allowed_first_round": False},
        {"stock_exhausted": "void_hand", "three_of_a_kind_value": 30.5, "straight_flush_value": 30},
        {"stock_rebuild_order": "turn_over", "on_the_county": False, "initial_tokens": 1},
    ],
)
def test_bots_of_every_level_only_ever_choose_legal_actions_whatever_the_options(options):
    rng = random.Random(5)
    for game in range(12):
        seats = 2 + game % 8
        levels = [rng.choice(["good", "random"]) for _ in range(seats)]
        state = play_game(levels, options, f"legal-{game}", rng)
        assert RULES.outcome(state) is not None


def test_a_bot_asked_to_move_out_of_turn_refuses():
    state = RULES.new_game(3, {"first_dealer": 2}, "x")
    with pytest.raises(IllegalAction) as caught:
        choose(state, 1, "good", random.Random(1))
    assert caught.value.code == "not_your_turn"


def test_the_good_bot_decides_the_same_whatever_the_cards_it_cannot_see():
    """Shuffle the other hands and the stock among themselves: the bot's choice must not change."""
    rng = random.Random(8)
    checked = 0
    for game in range(30):
        state = RULES.new_game(4, None, f"blind-{game}")
        for _ in range(rng.randrange(0, 40)):
            if RULES.to_act(state) is None:
                break
            seat = RULES.to_act(state)
            state, _ = RULES.apply(state, seat, choose(state, seat, "random", rng))
        seat = RULES.to_act(state)
        if seat is None:
            continue
        hidden = [c for s, h in enumerate(state["hands"]) if s != seat for c in h] + state["stock"]
        rng.shuffle(hidden)
        hands, rest = [], iter(hidden)
        for s, hand in enumerate(state["hands"]):
            hands.append(hand if s == seat else [next(rest) for _ in hand])
        other = {**state, "hands": hands, "stock": list(rest)}
        assert sorted([c for h in other["hands"] for c in h] + other["stock"] + other["discard"]) == sorted(DECK)
        seed = rng.random()
        assert choose(state, seat, "good", random.Random(seed)) == choose(other, seat, "good", random.Random(seed))
        checked += 1
    assert checked >= 20


def test_the_good_bot_takes_a_discard_that_makes_thirty_one():
    state = RULES.new_game(2, {"first_dealer": 1}, "take")
    others = [c for c in DECK if c not in ("AS", "KS", "2H", "QS", "9D", "8C", "4H")]
    state = {
        **state,
        "hands": [["AS", "KS", "2H"], ["9D", "8C", "4H"]],
        "discard": ["QS"],
        "stock": others,
        "out_of_play": [],
    }
    assert choose(state, 0, "good", random.Random(1)) == {"type": "draw_discard"}
    state, _ = RULES.apply(state, 0, {"type": "draw_discard"})
    assert choose(state, 0, "good", random.Random(1)) == {"type": "discard", "card": "2H"}


def test_the_good_bot_knocks_with_a_strong_hand_and_not_with_a_weak_one():
    state = RULES.new_game(2, {"first_dealer": 1}, "knock")
    # Give seat 0 a strong or a weak hand, keeping every card in exactly one place.
    for hand, knocks in ((["AH", "KH", "9H"], True), (["2C", "5D", "8S"], False)):
        rest = [c for c in DECK if c not in hand and c not in state["discard"]]
        position = {**state, "hands": [hand, rest[:3]], "stock": rest[3:], "out_of_play": []}
        action = choose(position, 0, "good", random.Random(1))
        assert (action == {"type": "knock"}) is knocks
