"""from_json reads a stored state only once every part the rules read has been checked: a malformed
secret, a card that is no card or one that is there twice is refused at once, by a BadState that says
what is wrong, never by a KeyError several moves later."""

from __future__ import annotations

import json

import pytest

from games.engine import get_rules
from games.engine.errors import BadState, IllegalAction

SCAT = get_rules("scat")
SCATTLE = get_rules("scattle")


def stored(rules, seats: int = 2) -> dict:
    return json.loads(json.dumps(rules.to_json(rules.new_game(seats, None, "stored"))))


def first_card(data: dict) -> str:
    return data["hands"][0][0]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s.update(secret={}), "secret part must hold exactly 'seed' and 'shuffles'"),
        (lambda s: s.update(secret={"seed": None, "shuffles": 1}), "seed is neither"),
        (lambda s: s.update(secret={"seed": "x", "shuffles": -1}), "count of shuffles"),
        (lambda s: s["hands"][0].__setitem__(0, "QQ"), "'hands' holds \"QQ\", which is no card"),
        (lambda s: s["stock"].append("QQ"), "'stock' holds \"QQ\", which is no card"),
        (lambda s: s["discard"].append("qs"), "'discard' holds \"qs\", which is no card"),
        (lambda s: s["hands"].__setitem__(1, "AS KS"), "'hands' holds \"AS KS\" for seat 1"),
        (lambda s: s["stock"].append(first_card(s)), "is in it 2 times with 1 deck(s)"),
        (lambda s: s["hands"][0].extend([s["stock"].pop(), s["stock"].pop()]), "more than four cards"),
        (lambda s: s.update(taken_from_discard="ZZ"), "'taken_from_discard' is \"ZZ\", which is no card"),
        (lambda s: s.update(active=5), "'active' is 5, not a seat of 2"),
        (lambda s: s.update(num_seats=12), "'num_seats' is 12, not 2 to 9"),
        (lambda s: s.update(phase="dancing"), "'phase' is \"dancing\""),
        (lambda s: s["tokens"].__setitem__(0, -2), "'tokens' holds -2 for seat 0"),
        (lambda s: s["options"].update(initial_tokens="three"), "its options are refused"),
        (lambda s: s["deal_events"][0].pop("hands"), "a deal in 'deal_events' has no hand per seat"),
        (lambda s: s["deal_events"].append("deal"), "'deal_events' holds \"deal\", which is no event"),
    ],
)
def test_scat_from_json_refuses_a_bad_state_saying_what_is_wrong(change, says: str) -> None:
    data = stored(SCAT)
    change(data)
    with pytest.raises(BadState) as refused:
        SCAT.from_json(data)
    assert refused.value.code == "bad_state"
    assert says in refused.value.message
    assert refused.value.message.startswith("This is not a stored Scat game")


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda s: s.update(secret={}), "secret part"),
        (lambda s: s["stock"].append("QQ"), "'stock' holds \"QQ\""),
        (lambda s: s["hands"][1].append(7), "'hands' holds 7"),
        (lambda s: s["melds"][0].append({"kind": "group", "cards": ["7H", "7D", "1C"], "points": 3}), '"1C"'),
        (lambda s: s["melds"][0].append({"cards": ["7H"]}), "'melds' holds"),
        (lambda s: s.update(turn=3), "'turn' is 3, not a seat of 2"),
        (lambda s: s.update(resigned=[4]), "'resigned' is [4]"),
        (lambda s: s["options"].update(deck_count=3), "its options are refused"),
    ],
)
def test_scattle_from_json_refuses_a_bad_state_saying_what_is_wrong(change, says: str) -> None:
    data = stored(SCATTLE)
    change(data)
    with pytest.raises(BadState) as refused:
        SCATTLE.from_json(data)
    assert says in refused.value.message


def test_a_card_held_three_times_is_refused_even_with_two_decks() -> None:
    data = stored(SCATTLE, seats=7)  # two decks at seven seats
    assert data["options"]["deck_count"] == 2
    data["stock"].append(first_card(data))  # its twin is somewhere in the game too
    with pytest.raises(BadState, match="3 times with 2 deck"):
        SCATTLE.from_json(data)


@pytest.mark.parametrize("rules", [SCAT, SCATTLE], ids=["scat", "scattle"])
def test_a_good_state_reads_back_as_it_was_stored_and_plays_on(rules) -> None:
    data = stored(rules, seats=3)
    state = rules.from_json(data)
    assert state == data
    seat = rules.to_act(state)
    state, _ = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    assert rules.from_json(rules.to_json(state)) == state


def test_bad_state_is_an_illegal_action_for_callers_that_catch_those() -> None:
    assert issubclass(BadState, IllegalAction)
