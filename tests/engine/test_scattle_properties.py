"""Scattle! properties over random games with random options: cards, secrets, replays, storage, errors."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalAction
from games.engine.cards import DECK, is_card
from games.engine.scattle import RULES, find_melds, meld_kind, meld_points

# Uniform random play ends in a few hundred actions (the longest of 2,000 measured: ~4,000, two decks and
# no target). Nothing bounds a game where everybody keeps taking the discard, so this is a generous cap.
MAX_ACTIONS = 20_000

PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def game_setups(draw: st.DrawFn) -> dict[str, Any]:
    seats = draw(st.integers(2, 8))
    deck_count = 2 if seats > 6 else draw(st.sampled_from([1, 2]))
    options = {
        "deck_count": deck_count,
        "hand_size": draw(st.integers(2, min(8, (52 * deck_count - 1) // seats))),
        "max_group_size": draw(st.integers(3, 4 * deck_count)),
        "max_run_length": draw(st.integers(4, 13)),
        "ace_in_runs": draw(st.sampled_from(["low", "low_or_high", "wrap"])),
        "color_bonus_scope": draw(st.sampled_from(["groups", "all_melds", "off"])),
        "color_bonus_multiplier": draw(st.integers(1, 3)),
        "lay_off": draw(st.sampled_from(["none", "own"])),
        "scattle_final_discard": draw(st.sampled_from(["optional", "forbidden"])),
        "target_score": draw(st.one_of(st.none(), st.integers(5, 40))),
        "deadwood_penalty": draw(st.booleans()),
        "discard_retake_same_turn": draw(st.booleans()),
        "stock_rebuild_order": draw(st.sampled_from(["shuffle", "turn_over"])),
        "stalemate_end": draw(st.booleans()),
        "first_player": draw(st.one_of(st.just("random"), st.integers(0, seats - 1))),
        "tie_rule": draw(st.sampled_from(["shared", "scattle_caller_wins_ties"])),
    }
    rebuilds = st.integers(0, 3) if not options["stalemate_end"] else st.one_of(st.none(), st.integers(0, 3))
    options["max_stock_rebuilds"] = draw(rebuilds)
    # Leave most options at their defaults now and then, so the default game is well covered too.
    if draw(st.booleans()):
        options = {key: value for key, value in options.items() if key in ("deck_count", "hand_size")}
    return {
        "seats": seats,
        "options": options,
        "seed": draw(st.one_of(st.integers(0, 2**40), st.text("abcxyz0123/-", min_size=1, max_size=10))),
        "chooser": draw(st.integers(0, 2**32)),
        "resign_rate": draw(st.sampled_from([0.0, 0.0, 0.002, 0.02])),
        # Uniform play rarely melds; meld-hungry play reaches targets, Scattle! and lay-offs.
        "meld_bias": draw(st.sampled_from([0.0, 0.9])),
    }


Step = Callable[[dict[str, Any], dict[str, Any], list[dict[str, Any]], tuple], None]


def play_random_game(setup: dict[str, Any], on_step: Step | None = None) -> tuple[dict[str, Any], list[tuple]]:
    """Play uniformly random legal actions (and the odd resignation) to the end; return state and moves."""
    rng = random.Random(setup["chooser"])
    state = RULES.new_game(setup["seats"], setup["options"], setup["seed"])
    moves: list[tuple] = []
    while RULES.to_act(state) is not None:
        assert len(moves) < MAX_ACTIONS, "the game did not end"
        if rng.random() < setup["resign_rate"]:
            seat = rng.choice([s for s in range(setup["seats"]) if state["in_game"][s]])
            move: tuple = ("resign", seat)
            new_state, events = RULES.resign(state, seat)
        else:
            seat = RULES.to_act(state)
            legal = RULES.legal_actions(state, seat)
            melds = [action for action in legal if action["type"] in ("meld", "lay_off")]
            action = rng.choice(melds if melds and rng.random() < setup["meld_bias"] else legal)
            move = ("act", seat, action)
            new_state, events = RULES.apply(state, seat, action)
        if on_step is not None:
            on_step(state, new_state, events, move)
        moves.append(move)
        state = new_state
    return state, moves


def replay(setup: dict[str, Any], moves: list[tuple]) -> dict[str, Any]:
    state = RULES.new_game(setup["seats"], setup["options"], setup["seed"])
    for move in moves:
        state, _ = RULES.resign(state, move[1]) if move[0] == "resign" else RULES.apply(state, move[1], move[2])
    return state


# --------------------------------------------------------------------------------------------
# What the checks look at


def all_cards(state: dict[str, Any]) -> Counter[str]:
    cards: Counter[str] = Counter(state["stock"]) + Counter(state["discard"])
    for hand in state["hands"]:
        cards.update(hand)
    for melds in state["melds"]:
        for meld in melds:
            cards.update(meld["cards"])
    return cards  # Scattle keeps no out-of-play pile: a resigner's hand goes under the stock


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere inside a JSON-like value."""
    if isinstance(value, str):
        return {value} if is_card(value) else set()
    if isinstance(value, dict):
        return set().union(*(cards_in(item) for item in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(cards_in(item) for item in value)) if value else set()
    return set()


def visible_cards(state: dict[str, Any], seat: int | None) -> set[str]:
    """What `seat` may see: own hand and dealt hand, the discard pile, every meld, the up-card, the card
    just taken from the discard pile, and every hand once the game is over."""
    visible = set(state["discard"]) | {state["deal_events"][0]["up_card"]}
    for melds in state["melds"]:
        for meld in melds:
            visible.update(meld["cards"])
    if state["taken_from_discard"]:
        visible.add(state["taken_from_discard"])
    if seat is not None:
        visible.update(state["hands"][seat])
        visible.update(state["deal_events"][0]["hands"][seat])
    if state["phase"] == "over":
        for hand in state["hands"]:
            visible.update(hand)
    return visible


def tampered(state: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    """The same game as `seat` sees it, with every secret changed: the other hands and the stock
    dealt afresh from their own cards, other dealt hands made up, another seed."""
    other = [s for s in range(state["num_seats"]) if s != seat]
    hidden = list(state["stock"]) + [card for s in other for card in state["hands"][s]]
    rng.shuffle(hidden)
    fake = json.loads(json.dumps(state))
    fake["stock"] = [hidden.pop() for _ in state["stock"]]
    for s in other:
        fake["hands"][s] = [hidden.pop() for _ in state["hands"][s]]
    deal = fake["deal_events"][0]
    deal["hands"] = [hand if s == seat else [rng.choice(DECK) for _ in hand] for s, hand in enumerate(deal["hands"])]
    fake["secret"] = {"seed": "another seed", "shuffles": state["secret"]["shuffles"] + 7}
    return fake


PRIVATE_FIELDS = {"draw_stock": "card", "refill": "cards"}


def expected_event_view(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    shown = json.loads(json.dumps(event))
    if event["type"] == "deal":
        shown["hands"] = [hand if s == seat else None for s, hand in enumerate(event["hands"])]
    elif event["type"] in PRIVATE_FIELDS and event["seat"] != seat:
        shown[PRIVATE_FIELDS[event["type"]]] = None
    return shown


def action_key(action: dict[str, Any]) -> tuple:
    if action["type"] == "meld":
        return ("meld", tuple(sorted(action["cards"])))
    return (action["type"], action.get("card"), action.get("meld"))


def candidate_actions(state: dict[str, Any], seat: int, rng: random.Random) -> list[Any]:
    """Plausible and implausible actions for `seat`, legal or not."""
    hand = state["hands"][seat]
    some_cards = hand + [rng.choice(DECK) for _ in range(3)]
    candidates: list[Any] = [{"type": "draw_stock"}, {"type": "draw_discard"}, {"type": "knock"}, {"cards": []}, None]
    candidates += [{"type": "discard", "card": card} for card in some_cards]
    for size in (1, 2, 3, 3, 4, 5):
        if len(hand) >= size:
            candidates.append({"type": "meld", "cards": rng.sample(hand, size)})
    for index in (-1, 0, 1, 5):
        candidates.append({"type": "lay_off", "card": rng.choice(some_cards), "meld": index})
    candidates += [{"type": "meld", "cards": "7H 7D 7C"}, {"type": "discard", "card": "1Z"}]
    return candidates


# --------------------------------------------------------------------------------------------
# The properties


@PROPERTY_SETTINGS
@given(game_setups())
def test_random_games_keep_every_card_in_one_place_and_every_secret_hidden(setup: dict[str, Any]) -> None:
    rng = random.Random(setup["chooser"] + 1)
    deck = Counter(DECK * RULES.validate_options(setup["options"])["deck_count"])

    def check(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], move: tuple) -> None:
        assert all_cards(after) == deck
        if after["phase"] == "draw":  # the refill model: between turns every hand is full
            size = after["options"]["hand_size"]
            assert all(len(h) == size for s, h in enumerate(after["hands"]) if after["in_game"][s])
        viewers: list[int | None] = [None, *range(after["num_seats"])]
        spot_checked = rng.choice(viewers)  # one viewer per position: the full tamper test is costly
        for seat in viewers:
            view = RULES.view(after, seat)
            json.dumps(view)
            assert cards_in(view) <= visible_cards(after, seat)
            assert "secret" not in view and "stock" not in view
            if seat == spot_checked and after["phase"] != "over":
                assert RULES.view(tampered(after, seat, rng), seat) == view
            for event, shown in zip(events, RULES.view_events(events, seat), strict=True):
                assert shown == expected_event_view(event, seat)
        json.dumps(events)

    final, _ = play_random_game(setup, check)
    assert all_cards(final) == deck
    outcome = RULES.outcome(final)
    assert outcome["reason"] in ("target", "scattle", "exhaustion", "stalemate", "resignation")
    assert sorted(outcome["winners"]) == [s for s, place in enumerate(outcome["places"]) if place == 1]
    assert outcome["winners"] and all(final["in_game"][s] for s in outcome["winners"])


@PROPERTY_SETTINGS
@given(game_setups())
def test_replaying_the_moves_from_the_seed_gives_the_same_game(setup: dict[str, Any]) -> None:
    final, moves = play_random_game(setup)
    assert RULES.to_json(replay(setup, moves)) == RULES.to_json(final)


@PROPERTY_SETTINGS
@given(game_setups())
def test_storing_a_game_as_json_loses_nothing_and_apply_never_changes_its_input(setup: dict[str, Any]) -> None:
    def check(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], move: tuple) -> None:
        stored = json.loads(json.dumps(RULES.to_json(after)))
        restored = RULES.from_json(stored)
        assert restored == after
        assert RULES.to_json(restored) == stored
        # Applying the same move to the stored copy of `before` gives the same result and leaves it alone.
        copy_before = RULES.from_json(json.loads(json.dumps(RULES.to_json(before))))
        snapshot = RULES.to_json(copy_before)
        if move[0] == "resign":
            again, again_events = RULES.resign(copy_before, move[1])
        else:
            again, again_events = RULES.apply(copy_before, move[1], move[2])
        assert RULES.to_json(copy_before) == snapshot
        assert again == after and again_events == events

    play_random_game(setup, check)


@PROPERTY_SETTINGS
@given(game_setups())
def test_every_listed_action_is_accepted_and_every_other_is_refused_without_a_change(setup: dict[str, Any]) -> None:
    rng = random.Random(setup["chooser"] + 2)

    def check(before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], move: tuple) -> None:
        if rng.random() > 0.25:  # a sample of the positions keeps the run short
            return
        snapshot = RULES.to_json(after)
        seats = {rng.randrange(after["num_seats"])}
        if RULES.to_act(after) is not None:
            seats.add(RULES.to_act(after))
        for seat in seats:
            legal = {action_key(action) for action in RULES.legal_actions(after, seat)}
            if seat != RULES.to_act(after):
                assert not legal
            for action in candidate_actions(after, seat, rng):
                try:
                    RULES.apply(after, seat, action)
                except IllegalAction as error:
                    assert error.code and error.message
                    assert not (isinstance(action, dict) and "type" in action and action_key(action) in legal)
                else:
                    assert action_key(action) in legal, action
        assert RULES.to_json(after) == snapshot

    play_random_game(setup, check)


