"""Standing orders: checking them, every condition and action, and that they read the view alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.engine import get_rules
from games.engine.orders import (
    CONDITIONS,
    MAX_RULES,
    PRESETS,
    BadOrders,
    legal_actions_from_view,
    preset_orders,
    standing_order_action,
    validate_orders,
)
from games.engine.scattle import meld_points

SCAT = get_rules("scat")
SCATTLE = get_rules("scattle")


def scat_view(hand: list[str], discard: list[str], **facts: Any) -> dict[str, Any]:
    """Seat 0's view of a two-seat Scat table laid out by hand."""
    state = SCAT.new_game(2, {}, "orders")
    state.update(hands=[list(hand), ["2C", "3C", "4C"]], discard=list(discard), active=0, **facts)
    return SCAT.view(state, 0)


def scattle_view(
    hand: list[str], discard: list[str], *, phase: str = "draw", options: dict[str, Any] | None = None, **facts: Any
) -> dict[str, Any]:
    """Seat 0's view of a two-seat Scattle table laid out by hand."""
    state = SCATTLE.new_game(2, options or {}, "orders")
    state.update(
        hands=[list(hand), ["2C", "3C", "4C", "5D", "9S"]], discard=list(discard), turn=0, phase=phase, **facts
    )
    return SCATTLE.view(state, 0)


def act(kind: str, view: dict[str, Any], *rules: dict[str, Any], rated: bool = False) -> dict[str, Any] | None:
    return standing_order_action(kind, view, validate_orders(kind, {"rules": list(rules)}, rated=rated))


def rule(do: dict[str, Any], **when: Any) -> dict[str, Any]:
    return {"when": when, "do": do}


DRAW_STOCK = {"type": "draw_stock"}
DRAW_DISCARD = {"type": "draw_discard"}


# --- checking orders ----------------------------------------------------------------------------


def test_presets_are_valid_orders_and_good_is_for_unrated_games_only() -> None:
    for kind, presets in PRESETS.items():
        for name in presets:
            validate_orders(kind, preset_orders(kind, name), rated=name != "good")
        with pytest.raises(BadOrders) as caught:
            validate_orders(kind, preset_orders(kind, "good"), rated=True)
        assert caught.value.errors == {
            "rules[0].do.policy": ['"good" plays as the good bot would: only in unrated games, like advice.']
        }


def test_errors_name_the_rule_and_the_field() -> None:
    orders = {
        "rules": [
            rule(DRAW_STOCK, phase="turn_start"),
            {"when": {"discard_is": "ZZ", "stock_at_least": 99, "points_at_least": 3}, "do": {"type": "meld"}},
            {"when": [], "do": {"type": "discard", "card": "XS"}},
            {"do": {"policy": "lay_all_melds"}, "extra": 1},
        ]
    }
    with pytest.raises(BadOrders) as caught:
        validate_orders("scat", orders, rated=False)
    assert sorted(caught.value.errors) == [
        "rules[1].do.type",
        "rules[1].when.discard_is",
        "rules[1].when.points_at_least",
        "rules[1].when.stock_at_least",
        "rules[2].do",
        "rules[2].when",
        "rules[3]",
        "rules[3].do.policy",
    ]


@pytest.mark.parametrize(
    ("orders", "field"),
    [
        (None, "rules"),
        ({"rules": "draw"}, "rules"),
        ({"rules": []}, "rules"),
        ({"rules": [rule(DRAW_STOCK)] * (MAX_RULES + 1)}, "rules"),
        ({"rules": ["draw"]}, "rules[0]"),
        ({"rules": [rule({"type": "discard"})]}, "rules[0].do"),
        ({"rules": [rule({"type": "discard", "card": "KS", "x": 1})]}, "rules[0].do"),
        ({"rules": [rule({"policy": "good", "type": "knock"})]}, "rules[0].do"),
        ({"rules": [rule(DRAW_STOCK, phase="draw")]}, "rules[0].when.phase"),
        ({"rules": [rule(DRAW_STOCK, someone_knocked=1)]}, "rules[0].when.someone_knocked"),
        ({"rules": [rule(DRAW_STOCK, hand_at_least=True)]}, "rules[0].when.hand_at_least"),
        ({"rules": [rule(DRAW_STOCK, hand_at_least=float("nan"))]}, "rules[0].when.hand_at_least"),
        ({"rules": [rule(DRAW_STOCK, discard_in=[])]}, "rules[0].when.discard_in"),
        ({"rules": [rule(DRAW_STOCK, discard_in="KS")]}, "rules[0].when.discard_in"),
        ({"rules": [rule(DRAW_STOCK, discard_completes_meld=True)]}, "rules[0].when.discard_completes_meld"),
    ],
)
def test_bad_scat_orders_are_refused_by_field(orders: Any, field: str) -> None:
    with pytest.raises(BadOrders) as caught:
        validate_orders("scat", orders, rated=False)
    assert field in caught.value.errors


