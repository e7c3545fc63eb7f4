"""Scat properties over random games: random options, 2 to 9 seats, random moves and resignations."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.cards import DECK
from games.engine.errors import IllegalAction
from games.engine.scat import RULES, TIE_RULES

State = dict[str, Any]
# A random game that runs longer than this is stuck. Nine seats, a 21-point knock minimum and rare
# knocking make honest random games of 5,000 to over 20,000 actions (mean about 10,000).
MAX_ACTIONS = 100_000

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "initial_tokens": st.integers(1, 3),
        "on_the_county": st.booleans(),
        "knocker_sole_lowest_loss": st.sampled_from([1, 2]),
        "knocker_tie_rule": st.sampled_from(TIE_RULES),
        "thirty_one_knocker_loss": st.sampled_from([1, 2]),
        "three_of_a_kind_value": st.sampled_from([None, 30, 30.5]),
        "straight_flush_value": st.sampled_from([None, 30]),
        "straight_flush_ace_low": st.booleans(),
        "min_knock_score": st.sampled_from([None, 12, 17, 21]),
        "knock_allowed_first_round": st.booleans(),
        "allow_stand_after_knock": st.booleans(),
        "throw_down": st.booleans(),
        "stock_exhausted": st.sampled_from(["rebuild", "void_hand"]),
        "stock_rebuild_order": st.sampled_from(["shuffle", "turn_over"]),
    },
)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    num_seats = draw(st.integers(2, 9))
    options = draw(OPTIONS)
    options["first_dealer"] = draw(st.one_of(st.just("random"), st.integers(0, num_seats - 1)))
    return {
        "num_seats": num_seats,
        "options": options,
        "seed": draw(st.one_of(st.integers(0, 2**40), st.text(max_size=8))),
        "moves_seed": draw(st.integers(0, 2**32)),
        # Rarely knocking makes long hands that empty the stock; often knocking makes many short hands.
        "knock_weight": draw(st.sampled_from([0.02, 0.3, 1.0])),
        "resign_rate": draw(st.sampled_from([0.0, 0.002, 0.02])),
    }


def random_move(state: State, rng: random.Random, knock_weight: float, resign_rate: float) -> tuple[int, Any]:
    """(seat, action), or (seat, "resign") for a resignation by anybody still in."""
    if rng.random() < resign_rate:
        live = [s for s, out in enumerate(state["eliminated"]) if not out]
        return rng.choice(live), "resign"
    seat = RULES.to_act(state)
    legal = RULES.legal_actions(state, seat)
    weights = [knock_weight if a["type"] in ("knock", "throw_down", "stand") else 1.0 for a in legal]
    return seat, rng.choices(legal, weights)[0]


def step(state: State, seat: int, move: Any) -> tuple[State, list[dict]]:
    return RULES.resign(state, seat) if move == "resign" else RULES.apply(state, seat, move)


def play_out(game: dict[str, Any], check=None) -> tuple[State, list[tuple[int, Any]]]:
    """Play a random game to its end, calling check(before, after, events) after every move."""
    rng = random.Random(game["moves_seed"])
    state = RULES.new_game(game["num_seats"], game["options"], game["seed"])
    if check:
        check(None, state, state["deal_events"])
    log: list[tuple[int, Any]] = []
    while RULES.to_act(state) is not None:
        assert len(log) < MAX_ACTIONS, "the game did not end"
        seat, move = random_move(state, rng, game["knock_weight"], game["resign_rate"])
        before = state
        state, events = step(state, seat, move)
        log.append((seat, move))
        if check:
            check(before, state, events)
    return state, log


_CARD_STRING = re.compile(r'"([A2-9TJQK][SHDC])"')


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere inside a JSON-like value (keys included: a leak is a leak)."""
    return set(_CARD_STRING.findall(json.dumps(value)))


def assert_cards_in_one_place(state: State) -> None:
    places = [c for hand in state["hands"] for c in hand] + state["stock"] + state["discard"] + state["out_of_play"]
    assert Counter(places) == Counter(DECK)


SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(games())
def test_every_card_is_in_exactly_one_place_and_tokens_are_conserved_at_all_times(game):
    total = game["num_seats"] * RULES.validate_options(game["options"])["initial_tokens"]

    def check(before, state, events):
        assert_cards_in_one_place(state)
        assert sum(state["tokens"]) + state["kitty"] == total
        assert all(t >= 0 for t in state["tokens"])
        live = [s for s, out in enumerate(state["eliminated"]) if not out]
        if RULES.to_act(state) is not None:
            assert all(state["hands"][s] == [] for s in range(state["num_seats"]) if s not in live)
            assert state["active"] in live
            assert len(state["hands"][state["active"]]) == (4 if state["phase"] == "must_discard" else 3)

    state, _ = play_out(game, check)
    outcome = RULES.outcome(state)
    assert outcome["reason"] in ("last_player", "resignation")
    assert len(outcome["winners"]) == 1 and outcome["places"][outcome["winners"][0]] == 1
    assert sorted(outcome["places"])[0] == 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_no_view_and_no_event_shows_a_seat_a_card_it_may_not_see(game):
    num_seats = game["num_seats"]
    viewers: list[int | None] = [*range(num_seats), None]
    # What each viewer may know, built from the full events: reset at every deal.
    seen: dict[int | None, set[str]] = {v: set() for v in viewers}

    def learn(event: dict) -> None:
        kind = event["type"]
        if kind == "deal":
            for v in viewers:
                hand = event["hands"][v] if v is not None else None
                seen[v] = {event["up_card"], *(hand or [])}
        elif kind == "draw_stock":
            seen[event["seat"]].add(event["card"])
        elif kind in ("draw_discard", "discard", "thirty_one", "showdown"):
            for v in viewers:
                seen[v] |= cards_in(event)

    # The opening events (version 0), which every view keeps showing: whatever they showed each viewer.
    opening: dict[int | None, set[str]] = {v: set() for v in viewers}

    def check(before, state, events):
        for event in events:
            learn(event)
            if before is None:
                for v in viewers:
                    opening[v] |= seen[v]
            for v in viewers:
                shown = RULES.view_events([event], v)[0]
                assert shown["type"] == event["type"]
                assert cards_in(shown) <= seen[v], (event, v)
        for v in viewers:
            view = RULES.view(state, v)
            assert "secret" not in view and "stock" not in view and "seed" not in json.dumps(view)
            assert view["last_showdown"] == state["last_showdown"]
            assert view["outcome"] == state["outcome"]
            own = set(state["hands"][v]) if v is not None else set()
            assert cards_in(view["opening_events"]) <= opening[v], v
            assert cards_in(view["deal_events"]) <= seen[v], v  # the latest deal's, seen since that deal
            rest = {k: x for k, x in view.items() if k not in ("last_showdown", "deal_events", "opening_events")}
            assert cards_in(rest) <= seen[v] | own, v
            assert view["hand"] == (None if v is None else state["hands"][v])
            json.dumps(view)

    play_out(game, check)


@QUICK
@given(games())
def test_replaying_the_moves_from_the_seed_gives_the_same_game(game):
    state, log = play_out(game)
    replay = RULES.new_game(game["num_seats"], game["options"], game["seed"])
    for seat, move in log:
        replay, _ = step(replay, seat, move)
    assert json.dumps(replay, sort_keys=True) == json.dumps(state, sort_keys=True)


@QUICK
@given(games())
def test_every_state_survives_a_json_round_trip_and_apply_never_changes_its_input(game):
    def check(before, state, events):
        assert RULES.from_json(json.loads(json.dumps(RULES.to_json(state)))) == state
        json.dumps(events)
        if before is not None:
            assert json.dumps(before, sort_keys=True) == snapshot[0]
        snapshot[0] = json.dumps(state, sort_keys=True)

    snapshot = [""]
    play_out(game, check)


@QUICK
@given(games(), st.integers(0, 2**32))
def test_exactly_the_legal_actions_are_accepted_and_a_refused_one_changes_nothing(game, probe_seed):
    probe = random.Random(probe_seed)
    candidates: list[Any] = [{"type": t} for t in ("draw_stock", "draw_discard", "knock", "stand", "throw_down")]
    candidates += [{"type": "discard", "card": c} for c in DECK]
    candidates += [{"type": "meld", "cards": ["3H", "4H", "5H"]}, {"type": "discard"}, {"type": 7}, "knock", None]

    def check(before, state, events):
        if probe.random() > 0.15:
            return
        snapshot = json.dumps(state, sort_keys=True)
        to_act = RULES.to_act(state)
        for seat in range(state["num_seats"]):
            legal = RULES.legal_actions(state, seat)
            if seat != to_act:
                assert legal == []
            for action in probe.sample(candidates, 12) + legal[:2]:
                if action in legal:
                    RULES.apply(state, seat, action)
                else:
                    try:
                        RULES.apply(state, seat, action)
                    except IllegalAction as error:
                        assert error.code and error.message
                    else:
                        raise AssertionError(f"{action} was accepted but is not legal for seat {seat}")
        assert json.dumps(state, sort_keys=True) == snapshot

    state, _ = play_out(game, check)
    for seat in range(game["num_seats"]):
        assert RULES.legal_actions(state, seat) == []
        try:
            RULES.apply(state, seat, {"type": "draw_stock"})
        except IllegalAction as error:
            assert error.code == "game_over"
        else:
            raise AssertionError("a move was accepted after the end")