@settings(max_examples=150, deadline=None)
@given(game_setups())
def test_random_games_end_within_the_bound(setup: dict[str, Any]) -> None:
    final, moves = play_random_game(setup)
    assert RULES.to_act(final) is None and len(moves) < MAX_ACTIONS


# Cards crowded round the corner of the hearts and round the sevens, so that melds are common.
DENSE = ["AH", "2H", "3H", "4H", "5H", "JH", "QH", "KH", "TH", "7H", "7D", "7C", "7S", "6H", "8H", "KD", "AD"]
crowded_cards = st.one_of(st.sampled_from(DECK), st.sampled_from(DENSE), st.sampled_from(DENSE))


@settings(max_examples=300, deadline=None)
@given(
    hand=st.lists(crowded_cards, min_size=0, max_size=10),
    twins=st.lists(crowded_cards, max_size=4),
    setup=game_setups(),
)
def test_find_melds_lists_exactly_the_valid_sub_multisets_of_a_hand(
    hand: list[str], twins: list[str], setup: dict[str, Any]
) -> None:
    options = RULES.validate_options(setup["options"])
    if options["deck_count"] == 2:
        hand = hand + [card for card in twins if hand.count(card) < 2]
    else:
        hand = list(dict.fromkeys(hand))
    brute = set()
    for size in range(3, len(hand) + 1):
        for combo in combinations(hand, size):
            if meld_kind(list(combo), options):
                brute.add(tuple(sorted(combo)))
    found = [tuple(sorted(meld)) for meld in find_melds(hand, options)]
    assert len(found) == len(set(found))  # each multiset once
    assert set(found) == brute
    for meld in find_melds(hand, options):
        assert meld_points(meld, options) > 0