@pytest.mark.parametrize(
    ("do", "field"),
    [
        ({"type": "knock"}, "rules[0].do.type"),
        ({"type": "meld", "cards": ["3H", "4H"]}, "rules[0].do"),
        ({"type": "lay_off", "card": "3H", "meld": -1}, "rules[0].do"),
        ({"type": "lay_off", "card": "3H", "meld": "0"}, "rules[0].do"),
    ],
)
def test_bad_scattle_actions_are_refused_by_field(do: dict[str, Any], field: str) -> None:
    with pytest.raises(BadOrders) as caught:
        validate_orders("scattle", {"rules": [rule(do)]}, rated=False)
    assert field in caught.value.errors


def test_cards_come_back_in_canonical_form() -> None:
    orders = validate_orders(
        "scattle",
        {"rules": [rule({"type": "meld", "cards": ["3h", "4h", "5h"]}, discard_in=["10s", "ks", "KS"])]},
        rated=True,
    )
    assert orders == {
        "rules": [{"when": {"discard_in": ["TS", "KS"]}, "do": {"type": "meld", "cards": ["3H", "4H", "5H"]}}]
    }


# --- Scat conditions -------------------------------------------------------------------------------


def test_discard_is_and_discard_in_read_the_top_discard() -> None:
    view = scat_view(["2S", "3D", "4H"], ["9C", "KS"])
    assert act("scat", view, rule(DRAW_DISCARD, discard_is="KS")) == DRAW_DISCARD
    assert act("scat", view, rule(DRAW_DISCARD, discard_is="9C")) is None
    assert act("scat", view, rule(DRAW_DISCARD, discard_in=["QS", "KS"])) == DRAW_DISCARD
    assert act("scat", view, rule(DRAW_DISCARD, discard_in=["QS", "9C"])) is None


def test_discard_raises_to_counts_the_best_hand_kept_with_the_discard() -> None:
    view = scat_view(["QS", "3S", "4H"], ["KS"])  # with KS: QS KS 3S = 23
    assert act("scat", view, rule(DRAW_DISCARD, discard_raises_to=23)) == DRAW_DISCARD
    assert act("scat", view, rule(DRAW_DISCARD, discard_raises_to=24)) is None


def test_discard_makes_31_and_its_negation() -> None:
    makes = scat_view(["AS", "KS", "4H"], ["QS"])
    misses = scat_view(["AS", "KS", "4H"], ["QH"])
    assert act("scat", makes, rule(DRAW_DISCARD, discard_makes_31=True)) == DRAW_DISCARD
    assert act("scat", misses, rule(DRAW_DISCARD, discard_makes_31=True)) is None
    assert act("scat", misses, rule(DRAW_STOCK, discard_makes_31=False)) == DRAW_STOCK


def test_hand_at_least_reads_the_hand_value() -> None:
    view = scat_view(["AS", "KS", "4H"], ["2D"])  # 21
    assert act("scat", view, rule({"type": "knock"}, hand_at_least=21)) == {"type": "knock"}
    assert act("scat", view, rule({"type": "knock"}, hand_at_least=21.5)) is None


