"""How far a better choice of moves can lift one Scattle player above three good bots at four seats.

Run from the project folder (no database needed):

    .venv/bin/python -m bench.scattle_four_seats [--games 1000] [--workers 2] [--seats 4]

One seat (rotating from game to game) plays each of these against good bots, on the same deals as
`bench.bots` (so the good bot's own line is the fair share, about 1 in `seats`):

- `good`: the good bot itself;
- `expert`: the expert bot;
- `peek`: the good bot, except that it knows the next stock card before it draws and the cards its
  refill will bring before it discards, and chooses by the good bot's own measure of the hand (a
  meld in hand counts 0.8 of its points). Not a legal player: it shows what knowing this turn's luck
  buys with the good bot's judgement;
- `two_cards`: the good bot, allowed to take the better of the next two stock cards whenever it
  draws from the stock (against the rules): it shows how much of the result the cards decide.

Prints each line's win rate (a shared first place counts as its share) with a 95% interval.
"""

from __future__ import annotations

import argparse
import copy
import random
import time
from multiprocessing import Pool
from typing import Any

from bench.bots import one_seat_against_good_bots, wilson
from games.engine import get_rules
from games.engine import scattle_bots as good_bot
from games.engine.bots import choose_action

RULES = get_rules("scattle")
LINES = ("good", "expert", "peek", "two_cards")
# What one point of score is worth in the good bot's measure of a hand (outs weighted by copies).
POINT = 3.0


def _finish_turn(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    while state["outcome"] is None and state["turn"] == seat and state["phase"] != "draw":
        state, _ = RULES.apply(state, seat, good_bot.choose(state, seat, "good", rng))
    return state


def _worth(state: dict[str, Any], seat: int) -> float:
    """The seat's score and hand by the good bot's measure: a won game beats everything."""
    if state["outcome"] is not None:
        return 1e6 if state["outcome"]["places"][seat] == 1 else -1e6
    view = RULES.view(state, seat)
    opts = view["options"]
    hand = view["hand"]
    in_hand = 0.0
    while melds := good_bot._find_melds(hand, opts):
        meld = max(melds, key=lambda m: good_bot._meld_points(m, opts))
        in_hand += 0.8 * good_bot._meld_points(meld, opts)
        hand = good_bot._without(hand, meld)
    live = good_bot._live_counts(view)
    return POINT * (state["scores"][seat] + in_hand) + good_bot._hand_worth(hand, live, opts, {})


def _peek(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    legal = RULES.legal_actions(state, seat)
    if state["phase"] == "draw":
        options = legal
    else:
        chosen = good_bot.choose(state, seat, "good", rng)
        if chosen["type"] != "discard":
            return chosen
        options = [a for a in legal if a["type"] == "discard"]
    scored = []
    for action in options:
        after, _ = RULES.apply(copy.deepcopy(state), seat, action)
        scored.append((_worth(_finish_turn(after, seat, rng), seat), action))
    return max(scored, key=lambda pair: pair[0])[1]


def _two_cards(state: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    action = good_bot.choose(state, seat, "good", rng)
    stock = state["stock"]
    if action["type"] == "draw_stock" and len(stock) >= 2:
        swapped = copy.deepcopy(state)
        swapped["stock"][-1], swapped["stock"][-2] = stock[-2], stock[-1]
        plain = _finish_turn(RULES.apply(copy.deepcopy(state), seat, action)[0], seat, rng)
        other = _finish_turn(RULES.apply(swapped, seat, action)[0], seat, rng)
        if _worth(other, seat) > _worth(plain, seat):
            stock[-1], stock[-2] = stock[-2], stock[-1]  # the cheat: the next card comes first
    return action


def play(job: tuple[str, int, int]) -> float:
    """One game: the line's share of first place."""
    line, seats, game = job
    return one_seat_against_good_bots("scattle", seats, game, CHOOSERS[line])


CHOOSERS = {
    "good": lambda state, seat, rng, history: choose_action("scattle", state, seat, "good", rng),
    "expert": lambda state, seat, rng, history: choose_action("scattle", state, seat, "expert", rng, history=history),
    "peek": lambda state, seat, rng, history: _peek(state, seat, rng),
    "two_cards": lambda state, seat, rng, history: _two_cards(state, seat, rng),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--lines", nargs="*", default=list(LINES), choices=LINES)
    args = parser.parse_args()
    print(f"Scattle, {args.seats} seats: one seat's play against good bots, {args.games} games a line", flush=True)
    with Pool(args.workers) as pool:
        for line in args.lines:
            start = time.perf_counter()
            wins = sum(pool.map(play, [(line, args.seats, g) for g in range(args.games)], chunksize=8))
            low, high = wilson(wins, args.games)
            print(
                f"{line:>9}: wins {wins:.1f}/{args.games} = {wins / args.games:.1%} "
                f"(95% CI {low:.1%}-{high:.1%}); {time.perf_counter() - start:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
