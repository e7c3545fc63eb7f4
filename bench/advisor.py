"""How fast and how steady the simulation advisor is (games/engine/advisor.py).

Run from the project folder (no database needed):

    .venv/bin/python -m bench.advisor [--runs 5]

For a few Scat and Scattle positions (good bots play a game some moves in), prints the playouts per
second on one core, the time to advise one position at 200, 1,000 and 5,000 samples per action, and
the spread of the estimate between runs with different random generators (the largest standard
deviation over the actions, in loss-chance points for Scat, points for Scattle). Also the expert
bot's decision time at its default sample count there, and over every decision the expert makes in
`--games` games against good bots per kind and table (2 and 4 seats): median, 99th percentile and
largest, as the CPU time of this one process (what a decision costs one core, also when other work
shares the machine). Writes bench/results/advisor.txt (only that file).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.bots import one_seat_against_good_bots
from bench.common import Report, percentile
from games.engine import get_rules
from games.engine.advisor import advise
from games.engine.bots import choose_action


def position(kind: str, seats: int, seed: str, moves: int):
    rules = get_rules(kind)
    rng = random.Random(seed)
    state = rules.new_game(seats, None, seed)
    events = list(state["deal_events"])
    for _ in range(moves):
        seat = rules.to_act(state)
        state, new = rules.apply(state, seat, choose_action(kind, state, seat, "good", rng))
        events += new
    return state, events


def figure(entry: dict, kind: str) -> float:
    return entry["loss_chance"] * 100 if kind == "scat" else entry["expected_points"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    report = Report("advisor", "Simulation advisor (bench/advisor.py)")
    for kind, seats, moves in (("scat", 2, 6), ("scat", 4, 9), ("scattle", 2, 10), ("scattle", 4, 14)):
        rules = get_rules(kind)
        state, events = position(kind, seats, f"advisor-bench-{kind}-{seats}", moves)
        seat = rules.to_act(state)
        view, history = rules.view(state, seat), rules.view_events(events, seat)
        advise(kind, view, history, random.Random(0), samples=5)  # warm the tables
        actions = len(rules.legal_actions(state, seat))
        report.line(f"{kind}, {seats} seats, phase {view['phase']}, {actions} legal actions:")
        for samples in (200, 1000, 5000):
            times, estimates = [], []
            for run in range(args.runs if samples < 5000 else max(2, args.runs // 2)):
                start = time.perf_counter()
                advice = advise(kind, view, history, random.Random(run), samples=samples)
                times.append(time.perf_counter() - start)
                estimates.append([figure(e, kind) for e in advice])
            spread = max(statistics.stdev(col) for col in zip(*estimates, strict=True))
            rate = samples * actions / statistics.median(times)
            unit = "loss-chance points" if kind == "scat" else "points"
            report.line(
                f"  {samples:>5} samples/action: {statistics.median(times) * 1000:8.1f} ms "
                f"({rate:,.0f} playouts/s); spread between runs {spread:.2f} {unit}"
            )
        rng = random.Random(1)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            choose_action(kind, state, seat, "expert", rng, history=history)
            times.append(time.perf_counter() - start)
        report.line(
            f"  expert decision (default samples): "
            f"median {statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms"
        )
    for kind in ("scat", "scattle"):
        for seats in (2, 4):
            times = expert_times(kind, seats, args.games)
            report.line(
                f"{kind}, {seats} seats, every expert decision of {args.games} games against good bots "
                f"({len(times)} decisions, CPU time of this process): median {percentile(times, 0.5):.1f} ms, "
                f"99th percentile {percentile(times, 0.99):.1f} ms, largest {max(times, default=0):.1f} ms"
            )
    report.save(collect=False)  # bench/results/advisor.txt only


def expert_times(kind: str, seats: int, games: int) -> list[float]:
    """CPU milliseconds per expert decision (the ones with a choice) over whole games against good
    bots, after the tables the first decision builds are warm (bench positions above)."""
    rules = get_rules(kind)
    times: list[float] = []

    def expert(state, seat, rng, history):
        if len(rules.legal_actions(state, seat)) < 2:
            return choose_action(kind, state, seat, "expert", rng, history=history)
        start = time.process_time()
        action = choose_action(kind, state, seat, "expert", rng, history=history)
        times.append(1000 * (time.process_time() - start))
        return action

    for game in range(games):
        one_seat_against_good_bots(kind, seats, game, expert, prefix="advisor-times")
    return times


if __name__ == "__main__":
    main()