def test_stock_at_least_reads_the_stock_count() -> None:
    view = scat_view(["AS", "KS", "4H"], ["2D"])
    assert act("scat", view, rule(DRAW_STOCK, stock_at_least=view["stock_count"])) == DRAW_STOCK
    assert act("scat", view, rule(DRAW_STOCK, stock_at_least=view["stock_count"] + 1)) is None


def test_someone_knocked_and_the_last_turn() -> None:
    quiet = scat_view(["AS", "KS", "4H"], ["2D"])
    knocked = scat_view(["AS", "KS", "4H"], ["2D"], knocker=1)
    assert act("scat", quiet, rule(DRAW_STOCK, someone_knocked=False)) == DRAW_STOCK
    assert act("scat", knocked, rule(DRAW_STOCK, someone_knocked=False)) is None
    assert act("scat", knocked, rule(DRAW_STOCK, someone_knocked=True)) == DRAW_STOCK
    assert act("scat", knocked, rule({"type": "knock"})) is None  # not legal after a knock


def test_lives_at_least_counts_the_county() -> None:
    view = scat_view(["AS", "KS", "4H"], ["2D"], tokens=[1, 3])  # one token, and the county: 2 lives
    assert act("scat", view, rule(DRAW_STOCK, lives_at_least=2)) == DRAW_STOCK
    assert act("scat", view, rule(DRAW_STOCK, lives_at_least=3)) is None


def test_phase_tells_the_draw_from_the_discard() -> None:
    view = scat_view(["AS", "KS", "4H", "5C"], ["2D"], phase="must_discard")
    assert act("scat", view, rule(DRAW_STOCK, phase="turn_start")) is None
    assert act("scat", view, rule({"type": "discard", "card": "5C"}, phase="must_discard")) == {
        "type": "discard",
        "card": "5C",
    }


# --- Scat actions ----------------------------------------------------------------------------------


def test_an_action_not_legal_now_passes_to_the_next_rule() -> None:
    view = scat_view(["AS", "KS", "4H"], ["2D"])
    assert act("scat", view, rule({"type": "discard", "card": "AS"}), rule(DRAW_STOCK)) == DRAW_STOCK
    assert act("scat", view, rule({"type": "stand"}), rule({"type": "throw_down"})) is None


def test_best_discard_keeps_the_best_hand_and_never_the_taken_card() -> None:
    view = scat_view(["AS", "KS", "4H", "9D"], ["2D"], phase="must_discard", taken_from_discard="9D")
    assert act("scat", view, rule({"policy": "best_discard"})) == {"type": "discard", "card": "4H"}
    view = scat_view(["AS", "KS", "4H", "5H"], ["2D"], phase="must_discard", taken_from_discard="4H")
    assert act("scat", view, rule({"policy": "best_discard"})) == {"type": "discard", "card": "5H"}
    assert act("scat", scat_view(["AS", "KS", "4H"], ["2D"]), rule({"policy": "best_discard"})) is None


def test_good_plays_as_the_good_bot() -> None:
    view = scat_view(["AS", "KS", "QS"], ["2D"])  # 31 in hand... the good bot knocks
    assert act("scat", view, rule({"policy": "good"})) == {"type": "knock"}


def test_stand_and_throw_down_when_the_options_allow_them() -> None:
    state = SCAT.new_game(2, {"allow_stand_after_knock": True, "throw_down": True}, "orders")
    state.update(hands=[["AS", "KS", "4H"], ["2C", "3C", "4C"]], discard=["2D"], active=0, knocker=1)
    after_knock = SCAT.view(state, 0)
    assert act("scat", after_knock, rule({"type": "stand"}, someone_knocked=True)) == {"type": "stand"}
    state.update(knocker=None)
    quiet = SCAT.view(state, 0)
    assert act("scat", quiet, rule({"type": "stand"}), rule({"type": "throw_down"})) == {"type": "throw_down"}


def test_nothing_when_it_is_not_the_viewers_turn() -> None:
    state = SCAT.new_game(2, {}, "orders")
    other = 1 - state["active"]
    assert standing_order_action("scat", SCAT.view(state, other), {"rules": [rule(DRAW_STOCK)]}) is None
    assert standing_order_action("scat", SCAT.view(state, None), {"rules": [rule(DRAW_STOCK)]}) is None


