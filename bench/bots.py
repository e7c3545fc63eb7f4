"""How much better the good bot plays than the random one, and the expert than the good one.

Run from the project folder (no database needed):

    .venv/bin/python -m bench.bots [--games 2000] [--expert-games 2000] [--workers 2]

For each game kind, plays `--games` two-seat games of the good bot against the random bot
(default options, the good bot in seat 0 in even games and seat 1 in odd ones, so moving first
favours neither), and prints the good bot's wins, ties and losses, its win rate (ties count
half) with a 95% Wilson interval, and whether it is clearly better: the interval's lower end
above 50%.

Then, for each kind, `--expert-games` games of the expert bot against the good bot at two seats
(goal: the expert wins at least 60%) and at four seats, one expert and three good bots (goal: at
least 35%; a fair share is 25%), the expert's seat rotating from game to game. A win is first place
(a shared first place counts as that share). The games are spread over `--workers` processes; the
report gives the run time and the expert's mean decision time. Writes bench/results/bots.txt.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from multiprocessing import Pool

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


def expert_game(job: tuple[str, int, int]) -> tuple[float, int, float]:
    """One game of the expert against good bots: (the expert's share of first place, its decisions,
    the seconds they took)."""
    kind, seats, game = job
    rules = get_rules(kind)
    rng = random.Random(f"expert-bench-{kind}-{seats}-{game}")
    expert = game % seats
    state = rules.new_game(seats, None, f"expert-bench-{kind}-{seats}-{game}")
    events = list(state["deal_events"])
    decisions, spent = 0, 0.0
    while (seat := rules.to_act(state)) is not None:
        if seat == expert:
            start = time.perf_counter()
            action = choose_action(kind, state, seat, "expert", rng, history=rules.view_events(events, seat))
            spent += time.perf_counter() - start
            decisions += 1
        else:
            action = choose_action(kind, state, seat, "good", rng)
        state, new = rules.apply(state, seat, action)
        events += new
    places = rules.outcome(state)["places"]
    firsts = places.count(1)
    return (1 / firsts if places[expert] == 1 else 0.0), decisions, spent


def expert_pairings(report: Report, games: int, workers: int) -> None:
    goals = {2: 0.60, 4: 0.35}
    report.line("")
    report.line(f"Expert bot against good bots, {games} games per line, {workers} worker processes")
    with Pool(workers) as pool:
        for kind in ("scat", "scattle"):
            for seats in (2, 4):
                start = time.perf_counter()
                results = pool.map(expert_game, [(kind, seats, g) for g in range(games)], chunksize=4)
                wins = sum(r[0] for r in results)
                decisions = sum(r[1] for r in results)
                spent = sum(r[2] for r in results)
                low, high = wilson(wins, games)
                goal = goals[seats]
                met = "yes" if wins / games >= goal else "NO"
                who = "expert vs good" if seats == 2 else "one expert, three good"
                report.line(
                    f"{kind} {seats} seats ({who}): expert wins {wins:.1f}/{games} = {wins / games:.1%} "
                    f"(95% CI {low:.1%}-{high:.1%}); goal {goal:.0%}: {met}; "
                    f"{1000 * spent / max(decisions, 1):.1f} ms per expert decision; "
                    f"{time.perf_counter() - start:.0f} s"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--expert-games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
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
    if args.expert_games:
        expert_pairings(report, args.expert_games, args.workers)
    report.save()


if __name__ == "__main__":
    main()
