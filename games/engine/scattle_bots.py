"""Scattle! bots. They decide from `RULES.view(state, seat)` and `RULES.legal_actions(state, seat)` only."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from .base import Action, State
from .cards import DECK
from .errors import IllegalAction
from .scattle import RULES, _classify, _find_melds, _layoff_result, _points

# Past this many cards the exact meld-plan search could explode; a greedy plan is good enough.
_EXACT_PLAN_LIMIT = 9


def choose(state: State, seat: int, level: str, rng: random.Random) -> Action:
    """The action a bot of `level` ("random" or "good") plays for `seat` now."""
    legal = RULES.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not_your_turn", f"Seat {seat} has no move to make now.")
    if level == "random":
        return rng.choice(legal)
    if level != "good":
        raise IllegalAction("bad_bot_level", f"Unknown bot level {level!r}; choose random or good.")
    view = RULES.view(state, seat)
    if view["phase"] == "draw":
        return _choose_draw(view, legal)
    return _choose_play(view, legal, rng)


# --------------------------------------------------------------------------------------------
# Reading the table


def _meld_points(cards: list[str], opts: dict[str, Any]) -> int:
    found = _classify(cards, opts)
    return _points(found[0], found[1], opts) if found else 0


def _without(hand: list[str], cards: list[str]) -> list[str]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return rest


def _standing(view: dict[str, Any]) -> tuple[int, int]:
    """(my score, the best score of anyone else still in the game)."""
    me = view["viewer"]
    others = [p["score"] for p in view["players"] if p["seat"] != me and p["in_game"]]
    return view["players"][me]["score"], max(others, default=0)


def _may_end(view: dict[str, Any], gained: int) -> bool:
    """Whether ending the game now by Scattle! (after gaining `gained` points) would leave us in front."""
    mine, best_other = _standing(view)
    if view["options"]["tie_rule"] == "scattle_caller_wins_ties":
        return mine + gained >= best_other
    return mine + gained > best_other


def _reaches_target(view: dict[str, Any], gained: int) -> bool:
    target = view["options"]["target_score"]
    return target is not None and _standing(view)[0] + gained >= target


def _ends_by_scattle(left: int, opts: dict[str, Any]) -> bool:
    """Whether a hand of `left` cards after melding ends the game: empty, or one card whose discard is Scattle!"""
    return left == 0 or (left == 1 and opts["scattle_final_discard"] == "optional")


def _best_plan(hand: list[str], opts: dict[str, Any], memo: dict[tuple[str, ...], tuple[int, int]]) -> tuple[int, int]:
    """(points, cards used) of the best set of disjoint melds in `hand`."""
    key = tuple(sorted(hand))
    if key in memo:
        return memo[key]
    best = (0, 0)
    melds = _find_melds(hand, opts)
    if len(hand) > _EXACT_PLAN_LIMIT and melds:
        melds = [max(melds, key=lambda m: (_meld_points(m, opts), len(m)))]
    for meld in melds:
        points, used = _best_plan(_without(hand, meld), opts, memo)
        best = max(best, (points + _meld_points(meld, opts), used + len(meld)))
    memo[key] = best
    return best


def _plan_value(view: dict[str, Any], meld: list[str], hand: list[str], memo: dict) -> tuple[int, int] | None:
    """(points, cards used) when `meld` is laid first and the best plan follows; None when that plan
    would end the game by Scattle! while we are not in front (and not reaching the target)."""
    opts = view["options"]
    rest = _without(hand, meld)
    more, used = _best_plan(rest, opts, memo)
    points = _meld_points(meld, opts) + more
    left = len(rest) - used
    if _reaches_target(view, points):
        return points + 1000, used + len(meld)  # winning at once beats everything
    if _ends_by_scattle(left, opts) and not _may_end(view, points):
        # Laying only this meld (no follow-up) may still be fine.
        if _ends_by_scattle(len(rest), opts):
            return None
        return _meld_points(meld, opts), len(meld)
    return points, used + len(meld)


# --------------------------------------------------------------------------------------------
# Card usefulness: near-melds and whether they can still be completed


def _unseen_counter(view: dict[str, Any]) -> Counter[str]:
    """How many copies of each card might still come (not in my hand, not face up anywhere)."""
    unseen = Counter({card: view["options"]["deck_count"] for card in DECK})
    unseen.subtract(view["hand"])
    unseen.subtract(view["discard_pile"])
    for player in view["players"]:
        for meld in player["melds"]:
            unseen.subtract(meld["cards"])
    return unseen


def _rank_gap(a: str, b: str, ace: str) -> int:
    order = "A23456789TJQK"
    ra, rb = order.index(a[0]) + 1, order.index(b[0]) + 1
    gap = abs(ra - rb)
    if ace == "low_or_high" and 1 in (ra, rb):
        gap = min(gap, abs(14 - max(ra, rb)))
    elif ace == "wrap":
        gap = min(gap, 13 - gap)
    return gap


def _usefulness(card: str, rest: list[str], unseen: Counter[str], opts: dict[str, Any]) -> float:
    """How much `card` helps the rest of the hand towards melds (0 = useless)."""
    value = 0.0
    ace = opts["ace_in_runs"]
    for other in rest:
        if other[0] == card[0]:
            outs = sum(unseen[other[0] + suit] for suit in "SHDC")
            weight = 3.0
            if opts["color_bonus_scope"] != "off" and (other[1] in "HD") == (card[1] in "HD"):
                weight += 1.0  # a same-colour pair may become a bonus group
            value += weight if outs else 0.5
        elif other[1] == card[1]:
            gap = _rank_gap(card, other, ace)
            if gap in (1, 2):
                needed = _run_completions(card, other, ace)
                outs = sum(unseen[code] for code in needed)
                value += (2.0 if gap == 1 else 1.2) if outs else 0.3
    return value


def _run_completions(a: str, b: str, ace: str) -> list[str]:
    """The cards that turn the two-card fragment a, b (one suit) into a three-card run."""
    order = "A23456789TJQK"
    suit = a[1]
    found = []
    for rank in order:
        code = rank + suit
        if code in (a, b):
            continue
        if _run_ok([a, b, code], ace):
            found.append(code)
    return found


def _run_ok(cards: list[str], ace: str) -> bool:
    opts = {"max_group_size": 4, "max_run_length": 4, "ace_in_runs": ace, "deck_count": 1}
    found = _classify(cards, opts)
    return found is not None and found[0] == "run"


# --------------------------------------------------------------------------------------------
# Decisions


def _choose_draw(view: dict[str, Any], legal: list[Action]) -> Action:
    """Take the up-card only when it completes a meld now (or grows one of ours); else the stock."""
    top = view["discard_top"]
    if top is None or {"type": "draw_discard"} not in legal:
        return {"type": "draw_stock"}
    opts = view["options"]
    hand = view["hand"]
    memo: dict[tuple[str, ...], tuple[int, int]] = {}
    with_top = [*hand, top]
    base = max((v for m in _find_melds(hand, opts) if (v := _plan_value(view, m, hand, memo))), default=(0, 0))
    for meld in _find_melds(with_top, opts):
        if top in meld:
            value = _plan_value(view, meld, with_top, memo)
            if value is not None and value[0] > base[0]:
                return {"type": "draw_discard"}
    if opts["lay_off"] == "own":
        for meld in view["players"][view["viewer"]]["melds"]:
            result = _layoff_result(meld, top, opts)
            if result is not None and result[2] > meld["points"]:
                return {"type": "draw_discard"}
    return {"type": "draw_stock"}


def _choose_play(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    opts = view["options"]
    hand = view["hand"]
    memo: dict[tuple[str, ...], tuple[int, int]] = {}
    best_meld, best_value = None, None
    for action in legal:
        if action["type"] != "meld":
            continue
        value = _plan_value(view, action["cards"], hand, memo)
        if value is not None and (best_value is None or value > best_value):
            best_meld, best_value = action, value
    if best_meld is not None:
        return best_meld

    own_melds = view["players"][view["viewer"]]["melds"]
    best_layoff, best_gain = None, 0
    for action in legal:
        if action["type"] != "lay_off":
            continue
        result = _layoff_result(own_melds[action["meld"]], action["card"], opts)
        gain = result[2] - own_melds[action["meld"]]["points"] if result else 0
        ends = _ends_by_scattle(len(hand) - 1, opts)
        if ends and not (_may_end(view, gain) or _reaches_target(view, gain)):
            continue
        if gain > best_gain or (ends and gain >= best_gain):
            best_layoff, best_gain = action, gain
    if best_layoff is not None:
        return best_layoff

    discards = [action for action in legal if action["type"] == "discard"]
    if not discards:
        return rng.choice(legal)
    unseen = _unseen_counter(view)
    high_first = 0.01 if opts["deadwood_penalty"] else 0.001

    def cost(action: Action) -> tuple[float, float]:
        card = action["card"]
        rank = "A23456789TJQK".index(card[0]) + 1
        return _usefulness(card, _without(hand, [card]), unseen, opts) - high_first * rank, rng.random()

    return min(discards, key=cost)