# --- Scattle -----------------------------------------------------------------------------------------


def test_discard_completes_meld_uses_the_top_card() -> None:
    completes = scattle_view(["3H", "4H", "9C", "KD", "2S"], ["5H"])
    misses = scattle_view(["3H", "4H", "9C", "KD", "2S"], ["7H"])
    assert act("scattle", completes, rule(DRAW_DISCARD, discard_completes_meld=True)) == DRAW_DISCARD
    assert act("scattle", misses, rule(DRAW_DISCARD, discard_completes_meld=True)) is None
    assert act("scattle", misses, rule(DRAW_STOCK, discard_completes_meld=False)) == DRAW_STOCK


def test_scattle_hand_at_least_counts_the_melds_in_hand_and_points_at_least_the_score() -> None:
    view = scattle_view(["3H", "4H", "5H", "KD", "KS"], ["2C"], scores=[7, 0])
    worth = act("scattle", view, rule(DRAW_STOCK, hand_at_least=1))
    assert worth == DRAW_STOCK
    assert act("scattle", view, rule(DRAW_STOCK, hand_at_least=1000)) is None
    assert act("scattle", view, rule(DRAW_STOCK, points_at_least=7)) == DRAW_STOCK
    assert act("scattle", view, rule(DRAW_STOCK, points_at_least=8)) is None
    assert act("scattle", view, rule(DRAW_STOCK, phase="play")) is None


def test_lay_all_melds_lays_one_meld_at_a_time_then_gives_way() -> None:
    view = scattle_view(["3H", "4H", "5H", "KD", "KS", "KC"], ["2C"], phase="play")
    orders = [rule({"policy": "lay_all_melds"}), rule({"policy": "best_discard"})]
    first = act("scattle", view, *orders)
    assert first is not None and first["type"] == "meld"
    after = scattle_view(["3H", "4H", "5H", "KD", "KS", "KC"], ["2C"], phase="play")
    state_hand = [c for c in after["hand"] if c not in first["cards"]]
    second = act("scattle", scattle_view(state_hand, ["2C"], phase="play"), *orders)
    assert second is not None and second["type"] == "meld"
    assert sorted(first["cards"] + second["cards"]) == sorted(after["hand"])
    plain = scattle_view(["3H", "9C", "KD", "2S", "6D", "8C"], ["2C"], phase="play")
    thrown = act("scattle", plain, *orders)
    assert thrown is not None and thrown["type"] == "discard"


def test_a_named_meld_matches_in_any_order_and_lay_off_by_index() -> None:
    view = scattle_view(
        ["5H", "3H", "4H", "6S", "9C", "KD"],
        ["2C"],
        phase="play",
        options={"lay_off": "own"},
        melds=[[{"kind": "run", "cards": ["3S", "4S", "5S"], "points": meld_points(["3S", "4S", "5S"])}], []],
    )
    assert act("scattle", view, rule({"type": "meld", "cards": ["5H", "4H", "3H"]})) == {
        "type": "meld",
        "cards": ["3H", "4H", "5H"],
    }
    assert act("scattle", view, rule({"type": "lay_off", "card": "6S", "meld": 0})) == {
        "type": "lay_off",
        "card": "6S",
        "meld": 0,
    }
    assert act("scattle", view, rule({"type": "lay_off", "card": "6S", "meld": 1})) is None


def test_scattle_best_discard_and_good() -> None:
    view = scattle_view(["3H", "4H", "9C", "KD", "2S", "8S"], ["2C"], phase="play")
    thrown = act("scattle", view, rule({"policy": "best_discard"}))
    assert thrown is not None and thrown["type"] == "discard" and thrown["card"] not in ("3H", "4H")
    assert act("scattle", scattle_view(["3H", "4H", "9C", "KD", "2S"], ["5H"]), rule({"policy": "good"})) == (
        DRAW_DISCARD
    )


# --- the view alone ----------------------------------------------------------------------------------


