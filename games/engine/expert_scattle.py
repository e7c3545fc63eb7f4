"""The Scattle expert's discard: the good bot's measure of the hand kept, less what the card thrown is
likely to give the next player, estimated over random deals of the cards the seat has not seen.

Why not only the playouts (games/engine/advisor.py): a discard pays off over many turns, far beyond
a playout's short horizon, so on a few dozen deals the playouts cannot tell one discard from another
(the expert kept the good bot's choice in 97% of its discards, and won 50% against it). Two things
the good bot ignores can be measured cheaply on many deals: the next player takes the discard when
it completes a meld in its hand (one take in five, between good bots), and cards an opponent took
from the discard pile stay in its hand (the seat saw them go there).
"""

from __future__ import annotations

import random
from typing import Any

from .advisor import _Knowledge, _scattle_determinizer
from .base import Action, Event
from .scattle_bots import _keep_worth, _live_counts, _outs

# Deals of the next player's hand per decision. With 200 (and 448 playouts for the other decisions,
# games/engine/bots.py), on bench.bots' 400 two-seat games: 62.0% wins against the good bot, against
# 55.5% with 60 (and 64 playouts); a decision then costs 34 ms of one core at the median, 87 at most.
FEED_SAMPLES = 200
# What an expected point given to the next player costs, in the good bot's hand-worth units (outs
# weighted by copies still to come; see scattle_bots._hand_worth).
# The same at every table size: on the same games, dividing it by the number of opponents changed
# nothing at four seats (29.3% wins, 29.7%), and a weight of 6 nothing at two (56.8%, 55.3%).
FEED_WEIGHT = 3.0
# The next player's latest turns whose passed-over cards shape its hand (0: none), and the deals
# tried for one that fits them.
PASSED_TURNS = 2
_TRIES = 6


def _passed_over(history: list[Event], seat: int, turns: int) -> list[str]:
    """Cards `seat` showed it cannot meld in its latest `turns` turns: the discard pile's top when it
    drew from the stock instead (the good bot takes a card that completes a meld), and the cards it
    threw away (it would have laid them in a meld)."""
    pile: list[str] = []
    found: list[list[str]] = []
    for event in history:
        kind = event.get("type")
        if kind == "deal":
            pile = [event["up_card"]]
        elif kind == "stock_rebuilt":
            pile = pile[-1:]
        elif kind == "draw_discard":
            if pile:
                pile.pop()
            if event.get("seat") == seat:
                found.append([])
        elif kind == "draw_stock" and event.get("seat") == seat:
            found.append([pile[-1]] if pile else [])
        elif kind == "discard":
            pile.append(event["card"])
            if event.get("seat") == seat:
                if not found:
                    found.append([])
                found[-1].append(event["card"])
    return [card for turn in found[-turns:] for card in turn]


def feed_points(view: dict[str, Any], history: list[Event], cards: list[str], rng: random.Random) -> dict[str, float]:
    """For each of `cards`: the mean points of the best three-card meld the next player could lay
    with it and two cards of its hand, over `FEED_SAMPLES` random deals of the unseen cards (its
    cards known from the history stay in its hand). A deal where a card it passed over lately would
    have made a meld with its hand is dealt again (up to `_TRIES` times)."""
    viewer = view["viewer"]
    players = view["players"]
    n = view["num_seats"]
    nxt = next((s for step in range(1, n) if players[(s := (viewer + step) % n)]["in_game"]), None)
    if nxt is None:
        return {card: 0.0 for card in cards}
    determinize = _scattle_determinizer(view, history)
    opts = view["options"]
    passed = _passed_over(history, nxt, PASSED_TURNS) if PASSED_TURNS else []
    every = dict.fromkeys([*cards, *passed], 1.0)
    totals = dict.fromkeys(cards, 0.0)
    for _ in range(FEED_SAMPLES):
        for _try in range(_TRIES):
            hand = determinize(rng)["hands"][nxt]
            outs = _outs(hand, every, opts)
            if not any(card in outs for card in passed):
                break
        for card in cards:
            totals[card] += outs.get(card, 0)
    return {card: total / FEED_SAMPLES for card, total in totals.items()}


def choose_discard(
    view: dict[str, Any], history: list[Event], legal: list[Action], rng: random.Random
) -> Action | None:
    """The discard with the best hand kept (the good bot's measure) less `FEED_WEIGHT` times the
    points it is expected to give the next player; None when there is no discard to choose."""
    discards = [a for a in legal if a["type"] == "discard"]
    if len(discards) < 2:
        return None
    live = _live_counts(view)
    # A card an opponent took from the discard pile and still holds will not come to us.
    knowledge = _Knowledge(view["num_seats"])
    knowledge.replay(history, view["viewer"])
    for seat, known in enumerate(knowledge.known):
        if seat != view["viewer"] and view["players"][seat]["in_game"]:
            for card, count in known.items():
                if card in live:
                    live[card] = max(0.0, live[card] - count)
    partners: dict[str, float] = {}
    feed = feed_points(view, history, [a["card"] for a in discards], rng)

    def merit(action: Action) -> float:
        card = action["card"]
        return _keep_worth(view["hand"], card, live, view["options"], partners) - FEED_WEIGHT * feed[card]

    return max(discards, key=merit)
