"""How much better the good bot plays than the random one.

Run from the project folder (no database needed):

    .venv/bin/python -m bench.bots [--games 2000]

For each game kind, plays `--games` two-seat games of the good bot against the random bot
(default options, the good bot in seat 0 in even games and seat 1 in odd ones, so moving first
favours neither), and prints the good bot's wins, ties and losses, its win rate (ties count
half) with a 95% Wilson interval, and whether it is clearly better: the interval's lower end
above 50%. Writes bench/results/bots.txt.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from bench.common import Report
from games.engine import get_rules
from games.engine.bots import choose_action


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def head_to_head(kind: str, games: int) -> tuple[int, int, int]:
    rules = get_rules(kind)
    rng = random.Random(2024)
    wins = ties = losses = 0
    for game in range(games):
        good = game % 2
        levels = ["random", "random"]
        levels[good] = "good"
        state = rules.new_game(2, None, f"bots-bench-{kind}-{game}")
        while (seat := rules.to_act(state)) is not None:
            state, _ = rules.apply(state, seat, choose_action(kind, state, seat, levels[seat], rng))
        places = rules.outcome(state)["places"]
        if places[good] < places[1 - good]:
            wins += 1
        elif places[good] == places[1 - good]:
            ties += 1
        else:
            losses += 1
    return wins, ties, losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    report = Report("bots", f"Good bot against random bot (bench/bots.py), {args.games} games per kind")
    for kind in ("scat", "scattle"):
        start = time.perf_counter()
        wins, ties, losses = head_to_head(kind, args.games)
        rate = (wins + ties / 2) / args.games
        low, high = wilson(wins + ties / 2, args.games)
        clearly = "yes" if low > 0.5 else "NO"
        report.line(
            f"{kind}: good vs random: {wins} wins / {ties} ties / {losses} losses; win rate {rate:.1%} "
            f"(95% CI {low:.1%}-{high:.1%}); clearly better: {clearly}; {time.perf_counter() - start:.0f} s"
        )
    report.save()


if __name__ == "__main__":
    main()
