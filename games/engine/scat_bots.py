"""Scat computer players. They decide from ``RULES.view(state, seat)`` and the legal actions only."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from .base import Action, State
from .cards import DECK
from .errors import IllegalAction
from .scat import CARD_VALUE, RULES, _value

# Knock when the hand is worth at least this much, by players still in: with more opponents
# someone is likelier to be lower than us, so a weaker hand is enough.
_KNOCK_BASE = {2: 24, 3: 23, 4: 22, 5: 21}
_KNOCK_BASE_MANY = 21


def choose(state: State, seat: int, level: str, rng: random.Random) -> Action:
    """The action a Scat bot of `level` ("random" or "good") plays for `seat` now."""
    legal = RULES.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("not_your_turn", "The bot has no move: it is not this seat's turn.")
    if level == "random":
        return rng.choice(legal)
    if level == "good":
        return _good(RULES.view(state, seat), legal, rng)
    raise IllegalAction("bad_bot_level", f"Unknown bot level {level!r}.")


def _best_keep(cards: list[str], options: dict[str, Any], must_keep: str | None = None) -> tuple[float, str]:
    """The best 3-card hand left after one discard from four cards, and the card to discard.

    Ties go to keeping the higher cards: they are likelier to grow into a good suit later."""
    best: tuple[float, int] | None = None
    throw = cards[0]
    for card in cards:
        if card == must_keep:
            continue
        rest = [c for c in cards if c is not card]
        score = (_value(rest, options), sum(CARD_VALUE[c] for c in rest))
        if best is None or score > best:
            best, throw = score, card
    assert best is not None
    return best[0], throw


def _knock_threshold(view: dict[str, Any], seat: int) -> float:
    players = view["players"]
    live = sum(1 for p in players if p["in_game"])
    threshold = float(_KNOCK_BASE.get(live, _KNOCK_BASE_MANY))
    # Later in the hand the others have had time to improve: ask a little more of our hand.
    threshold += min(players[seat]["turns_taken"], 4) * 0.5
    me = players[seat]
    last_life = me["on_the_county"] or (not view["options"]["on_the_county"] and me["tokens"] == 1)
    if last_life:
        threshold += 1  # a knock that fails costs two lives: be careful with the last one
    return threshold


def _stock_expectation(view: dict[str, Any], hand: list[str]) -> float:
    """Mean value of our best hand after drawing an unseen card from the stock."""
    seen = set(hand) | set(view["discard_pile"])
    unseen = [c for c in DECK if c not in seen]
    if not unseen:
        return _value(hand, view["options"])
    options = view["options"]
    return sum(_best_keep([*hand, c], options)[0] for c in unseen) / len(unseen)


def _good(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    options = view["options"]
    hand: list[str] = view["hand"]
    seat: int = view["viewer"]
    kinds = {a["type"] for a in legal}
    if view["phase"] == "must_discard":
        _, throw = _best_keep(hand, options, must_keep=view["taken_from_discard"])
        return {"type": "discard", "card": throw}

    value = _value(hand, options)
    if ("knock" in kinds or "throw_down" in kinds) and value >= _knock_threshold(view, seat):
        # A throw-down gives the others no last turn to improve, so it beats a knock.
        return {"type": "throw_down"} if "throw_down" in kinds else {"type": "knock"}

    take_value = None
    if "draw_discard" in kinds:
        top = view["discard_top"]
        take_value = max(_value([top, *pair], options) for pair in combinations(hand, 2))
    stock_value = _stock_expectation(view, hand) if "draw_stock" in kinds else None
    if "stand" in kinds:
        # Last turn after a knock: keep the hand unless a draw promises more.
        best_draw = max(v for v in (take_value, stock_value) if v is not None) if kinds != {"stand"} else None
        if best_draw is None or value >= best_draw:
            return {"type": "stand"}
    if take_value is not None and (stock_value is None or take_value >= stock_value):
        return {"type": "draw_discard"}
    if stock_value is not None:
        return {"type": "draw_stock"}
    for kind in ("knock", "throw_down", "stand"):
        if kind in kinds:
            return {"type": kind}
    return rng.choice(legal)