def _random_orders(kind: str, rng: random.Random) -> dict[str, Any]:
    """Orders of a few rules with random conditions and actions (every condition and policy in turn)."""
    cards = [f"{r}{s}" for r in "A23456789TJQK" for s in "SHDC"]
    rules = []
    for _ in range(rng.randint(1, 5)):
        when: dict[str, Any] = {}
        for name in rng.sample(sorted(CONDITIONS[kind]), rng.randint(0, 2)):
            spec = CONDITIONS[kind][name]
            if spec[0] == "card":
                when[name] = rng.choice(cards)
            elif spec[0] == "cards":
                when[name] = rng.sample(cards, rng.randint(1, 20))
            elif spec[0] == "bool":
                when[name] = rng.random() < 0.5
            elif spec[0] == "phase":
                when[name] = rng.choice(["turn_start", "must_discard"] if kind == "scat" else ["draw", "play"])
            else:
                when[name] = rng.randint(0, {"stock_at_least": 40, "points_at_least": 30}.get(name, 30))
        roll = rng.random()
        if roll < 0.45:
            do: dict[str, Any] = {
                "policy": rng.choice(["best_discard", "good"] + (["lay_all_melds"] * (kind == "scattle")))
            }
        elif roll < 0.7:
            do = {"type": "discard", "card": rng.choice(cards)}
        else:
            do = {"type": rng.choice(["draw_stock", "draw_discard"] + (["knock"] if kind == "scat" else []))}
        rules.append({"when": when, "do": do})
    return validate_orders(kind, {"rules": rules}, rated=False)


def _shuffle_hidden(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same position with every card the seat cannot see dealt again at random: the other
    hands (same sizes) and the stock."""
    hidden = [c for s, hand in enumerate(state["hands"]) if s != seat for c in hand] + list(state["stock"])
    rng.shuffle(hidden)
    hands = []
    for s, hand in enumerate(state["hands"]):
        if s == seat:
            hands.append(list(hand))
        else:
            hands.append(hidden[: len(hand)])
            hidden = hidden[len(hand) :]
    return {**state, "hands": hands, "stock": hidden}


# The defaults, and options that change what is legal (the legal actions come from the view too).
OPTION_SETS = {
    "scat": [
        {},
        {"throw_down": True, "allow_stand_after_knock": True, "min_knock_score": 20},
        {"knock_allowed_first_round": False, "stock_exhausted": "void_hand", "three_of_a_kind_value": 30.5},
    ],
    "scattle": [{}, {"lay_off": "own"}, {"lay_off": "own", "discard_retake_same_turn": True, "deck_count": 1}],
}


@pytest.mark.parametrize("kind", ["scat", "scattle"])
def test_the_action_depends_on_the_view_alone(kind: str) -> None:
    """Over 2,000 positions of random games, the seat to act's view with the hidden cards dealt again
    is the same view, and gives the same action; and every action given is legal in the real state."""
    rules = get_rules(kind)
    rng = random.Random(f"orders/{kind}")
    positions = acted = 0
    game = 0
    while positions < 2000:
        game += 1
        state = rules.new_game(rng.randint(2, 4), rng.choice(OPTION_SETS[kind]), f"{kind}/{game}")
        for _ in range(rng.randint(5, 60)):
            seat = rules.to_act(state)
            if seat is None:
                break
            if rng.random() < 0.35:
                orders = _random_orders(kind, rng)
                view = rules.view(state, seat)
                action = standing_order_action(kind, view, orders)
                twin = _shuffle_hidden(state, seat, rng)
                assert twin["hands"] != state["hands"] or twin["stock"] != state["stock"] or not twin["stock"]
                assert rules.view(twin, seat) == view
                assert standing_order_action(kind, rules.view(twin, seat), orders) == action
                assert legal_actions_from_view(kind, view) == rules.legal_actions(state, seat)
                if action is not None:
                    assert action in rules.legal_actions(state, seat)
                    acted += 1
                positions += 1
            state, _ = rules.apply(state, seat, rng.choice(rules.legal_actions(state, seat)))
    assert acted > 500  # the orders did act on many of them
