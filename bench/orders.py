"""What evaluating standing orders costs a decision, on one core.

Run from the project folder (no database, no Redis needed):

    .venv/bin/python -m bench.orders [--positions 5000]

For each game (Scat and Scattle, 2 and 4 seats, default options) and each ready-made set of orders
(games/engine/orders.py, PRESETS), plus a long set of 20 rules whose conditions mostly fail (the
worst case: every rule read), it collects positions of good-against-random bot games and times
``standing_order_action(kind, view, orders)`` call by call on the seat to act's view; the view is
built beforehand, as the server has it. Each call is timed by the thread's CPU clock, so that other
work on a busy machine (which preempts the process) does not count; the wall-clock median is
printed beside it. Goal: under 1 ms a decision (the CPU time's 99th percentile).

It writes its figures to bench/results/orders.txt.
"""

from __future__ import annotations

import argparse
import time

from bench.common import Report, median
from bench.engine import bot_game, pin_to_one_core, time_calls
from games.engine import get_rules
from games.engine.orders import PRESETS, preset_orders, standing_order_action, validate_orders

GOAL_US = 1000.0


def cpu_times(calls) -> list[float]:
    """CPU microseconds of each call (this thread's clock), timed one by one."""
    clock = time.thread_time_ns
    out = []
    for call in calls:
        start = clock()
        call()
        out.append((clock() - start) / 1000)
    return out


def long_orders(kind: str) -> dict:
    """20 rules, the first 19 of which rarely hold, so that a decision reads them all."""
    cards = ["AS", "AH", "AD", "AC", "KS", "KH"]
    rules = []
    for i in range(19):
        when = {
            "discard_in": cards[: 1 + i % 6],
            "stock_at_least": 5 + i,
            "hand_at_least": 29 if kind == "scat" else 40,
        }
        if kind == "scat":
            when["discard_raises_to"] = 30
        else:
            when["discard_completes_meld"] = True
        rules.append({"when": when, "do": {"type": "draw_discard"}})
    rules.append({"when": {}, "do": {"policy": "best_discard"}})
    return validate_orders(kind, {"rules": rules}, rated=True)


def positions(kind: str, seats: int, wanted: int) -> list[dict]:
    """The views of the seat to act in bot games."""
    import random

    rules = get_rules(kind)
    rng = random.Random(17)
    found: list[tuple] = []
    game = 0
    while len(found) < wanted:
        levels = (["good", "random"] * seats)[:seats]
        bot_game(kind, levels, f"orders-{kind}-{seats}-{game}", rng, found)
        game += 1
    return [rules.view(state, seat) for state, seat, _ in found[:wanted]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5000, help="positions timed per game and seat count")
    args = parser.parse_args()

    report = Report("orders", "Standing orders (bench/orders.py), one core, per decision")
    report.line(f"process: {pin_to_one_core()}; positions per line: {args.positions}")
    worst = 0.0
    for kind in ("scat", "scattle"):
        sets = {name: preset_orders(kind, name) for name in PRESETS[kind]}
        sets["20 rules, all read"] = long_orders(kind)
        for seats in (2, 4):
            views = positions(kind, seats, args.positions)
            for name, orders in sets.items():
                calls = [lambda v=v, o=orders, k=kind: standing_order_action(k, v, o) for v in views]
                times = sorted(cpu_times(calls))
                wall = median(time_calls(calls))
                p99 = times[int(len(times) * 0.99)]
                worst = max(worst, p99)
                report.line(
                    f"{kind} {seats} seats, {name}: CPU median {median(times):.0f} us, p99 {p99:.0f} us, "
                    f"largest {times[-1]:.0f} us; wall median {wall:.0f} us"
                )
    verdict = "met" if worst < GOAL_US else "MISSED"
    report.line(f"goal: p99 under {GOAL_US:.0f} us a decision: {verdict} (largest p99 {worst:.0f} us)")
    report.save()


if __name__ == "__main__":
    main()
