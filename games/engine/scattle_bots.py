"""Scattle! bots. They decide from `RULES.view(state, seat)` and `RULES.legal_actions(state, seat)` only."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import Any

from .base import Action, State
from .cards import DECK, RANKS, SUITS, rank_number
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
# What a hand is worth: the cards that would complete a meld with it ("outs"), counted by how many
# copies of each may still come, and each card's loose partners. Everything here reads the view only.

# A card in the discard pile (under its top) comes back only after the next stock rebuild.
_PILE_WEIGHT = 0.5
# How much one loose partner (a card that would make a pair or a run fragment) counts against one out.
_PARTNER_WEIGHT = 0.15
# Take the up-card when it raises the hand's worth by more than this (in outs) plus the worth of a
# meld times the chance that a stock card would complete one at once. The four weights were tuned in
# games against the previous good bot (it wins about 71% of two-seat games against it).
_TAKE_MARGIN = 0.5
_STOCK_MELD_WORTH = 8.0


def _live_counts(view: dict[str, Any]) -> dict[str, float]:
    """How many copies of each card may still reach my hand: not mine, not melded by anyone;
    a card under the top of the discard pile counts for less (it waits for a rebuild)."""
    live = Counter({card: view["options"]["deck_count"] for card in DECK})
    live.subtract(view["hand"])
    for player in view["players"]:
        for meld in player["melds"]:
            live.subtract(meld["cards"])
    weights = {card: float(count) for card, count in live.items() if count > 0}
    for card in view["discard_pile"][:-1]:
        if card in weights:
            weights[card] = max(0.0, weights[card] - (1.0 - _PILE_WEIGHT))
    return weights


@lru_cache(maxsize=4096)
def _run_fillers(low: str, high: str, ace: str) -> tuple[str, ...]:
    """The ranks that turn two ranks of one suit into a three-card run."""
    found = []
    for rank in RANKS:
        if rank not in (low, high) and _run_ok([low + "S", high + "S", rank + "S"], ace):
            found.append(rank)
    return tuple(found)


def _outs(hand: list[str], live: dict[str, float], opts: dict[str, Any]) -> dict[str, int]:
    """Each card still to come that would complete a three-card meld with two cards of `hand`, with
    the points that meld scores (a same-colour group may score a bonus)."""
    by_rank: dict[str, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_rank.setdefault(card[0], []).append(card)
        by_suit.setdefault(card[1], []).append(card[0])
    found: dict[str, int] = {}
    scope, bonus = opts["color_bonus_scope"], opts["color_bonus_multiplier"]
    for rank, same in by_rank.items():
        if len(same) < 2 or len(same) >= opts["max_group_size"]:
            continue
        colours = {card[1] in "HD" for card in same}
        for suit in SUITS:
            card = rank + suit
            if card not in live or same.count(card) >= opts["deck_count"]:
                continue
            points = 3
            if scope != "off" and len(colours) == 1 and (suit in "HD") in colours:
                points *= bonus
            found[card] = max(found.get(card, 0), points)
    ace = opts["ace_in_runs"]
    run_points = 3 * bonus if scope == "all_melds" else 3
    for suit, ranks in by_suit.items():
        if len(ranks) < 2:
            continue
        distinct = sorted(set(ranks))
        for i, low in enumerate(distinct):
            for high in distinct[i + 1 :]:
                for rank in _run_fillers(low, high, ace):
                    card = rank + suit
                    if card in live and rank not in distinct:
                        found[card] = max(found.get(card, 0), run_points)
    return found


@lru_cache(maxsize=1024)
def _partner_cards(card: str, ace: str) -> tuple[tuple[str, float], ...]:
    """The cards that would pair with `card` (its twin too, with two decks) or make a run fragment
    with it, each with its weight: 1 for a pair or neighbours, 0.5 for a gap."""
    rank, suit = card[0], card[1]
    found = [(rank + other, 1.0) for other in SUITS]  # includes `card` itself: its twin
    position = RANKS.index(rank)
    for step, weight in ((1, 1.0), (2, 0.5)):
        for near in (position - step, position + step):
            if ace == "wrap" or (ace == "low_or_high" and near == 13):
                near %= 13
            if 0 <= near < 13:
                found.append((RANKS[near] + suit, weight))
    return tuple(found)


def _partners(card: str, live: dict[str, float], ace: str) -> float:
    """The live cards that would pair with `card` or make a run fragment with it."""
    return sum(weight * live.get(other, 0.0) for other, weight in _partner_cards(card, ace))


def _hand_worth(hand: list[str], live: dict[str, float], opts: dict[str, Any], memo: dict[str, float]) -> float:
    """What a hand (without melds in it) promises: its outs, weighted by the copies still to come
    and the points they make, and a little for each card's loose partners (`memo` keeps those by
    card for one decision)."""
    outs = _outs(hand, live, opts)
    worth = sum(live[card] * points / 3 for card, points in outs.items())
    ace = opts["ace_in_runs"]
    partners = 0.0
    for card in hand:
        if card not in memo:
            memo[card] = _partners(card, live, ace)
        partners += memo[card]
    return worth + _PARTNER_WEIGHT * partners


def _run_ok(cards: list[str], ace: str) -> bool:
    opts = {"max_group_size": 4, "max_run_length": 4, "ace_in_runs": ace, "deck_count": 1}
    found = _classify(cards, opts)
    return found is not None and found[0] == "run"


# --------------------------------------------------------------------------------------------
# Decisions


def _choose_draw(view: dict[str, Any], legal: list[Action]) -> Action:
    """Take the up-card when it completes a meld now (or grows one of ours), or when it improves the
    hand by more than a stock card is likely to; else draw from the stock."""
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
    if base[0]:
        return {"type": "draw_stock"}  # melds to lay anyway: the plain choice
    live = _live_counts(view)
    if top in live:  # the up-card is mine now, or the pile's until a rebuild
        live[top] = max(0.0, live[top] - 1.0)
    partners: dict[str, float] = {}
    now = _hand_worth(hand, live, opts, partners)
    others = [card for card in dict.fromkeys(hand) if card != top]  # the up-card (or its twin) must stay
    kept = max((_hand_worth(_without(with_top, [card]), live, opts, partners) for card in others), default=now)
    unknown = sum(live.values()) or 1.0
    outs = _outs(hand, live, opts)
    meld_chance = sum(live[card] for card in outs) / unknown
    if kept - now > _TAKE_MARGIN + _STOCK_MELD_WORTH * meld_chance:
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
    live = _live_counts(view)
    partners: dict[str, float] = {}
    return max(discards, key=lambda action: (_keep_worth(hand, action["card"], live, opts, partners), rng.random()))


def _keep_worth(
    hand: list[str], card: str, live: dict[str, float], opts: dict[str, Any], memo: dict[str, float]
) -> float:
    """What the hand is worth without `card` (see _hand_worth), a high card thrown being a little
    better (more so when cards left in hand count against us)."""
    deadwood = 0.01 if opts["deadwood_penalty"] else 0.001
    return _hand_worth(_without(hand, [card]), live, opts, memo) + deadwood * rank_number(card)
